import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Action, Input, JSONSchema, Mutation, ToolProvider } from '@mcpfusion/core';
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

/** The tools: ordinary methods of an injectable class. */
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
}
