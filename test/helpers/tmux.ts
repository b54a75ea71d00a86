import { spawnSync } from 'node:child_process';

/**
 * A real pseudo-terminal for end-to-end tests of the terminal client: a tmux server on a
 * socket of the test's own (`tmux -L <name>`), a shell in it, keys sent with `send-keys`
 * and the screen read with `capture-pane`. Waits poll the screen with a deadline; nothing
 * waits a fixed time.
 */

/** The line that installs tmux, for the skip message. */
export const TMUX_INSTALL = 'sudo apt-get install -y tmux';

/** Whether a `tmux` binary runs here. */
export function tmuxInstalled(): boolean {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  return probe.status === 0;
}

/**
 * `describe` when tmux is installed; otherwise a skipped `describe` whose name says so and
 * how to install it (jest lists it as skipped, by name, instead of failing on a newcomer's
 * machine).
 */
export function describeWithTmux(name: string, body: () => void): void {
  if (tmuxInstalled()) describe(name, body);
  else describe.skip(`${name} (skipped: tmux is not installed; install it with: ${TMUX_INSTALL})`, body);
}

/** One tmux server (its own socket) with one shell session at a time. */
export class TmuxTerminal {
  private session = 0;

  constructor(
    private readonly socket: string,
    private readonly cwd: string
  ) {}

  private tmux(...args: string[]): string {
    const run = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`tmux ${args.join(' ')} failed (${String(run.status)}): ${run.stderr}`);
    return run.stdout;
  }

  private get target(): string {
    return `t${this.session}`;
  }

  /** A fresh shell (the previous session is closed): 160 columns, 50 lines, a plain prompt. */
  open(env: Record<string, string> = {}): void {
    // The new session first, then the previous one killed: killed first, it left the server with no
    // session, and tmux exits then (exit-empty); a new-session that reached the exiting server's
    // socket failed with "server exited unexpectedly".
    const previous = this.session > 0 ? this.target : undefined;
    this.session++;
    const exports = Object.entries({ PS1: '$ ', ...env }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    this.tmux('new-session', '-d', '-s', this.target, '-x', '160', '-y', '50', '-c', this.cwd, ...exports, 'bash --norc --noprofile');
    if (previous) this.tmux('kill-session', '-t', previous);
  }

  /** Types a command line and Enter. */
  run(line: string): void {
    this.tmux('send-keys', '-t', this.target, '-l', line);
    this.tmux('send-keys', '-t', this.target, 'Enter');
  }

  /** Sends keys by tmux name (`Enter`, `Down`, `C-c`, `y`). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.target, ...keys);
  }

  /** The screen and its history, wrapped lines joined. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', this.target);
  }

  /** Polls the screen until `pattern` matches; the match. Fails with the screen after `timeoutMs`. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      const match = pattern.exec(screen);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Runs a command line and waits for its exit status (the line ends with `; echo EXIT=$?`). */
  async exitOf(timeoutMs = 30_000): Promise<number> {
    const match = await this.waitFor(/^EXIT=(\d+)\s*$/m, timeoutMs);
    return Number(match[1]);
  }

  /** Ends the tmux server of this socket (every session in it). */
  close(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-server'], { encoding: 'utf8' });
  }
}
