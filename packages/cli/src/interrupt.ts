import type { Terminal } from './terminal';

const CTRL_C = '\u0003';

/**
 * Ctrl-C while a call runs. The first one aborts {@link signal} (the call is cancelled the
 * protocol's way by whoever holds the signal); the second one calls `exitNow` at once.
 *
 * On a TTY, stdin is put in raw mode while the call runs, so Ctrl-C arrives here as a byte
 * and not as SIGINT to the whole process group: a server spawned over stdio (same group)
 * is not killed by the terminal, it gets the protocol's cancellation. SIGINT (from `kill`,
 * or without a TTY) is handled the same way.
 */
export class Interrupt {
  private readonly controller = new AbortController();
  private presses = 0;
  private readonly onData = (chunk: Buffer | string): void => {
    // Two presses can arrive in one read.
    for (const char of chunk.toString()) if (char === CTRL_C) this.press();
  };
  private readonly onSigint = (): void => this.press();
  private raw = false;

  constructor(
    private readonly terminal: Terminal,
    private readonly exitNow: () => void
  ) {}

  /** Aborted at the first Ctrl-C. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts listening (raw stdin on a TTY, and SIGINT). */
  arm(): void {
    process.on('SIGINT', this.onSigint);
    this.listen();
  }

  /**
   * Lets keys already typed reach this listener, which drops them, before a prompt takes stdin:
   * a question can arrive in the same turn of the event loop as bytes still unread in the
   * terminal, and those would answer it. Two turns (`setImmediate`) make one poll of stdin run.
   */
  async settle(): Promise<void> {
    if (!this.raw) return;
    for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Stops reading stdin (while a prompt reads it); SIGINT stays handled. Keys typed before
   * the prompt are dropped here (after {@link settle}), not left for it to read: they would
   * answer a question the user had not seen yet (an Enter pressed early would take the default).
   */
  suspend(): void {
    this.terminal.in.off('data', this.onData);
    if (this.raw) while (this.terminal.in.read() !== null) continue;
    if (this.raw && this.terminal.in.isTTY) this.terminal.in.setRawMode(false);
    this.raw = false;
    this.terminal.in.pause();
  }

  /** Reads stdin again after a prompt. */
  resume(): void {
    this.listen();
  }

  /** Counts a Ctrl-C typed into a prompt (the prompt ended with it). */
  press(): void {
    this.presses++;
    if (this.presses === 1) this.controller.abort(new Error('Cancelled by Ctrl-C'));
    else this.exitNow();
  }

  /** Stops listening: stdin back to cooked mode and released, SIGINT to its default. */
  disarm(): void {
    process.off('SIGINT', this.onSigint);
    this.suspend();
  }

  private listen(): void {
    const input = this.terminal.in;
    if (!input.isTTY) return;
    input.setRawMode(true);
    this.raw = true;
    input.on('data', this.onData);
    input.resume();
  }
}
