import { FusionApp } from '@mcpfusion/core';
import { NOTE_LIMIT, NoteBook } from './notes';
import { StarterTools } from './tools';

/** Builds the app; main.ts serves it, the tests call it directly or through a client. */
export function createApp(options: { noteLimit?: number } = {}): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-starter',
    version: '0.1.0',
    tools: [StarterTools],
    providers: [{ provide: NOTE_LIMIT, useValue: options.noteLimit ?? 100 }, NoteBook],
    // In production an unexpected exception reaches clients as a reference into the server's log.
    maskErrors: process.env.NODE_ENV === 'production'
  });
}
