/** Log levels, least to most severe (the protocol's syslog levels). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Sends one `notifications/message` (the SDK applies the client's level filter). */
export type LogSend = (level: LogLevel, data: unknown, logger?: string) => Promise<void>;

/**
 * The context logger: sends `notifications/message` to the client that made the call. The
 * client's level applies (`logging/setLevel` on 2025-era sessions; the per-request `logLevel`
 * on 2026-07-28, where no level means no messages). Messages are written before the
 * response. For the server's own diagnostics use stderr (the app's `logger` option).
 */
export interface CallLogger {
  (level: LogLevel, data: unknown, logger?: string): void;
  debug(data: unknown): void;
  info(data: unknown): void;
  warning(data: unknown): void;
  error(data: unknown): void;
}

/** Collects a call's log writes so the response can wait for them. */
export class LogChannel {
  private readonly pending: Promise<void>[] = [];
  constructor(private readonly send: LogSend | undefined) {}

  readonly logger: CallLogger = Object.assign(
    (level: LogLevel, data: unknown, logger?: string) => {
      if (this.send) this.pending.push(this.send(level, data, logger).catch(() => undefined));
    },
    {
      debug: (data: unknown) => this.logger('debug', data),
      info: (data: unknown) => this.logger('info', data),
      warning: (data: unknown) => this.logger('warning', data),
      error: (data: unknown) => this.logger('error', data)
    }
  );

  /** Resolves when every message logged so far is written. */
  async flush(): Promise<void> {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }
}
