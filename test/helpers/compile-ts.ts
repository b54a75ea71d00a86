import * as ts from 'typescript';

/** Type-checks TypeScript files as a strict project would (no emit): the diagnostics, as text, one per line. */
export function typeCheck(files: readonly string[]): string[] {
  const program = ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    skipLibCheck: true,
    types: []
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
