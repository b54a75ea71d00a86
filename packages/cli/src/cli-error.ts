/**
 * Exit codes of `mcpfusion`. The terminal client is a program of its own, apart from the
 * library: its failures end the process with one of these codes and a message on stderr.
 */
export const ExitCode = {
  /** The command did what was asked (for `call`: a result that is not `isError`). */
  OK: 0,
  /** The tool ran and answered `isError: true`. */
  TOOL_ERROR: 1,
  /** A protocol error: a JSON-RPC error, a connection that failed or closed, a malformed answer. */
  PROTOCOL_ERROR: 2,
  /** The command line is wrong (unknown flag, missing target, an argument that does not fit the tool's schema); nothing was sent. */
  USAGE: 64,
  /** The user pressed Ctrl-C: the call was cancelled. */
  CANCELLED: 130
} as const;

/** One of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure of the terminal client that ends it with a message and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.USAGE
  ) {
    super(message);
    this.name = 'CliError';
  }
}
