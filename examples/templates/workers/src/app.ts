import { FusionApp, type ContinuationStore, type TaskStore } from '@mcpfusion/core';
import { IMPORT_PACE, NOTE_LIMIT, NoteBook } from './notes';
import { StarterTools } from './tools';

/** What the Worker builds the app with (index.ts reads it from its env bindings). */
export interface AppOptions {
  /** Signs the state of input rounds (notes.clear's question): the same on every isolate, at least 32 bytes. */
  stateKey: string;
  noteLimit?: number;
  importPaceMs?: number;
  /** In production an unexpected exception reaches clients as a reference into the log. */
  maskErrors?: boolean;
  /** Single-use states and exactly-once rounds shared by every isolate (index.ts: the Durable Object). */
  continuationStore?: ContinuationStore;
  /** Task records shared by every isolate (index.ts: the Durable Object). */
  taskStore?: TaskStore;
}

/** Builds the app; index.ts serves it on the Worker's first request. */
export function createApp(options: AppOptions): FusionApp {
  return FusionApp.create({
    name: 'mcpfusion-workers',
    version: '0.1.0',
    tools: [StarterTools],
    providers: [
      { provide: NOTE_LIMIT, useValue: options.noteLimit ?? 1000 },
      { provide: IMPORT_PACE, useValue: options.importPaceMs ?? 10 },
      NoteBook
    ],
    stateKey: options.stateKey,
    maskErrors: options.maskErrors ?? false,
    ...(options.continuationStore ? { continuationStore: options.continuationStore } : {}),
    ...(options.taskStore ? { tasks: { store: options.taskStore } } : {})
  });
}
