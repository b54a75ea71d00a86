// First: tsyringe and the decorators below read the type metadata through `Reflect`.
import 'reflect-metadata';
import { FusionApp } from '@mcpfusion/core';
import { NOTE_LIMIT, NoteBook } from './notes.ts';
import { IMPORT_PACE } from './pace.ts';
import { StarterTools } from './tools.ts';

/** What the app is made with; main.ts takes the defaults, the tests pick their own. */
export interface AppOptions {
  /** The most notes the book keeps. Default 100. */
  noteLimit?: number;
  /** The pause `notes.import` makes between two notes, in ms. Default 10. */
  pace?: number;
}

/** Builds the app; main.ts serves it, the tests call it directly or through a client. */
export function createApp(options: AppOptions = {}): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-deno',
    version: '0.1.0',
    tools: [StarterTools],
    providers: [
      { provide: NOTE_LIMIT, useValue: options.noteLimit ?? 100 },
      { provide: IMPORT_PACE, useValue: options.pace ?? 10 },
      NoteBook
    ],
    // In production an unexpected exception reaches clients as a reference into the server's log.
    maskErrors: Deno.env.get('NODE_ENV') === 'production'
  });
}
