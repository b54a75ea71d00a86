import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/**
 * A tool's method is held to its declared output when the program is compiled: the expected
 * type errors of test/types/handler-returns.types.ts (a `@ts-expect-error` suite) are compiled
 * here with the repository's compiler options, and each error says what to do.
 */
const ROOT = join(__dirname, '..', '..', '..');
const SUITE = join(ROOT, 'test', 'types', 'handler-returns.types.ts');

function options(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      }
    }
  )!;
  return { ...parsed.options, noEmit: true, incremental: false };
}

/** The diagnostics of `file`, with `text` as its content when given (the rest read from disk). */
function diagnose(file: string, text?: string): ts.Diagnostic[] {
  const compilerOptions = options();
  const host = ts.createCompilerHost(compilerOptions);
  if (text !== undefined) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, ...rest) =>
      name === file ? ts.createSourceFile(name, text, language) : read(name, language, ...rest);
  }
  const program = ts.createProgram([file], compilerOptions, host);
  return ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file);
}

const show = (d: ts.Diagnostic): string =>
  `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;

describe("a tool's return type against its declared output (compile time)", () => {
  it('the suite compiles: every fitting return is accepted, every misfit is an error where it is expected', () => {
    expect(diagnose(SUITE).map(show)).toEqual([]);
  }, 120_000);

  it('each misfit is a decorator error that names the fix', () => {
    const source = readFileSync(SUITE, 'utf8');
    const expected = source.split('\n').filter((line) => line.trim().startsWith('// @ts-expect-error')).length;
    expect(expected).toBeGreaterThanOrEqual(8);
    const errors = diagnose(SUITE, source.replace(/\/\/ @ts-expect-error.*$/gm, ''));
    expect(errors).toHaveLength(expected);
    for (const error of errors) {
      expect(error.code).toBe(1241);
      expect(show(error)).toContain(
        'the method must return (or resolve, or return from its generator) the declared output class, or an InputRound; throw a ToolError for a refusal'
      );
    }
  }, 120_000);
});
