import { relative } from 'node:path';
import { DECORATOR_FLAGS } from './project-config';

/** One error `tsc` reported: where, its code (`TS1240`), and its text. */
export interface CompileError {
  /** The file as tsc named it (relative to the project), or undefined for a global error. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly code: string;
  readonly message: string;
}

/**
 * The codes tsc gives decorators it cannot type: the signature of a class, property, method or
 * parameter decorator unresolved (TS1238–TS1241), a decorator's return type refused (TS1270,
 * TS1271), decorators "not valid here" (TS1206) or experimental (TS1219). Without
 * `experimentalDecorators` every decorator of the framework gets one of them.
 */
const DECORATOR_CODES = new Set(['TS1206', 'TS1219', 'TS1238', 'TS1239', 'TS1240', 'TS1241', 'TS1270', 'TS1271']);

/** Reads one line of `tsc --pretty false` (`src/a.ts(12,5): error TS2322: …`); other lines: undefined. */
export function parseErrorLine(line: string): CompileError | undefined {
  const located = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
  if (located) {
    const [, file, lineNo, column, code, message] = located;
    return { file, line: Number(lineNo), column: Number(column), code, message };
  }
  const global = /^error (TS\d+): (.*)$/.exec(line);
  return global ? { code: global[1], message: global[2] } : undefined;
}

/** The errors as the terminal shows them: `file:line:column - error TSxxxx: message`, one a line. */
export function formatErrors(errors: readonly CompileError[]): string[] {
  return errors.map((error) =>
    error.file
      ? `${error.file}:${error.line}:${error.column} - error ${error.code}: ${error.message}`
      : `error ${error.code}: ${error.message}`
  );
}

/**
 * When the errors look like missing decorator flags: the two flags and the tsconfig to edit
 * (tsc's own messages name neither). Also when the tsconfig lacks `emitDecoratorMetadata` alone,
 * which compiles but leaves the framework without the parameter types it injects by.
 */
export function decoratorFlagsHint(errors: readonly CompileError[], tsconfigChain: readonly string[], cwd: string): string | undefined {
  if (!errors.some((error) => DECORATOR_CODES.has(error.code))) return undefined;
  return `These errors mean the decorator flags are missing. ${missingFlagsHint(DECORATOR_FLAGS, tsconfigChain, cwd)}`;
}

/** What to set, and where: the tsconfig compiled, or the file it extends (where `mcpfusion init` puts them). */
export function missingFlagsHint(flags: readonly string[], tsconfigChain: readonly string[], cwd: string): string {
  const settings = flags.map((flag) => `"${flag}": true`).join(' and ');
  const [compiled, ...bases] = tsconfigChain.map((file) => relative(cwd, file) || file);
  const where = bases.length > 0 ? `${bases[bases.length - 1]} (which ${compiled} extends)` : compiled;
  return `Set ${settings} in "compilerOptions" of ${where}: the framework needs both.`;
}
