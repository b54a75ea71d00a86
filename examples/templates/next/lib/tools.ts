import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { inject } from 'tsyringe';
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
  requireInput
} from '@mcpfusion/core';
import { NoteBook } from './notes';
import { pause } from './pause';

/** How long `notes.import` pauses between two notes, in ms; provided by the app (see app.ts). */
export const IMPORT_PACE = Symbol('IMPORT_PACE');

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
  @JSONSchema({ description: 'The notes to add, in order' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  texts!: string[];
}

/**
 * The tools: ordinary methods of an injectable class. One of each kind: `@Action` (read-only),
 * `@Mutation` (destructive: mutations run one at a time), `@Interactive` (asks the user), and a
 * generator that reports progress and stops when the call is cancelled.
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
   * Adds the notes one by one, with progress after each. The pause between two notes ends with
   * the call's signal, so a cancelled import stops midway and releases the mutation lock at once.
   */
  @Mutation('notes.import', { description: 'Add many notes, one by one, reporting progress' })
  async *import(@Input() input: ImportNotesInput, @Signal() signal: AbortSignal) {
    const total = input.texts.length;
    for (let i = 1; i <= total; i++) {
      this.notes.add(input.texts[i - 1]!);
      yield progress({ progress: i, total, message: `imported ${i} of ${total}` });
      if (i < total) await pause(this.pace, signal);
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
