/** Log levels, least to most severe (the protocol's syslog levels). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Sends one `notifications/message` (the SDK applies the client's level filter). */
export type LogSend = (level: LogLevel, data: unknown, logger?: string) => Promise<void>;

/**
 * The context logger (`ctx.log`): sends `notifications/message` to the client that made the
 * call. The client's level applies (`logging/setLevel` on 2025-era sessions; the per-request
 * `logLevel` on 2026-07-28, where no level means no messages). Messages are written before
 * the response. For the server's own diagnostics use stderr (the app's `logger` option).
 */
export interface CallLogger {
  /** A message at any level, optionally naming the logger. */
  message(level: LogLevel, data: unknown, logger?: string): void;
  debug(data: unknown): void;
  info(data: unknown): void;
  warning(data: unknown): void;
  error(data: unknown): void;
}

/** A call's logger; it keeps the writes so the response can wait for them. One object per call. */
export class LogChannel implements CallLogger {
  private pending: Promise<void>[] | undefined;

  constructor(private readonly send: LogSend | undefined) {}

  message(level: LogLevel, data: unknown, logger?: string): void {
    if (!this.send) return;
    (this.pending ??= []).push(this.send(level, data, logger).catch(() => undefined));
  }

  debug(data: unknown): void {
    this.message('debug', data);
  }

  info(data: unknown): void {
    this.message('info', data);
  }

  warning(data: unknown): void {
    this.message('warning', data);
  }

  error(data: unknown): void {
    this.message('error', data);
  }

  /** Whether messages are still being written. */
  get pendingWrites(): boolean {
    return this.pending !== undefined && this.pending.length > 0;
  }

  /** Resolves when every message logged so far is written. */
  async flush(): Promise<void> {
    while (this.pending && this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }
}
