import { inject } from 'tsyringe';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import {
  Action,
  Input,
  Interactive,
  JSONSchema,
  Mutation,
  Signal,
  ToolError,
  ToolProvider,
  ask,
  progress,
  readInput,
  requireInput,
  type ProgressUpdate
} from '@mcpfusion/core';
import { IMPORT_PACE, NoteBook } from './notes';

/** The input of `greet`: a class, so the framework derives its JSON Schema and validates it. */
export class GreetInput {
  @JSONSchema({ description: 'Who to greet' })
  @IsString()
  @Length(1, 50)
  name!: string;

  @JSONSchema({ description: 'The greeting word (default "Hello")' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  greeting?: string;
}

export class AddNoteInput {
  @JSONSchema({ description: 'The text of the note' })
  @IsString()
  @Length(1, 200)
  text!: string;
}

export class ImportNotesInput {
  @JSONSchema({ description: 'The texts of the notes to add, in order' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  texts!: string[];
}

/** Waits `ms`, or rejects as soon as `signal` aborts (the timer is cleared: nothing is left running). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The tools: ordinary methods of an injectable class. One of each kind: `@Action` (read-only),
 * `@Mutation` (destructive: mutations run one at a time), and `@Interactive` (asks the user).
 */
@ToolProvider()
export class StarterTools {
  constructor(
    private readonly notes: NoteBook,
    @inject(IMPORT_PACE) private readonly pace: number
  ) {}

  @Action('greet', { description: 'Say hello to someone by name' })
  greet(@Input() input: GreetInput): string {
    return `${input.greeting ?? 'Hello'}, ${input.name}!`;
  }

  @Action('notes.list', { description: 'List the notes taken so far, oldest first' })
  list(): { notes: { id: number; text: string }[] } {
    return { notes: this.notes.list() };
  }

  @Mutation('notes.add', { description: 'Add a note to the note book' })
  add(@Input() input: AddNoteInput): { id: number; text: string } {
    return this.notes.add(input.text);
  }

  /**
   * A long write: a generator reports progress after each note, and the call's signal ends the
   * pause between notes, so a cancelled import stops midway (the notes added so far stay) and
   * the next mutation runs at once.
   */
  @Mutation('notes.import', { description: 'Add many notes, one by one, reporting progress; can be cancelled midway' })
  async *import(@Input() input: ImportNotesInput, @Signal() signal: AbortSignal): AsyncGenerator<ProgressUpdate, string, undefined> {
    const total = input.texts.length;
    for (const [index, text] of input.texts.entries()) {
      if (index > 0) await pause(this.pace, signal);
      this.notes.add(text);
      yield progress({ progress: index + 1, total, message: `imported ${index + 1} of ${total}` });
    }
    return `Imported ${total} notes.`;
  }

  @Interactive()
  @Mutation('notes.clear', { description: 'Delete every note, after the user confirms' })
  clear() {
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) {
      const count = this.notes.list().length;
      return requireInput.elicit(
        `Delete all ${count} notes?`,
        { confirm: ask.boolean('Delete them') },
        { onDecline: 'Nothing was deleted.' }
      );
    }
    if (!confirm) throw new ToolError('Nothing was deleted.');
    return `Deleted ${this.notes.clear()} notes.`;
  }
}
