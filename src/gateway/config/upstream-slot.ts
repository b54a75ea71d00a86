import { UpstreamError } from '../../errors';
import type { FrontSessions } from '../../types/front-sessions';
import { ProxiedServer } from '../gateway';
import type { ProxyOptions } from '../proxy-options';
import type { ConfiguredServer } from './servers-config';

/** Where an upstream of a set stands (see `UpstreamHealth`). */
export type UpstreamState = 'connecting' | 'up' | 'down';

/** One upstream's line in the health resource (`mcpfusion://gateway/health`). */
export interface UpstreamHealth {
  /** Its name in the config file. */
  readonly name: string;
  /** The namespace its members are served under. */
  readonly namespace: string;
  /** How the gateway reaches it: a spawned program, or an HTTP endpoint. */
  readonly transport: 'stdio' | 'http';
  /** `connecting` (its first try), `up` (served), `down` (failing; tried again at `nextRetryAt`). */
  readonly state: UpstreamState;
  /** Tools served from it now (its last listing, kept while it is down). */
  readonly tools: number;
  /** When it entered this state (ISO 8601). */
  readonly since: string;
  /** Why it is down (its last failure), while down. */
  readonly lastError?: string;
  /** When the gateway tries it again (ISO 8601), while down. */
  readonly nextRetryAt?: string;
  /** Failed tries in a row. */
  readonly failures: number;
}

/** How a slot retries (see `ProxyServersOptions`). */
export interface SlotTiming {
  /** A connection and first listing that take longer are a failure (the upstream is slow: tried again later). */
  readonly connectTimeoutMs: number;
  /** The first retry's delay; each next one doubles, up to `maxRetryMs`. */
  readonly retryMs: number;
  readonly maxRetryMs: number;
}

/** What a slot tells its set. */
export interface SlotEvents {
  /** Its members changed (it came up with a listing, or its listing changed). */
  readonly changed: () => void;
  /** A resource it serves changed (its front URI). */
  readonly resourceUpdated: (uri: string) => void;
  /** Its state changed (the health resource did). */
  readonly stateChanged: () => void;
  readonly log: (message: string) => void;
  /** The front sessions its upstream's traffic outside calls goes to (see `LateFrontSessions`). */
  readonly sessions?: FrontSessions;
}

/**
 * One upstream of a set (`proxyServers`): a {@link ProxiedServer} once it answers, and a loop that
 * connects it, and connects it again with backoff after it goes down. The others never wait for
 * it: its members are whatever it listed last (none before it first answered), and while it is
 * down every request to it fails at once with an error naming it, its last error and the next try.
 * The loop's waits end on `close()` (an AbortSignal), and their timers are cleared.
 */
export class UpstreamSlot {
  private server: ProxiedServer | undefined;
  private unsubscribe: (() => void) | undefined;
  private state: UpstreamState = 'connecting';
  private since = new Date();
  private lastError: string | undefined;
  private nextRetryAt: Date | undefined;
  private failures = 0;
  private running = false;
  private readonly stop = new AbortController();
  /** Settles when the first try ended (up or down). */
  readonly firstTry: Promise<void>;
  private firstTried: () => void = () => undefined;

  constructor(
    readonly config: ConfiguredServer,
    private readonly options: ProxyOptions,
    private readonly timing: SlotTiming,
    private readonly events: SlotEvents
  ) {
    this.firstTry = new Promise<void>((resolve) => (this.firstTried = resolve));
    this.connect();
  }

  /** The server it serves through (undefined before it first answered). */
  get current(): ProxiedServer | undefined {
    return this.server;
  }

  /** Its line in the health resource. */
  health(): UpstreamHealth {
    return {
      name: this.config.name,
      namespace: this.config.namespace,
      transport: this.config.target.kind,
      state: this.state,
      tools: this.server?.tools().length ?? 0,
      since: this.since.toISOString(),
      ...(this.state === 'down' && this.lastError ? { lastError: this.lastError } : {}),
      ...(this.state === 'down' && this.nextRetryAt ? { nextRetryAt: this.nextRetryAt.toISOString() } : {}),
      failures: this.failures
    };
  }

  /** Stops the loop and closes the server. Idempotent. */
  async close(): Promise<void> {
    this.stop.abort();
    this.unsubscribe?.();
    const server = this.server;
    this.server = undefined;
    await server?.close();
  }

  /** Starts the loop (its first try after `waitMs`), unless it runs already or the slot is closed. */
  private connect(waitMs = 0): void {
    if (this.running || this.stop.signal.aborted) return;
    this.running = true;
    void this.loop(waitMs).finally(() => {
      this.running = false;
      this.firstTried();
    });
  }

  private async loop(waitMs: number): Promise<void> {
    const signal = this.stop.signal;
    let delay = this.timing.retryMs;
    if (waitMs > 0) {
      this.nextRetryAt = new Date(Date.now() + waitMs);
      await pause(waitMs, signal);
      delay = Math.min(delay * 2, this.timing.maxRetryMs);
    }
    while (!signal.aborted) {
      const candidate: ProxiedServer = new ProxiedServer(
        this.config.target,
        { ...this.options, namespace: this.config.namespace },
        { lost: (reason) => this.lost(candidate, reason), refuse: () => this.refusal(candidate) }
      );
      try {
        await deadline(candidate.refresh(), this.timing.connectTimeoutMs, signal, this.config.name);
        if (signal.aborted) throw signal.reason;
        this.install(candidate);
        return;
      } catch (error) {
        // A connection still being made is closed when it completes (close() does not wait for it).
        void candidate.close().catch(() => undefined);
        if (signal.aborted) return;
        this.failures++;
        this.enter('down', firstLine(error));
        this.nextRetryAt = new Date(Date.now() + delay);
        this.events.log(`upstream "${this.config.name}" is down: ${this.lastError}; trying again in ${Math.round(delay / 100) / 10} s.`);
        this.events.stateChanged();
        this.firstTried();
        await pause(delay, signal);
        delay = Math.min(delay * 2, this.timing.maxRetryMs);
      }
    }
  }

  /** A server that answered becomes the one served through; the one before it (down) is closed. */
  private install(server: ProxiedServer): void {
    const previous = this.server;
    this.unsubscribe?.();
    this.server = server;
    this.unsubscribe = server.subscribe({
      listChanged: () => this.events.changed(),
      resourceUpdated: (uri) => this.events.resourceUpdated(uri),
      ...(this.events.sessions ? { sessions: this.events.sessions } : {})
    });
    this.failures = 0;
    this.nextRetryAt = undefined;
    this.enter('up', undefined);
    this.events.log(`upstream "${this.config.name}" is up: ${server.tools().length} tool(s) under "${this.config.namespace}".`);
    this.events.changed();
    void previous?.close().catch(() => undefined);
  }

  /** The served server's connection was lost, or could not be made: down, and the loop tries again. */
  private lost(server: ProxiedServer, reason: Error): void {
    if (server !== this.server || this.state !== 'up' || this.stop.signal.aborted) return;
    this.enter('down', firstLine(reason));
    this.failures++;
    this.events.log(
      `upstream "${this.config.name}" went down: ${this.lastError}; trying again in ${Math.round(this.timing.retryMs / 100) / 10} s.`
    );
    // Not at once: a server that crashed at its start would be spawned again in a tight loop.
    this.connect(this.timing.retryMs);
    this.events.stateChanged();
  }

  /** While the served server is down, its requests fail at once, naming it. */
  private refusal(server: ProxiedServer): Error | undefined {
    if (server !== this.server || this.state === 'up') return undefined;
    const retry = this.nextRetryAt ? ` The gateway tries it again at ${this.nextRetryAt.toISOString()}.` : ' The gateway is reconnecting.';
    return new UpstreamError(
      `The upstream "${this.config.name}" is down (${this.lastError ?? 'not connected'}).${retry} Its tools fail until it is back; the others work.`
    );
  }

  private enter(state: UpstreamState, error: string | undefined): void {
    if (state !== this.state) this.since = new Date();
    this.state = state;
    this.lastError = error;
  }
}

/** `work`, or a failure after `ms` (a slow upstream) or on `signal`; the timer is cleared either way. */
async function deadline<T>(work: Promise<T>, ms: number, signal: AbortSignal, name: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error(`${name}: closed`));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    work.catch(() => undefined);
    bound.catch(() => undefined);
  }
}

/** Waits `ms`, or until `signal` aborts (then at once); the timer is cleared either way. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 500);
}
