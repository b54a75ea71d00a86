import type { CallLogger, LogLevel } from '../types/context';
import type { LogSend } from '../types/request';

/** A call's logger; it keeps the writes so the response can wait for them. One object per call. */
export class LogChannel implements CallLogger {
  private pending: Promise<void>[] | undefined;

  constructor(private send: LogSend | undefined) {}

  /** Whether messages go anywhere (the connection can carry them, and the channel is not closed). */
  get open(): boolean {
    return this.send !== undefined;
  }

  /** Drops every later message (the call has no stream to write to: it is, or may become, a task). */
  close(): void {
    this.send = undefined;
  }

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
