import { FusionApp } from '@mcpfusion/core';
import { IMPORT_PACE, NOTE_LIMIT, NoteBook } from './notes';
import { StarterTools } from './tools';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The most notes the book keeps (default 1000: one `notes.import` of the largest size fits). */
  noteLimit?: number;
  /** The pause between two notes of `notes.import`, in ms (default 10). */
  importPaceMs?: number;
}

/** Builds the app; server.ts mounts it in Hono, the tests call it directly or through a client. */
export function createApp(options: AppOptions = {}): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-hono',
    version: '0.1.0',
    tools: [StarterTools],
    providers: [
      { provide: NOTE_LIMIT, useValue: options.noteLimit ?? 1000 },
      { provide: IMPORT_PACE, useValue: options.importPaceMs ?? 10 },
      NoteBook
    ],
    // In production an unexpected exception reaches clients as a reference into the server's log.
    maskErrors: process.env.NODE_ENV === 'production'
  });
}
