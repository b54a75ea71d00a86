import { inject, injectable } from 'tsyringe';
import { ToolError } from '@mcpfusion/core';

/** The most notes the book keeps; provided by the app (see app.ts). */
export const NOTE_LIMIT = Symbol('NOTE_LIMIT');

/** The pause between two notes of `notes.import`, in ms (a stand-in for real work); provided by the app. */
export const IMPORT_PACE = Symbol('IMPORT_PACE');

export interface Note {
  id: number;
  text: string;
}

/** An in-memory note book, one per app: injected into the tools by tsyringe. */
@injectable()
export class NoteBook {
  private readonly notes: Note[] = [];

  constructor(@inject(NOTE_LIMIT) private readonly limit: number) {}

  add(text: string): Note {
    // A ToolError: a refusal the agent reads (any other exception is a bug, and goes to the server's log too).
    if (this.notes.length >= this.limit) throw new ToolError(`The note book is full (${this.limit} notes).`);
    const note = { id: this.notes.length + 1, text };
    this.notes.push(note);
    return note;
  }

  list(): Note[] {
    return [...this.notes];
  }

  /** Deletes every note; how many there were. */
  clear(): number {
    return this.notes.splice(0).length;
  }
}
