import type { CallKind, FusionApp, ListChanges } from '@mcpfusion/core';
import type { CompileError } from './compiler-report';

/** What happened in a dev session, in order. */
export type DevEvent =
  | { readonly kind: 'compiling' }
  | { readonly kind: 'compile-failed'; readonly errors: readonly CompileError[] }
  /** The new code serves: `changes` says which lists changed, `added` and `removed` the tools by name. */
  | {
      readonly kind: 'reloaded';
      readonly changes: ListChanges;
      readonly added: readonly string[];
      readonly removed: readonly string[];
    }
  /** The new code compiled but did not load (it threw, or its app did not build): the previous code serves. */
  | { readonly kind: 'reload-failed'; readonly message: string };

/**
 * INSPECTOR HOOK. What a browser inspector (inspector/) attaches to in
 * `mcpfusion dev`: the app being served (the same object across reloads: it adopts each new
 * definition), its MCP URL, each member's compiled chain, and the session's events (a reload,
 * the compiler's errors with file and line). The runner takes an `attachInspector` that receives
 * this session and returns the inspector's URL, which it prints beside the MCP URL.
 */
export interface DevSession {
  /** The app being served; its lists and chains are those of the code served now. */
  readonly app: FusionApp;
  /** The MCP endpoint (`http://127.0.0.1:<port>/mcp`). */
  readonly url: URL;
  /** The compiler's errors while the last compile failed (the previous code serving), else empty. */
  readonly compileErrors: readonly CompileError[];
  /** A member's compiled chain, as step names in order (`app.describeChain`): a tool by name, a prompt by name, a resource by URI. */
  describeChain(name: string, kind?: Exclude<CallKind, 'completion'>): readonly string[];
  /** Calls `listener` with each event from now on; returns the unsubscribe. */
  onEvent(listener: (event: DevEvent) => void): () => void;
}

/** What the inspector returns when it attached: the URL it serves its page at. */
export interface AttachedInspector {
  readonly url: URL;
  /** Ends the inspector (the runner's shutdown). */
  close(): Promise<void>;
}

/** Attaches an inspector to a dev session (the runner's option; none yet). */
export type AttachInspector = (session: DevSession) => Promise<AttachedInspector>;

/** The session the runner keeps: the hook's view of it, and how the runner tells it what happened. */
export class LiveDevSession implements DevSession {
  compileErrors: readonly CompileError[] = [];
  private readonly listeners = new Set<(event: DevEvent) => void>();

  constructor(
    readonly app: FusionApp,
    readonly url: URL
  ) {}

  describeChain(name: string, kind: Exclude<CallKind, 'completion'> = 'tool'): readonly string[] {
    return this.app.describeChain(name, kind);
  }

  onEvent(listener: (event: DevEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records an event and tells the listeners (one that throws does not stop the others). */
  emit(event: DevEvent): void {
    if (event.kind === 'compile-failed') this.compileErrors = event.errors;
    else if (event.kind === 'reloaded') this.compileErrors = [];
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the session goes on.
      }
    }
  }
}
