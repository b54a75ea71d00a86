// First: tsyringe and the decorators of the modules below read the type metadata through `Reflect`.
import 'reflect-metadata';
import { FusionApp } from '@mcpfusion/core';
import { IMPORT_PACE, NOTE_LIMIT, NoteBook } from './notes.ts';
import { StarterTools } from './tools.ts';

/** Builds the app; main.ts serves it, the tests call it directly or through a client. */
export function createApp(options: { noteLimit?: number; importPaceMs?: number } = {}): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-bun',
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
