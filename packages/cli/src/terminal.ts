/**
 * The terminal the client talks to. Results go to stdout (so they can be piped); everything
 * else (progress, questions, notes, errors) goes to stderr. Colour only when stdout is a TTY
 * and `NO_COLOR` is not set (https://no-color.org).
 */
export interface Terminal {
  readonly out: NodeJS.WriteStream;
  readonly err: NodeJS.WriteStream;
  readonly in: NodeJS.ReadStream;
  /** Whether questions can be asked: stdin and stderr are terminals. */
  readonly interactive: boolean;
  readonly colour: boolean;
}

/** The process's own terminal. */
export function processTerminal(env: NodeJS.ProcessEnv = process.env): Terminal {
  return {
    out: process.stdout,
    err: process.stderr,
    in: process.stdin,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    colour: Boolean(process.stdout.isTTY) && !env.NO_COLOR
  };
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;

/** A style name of {@link paint}. */
export type Style = keyof typeof CODES;

/** The text in the style when the terminal has colour, else the text as it is. */
export function paint(terminal: Pick<Terminal, 'colour'>, style: Style, text: string): string {
  if (!terminal.colour) return text;
  const [on, off] = CODES[style];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

/** Writes a line to stderr (notes, errors, the question's message). */
export function note(terminal: Terminal, line: string): void {
  terminal.err.write(`${line}\n`);
}
