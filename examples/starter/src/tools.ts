import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Action, Input, Interactive, JSONSchema, Mutation, ToolError, ToolProvider, ask, readInput, requireInput } from '@mcpfusion/core';
import { NoteBook } from './notes';

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

/**
 * The tools: ordinary methods of an injectable class. One of each kind: `@Action` (read-only),
 * `@Mutation` (destructive: mutations run one at a time), and `@Interactive` (asks the user).
 */
@ToolProvider()
export class StarterTools {
  constructor(private readonly notes: NoteBook) {}

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
