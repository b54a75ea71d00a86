import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The rules `npm run api:check` holds the API reports to, across the entry points (scripts/api/surface-rules.cjs). */
const rules = require('../../../scripts/api/surface-rules.cjs') as {
  exportedNames(text: string): Set<string>;
  isRootReport(file: string): boolean;
  surfaceProblems(reports: ReadonlyArray<{ file: string; text: string }>): string[];
};

const ETC = join(__dirname, '..', '..', '..', 'etc');

/** A report as API Extractor writes one, trimmed to what the rules read. */
const report = (file: string, ...lines: string[]) => ({ file, text: ['```ts', ...lines, '```', ''].join('\n') });

describe('API surface rules', () => {
  it('the committed reports: the root uses no type it does not export, the others none that no entry point exports, and no name collides', () => {
    const reports = readdirSync(ETC)
      .filter((f) => f.endsWith('.api.md'))
      .map((f) => ({ file: `etc/${f}`, text: readFileSync(join(ETC, f), 'utf8') }));
    expect(reports.length).toBeGreaterThanOrEqual(4);
    expect(rules.surfaceProblems(reports)).toEqual([]);
  });

  it('names a type used in a public signature that no entry point exports, with the reports that use it and the fix', () => {
    const problems = rules.surfaceProblems([
      report('etc/core.api.md', '// @public', 'export class FusionError extends Error {}'),
      report(
        'etc/core-redis.api.md',
        '// @public',
        'export class RedisMutationLock {',
        '  // Warning: (ae-forgotten-export) The symbol "CallAbort" needs to be exported by the entry point redis/index.d.ts',
        '  acquireFor?(call: CallAbort): Promise<void>;',
        '}'
      ),
      report(
        'etc/core-testing.api.md',
        '// Warning: (ae-forgotten-export) The symbol "CallAbort" needs to be exported by the entry point testing/index.d.ts'
      )
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"CallAbort" is used in a public signature (etc/core-redis.api.md, etc/core-testing.api.md)');
    expect(problems[0]).toContain('no entry point exports it: export it');
  });

  it('accepts a forgotten export of another entry point that some entry point exports (the report is written per entry point)', () => {
    const problems = rules.surfaceProblems([
      report('etc/core.api.md', '// @public', 'export class FusionError extends Error {}', 'export { AuthInfo }'),
      report(
        'etc/core-redis.api.md',
        '// Warning: (ae-forgotten-export) The symbol "FusionError" needs to be exported by the entry point index.d.ts',
        '// Warning: (ae-forgotten-export) The symbol "AuthInfo" needs to be exported by the entry point index.d.ts'
      )
    ]);
    expect(problems).toEqual([]);
  });

  it('refuses any forgotten export in the root report, even of a name another entry point exports, and says to export it from src/index.ts', () => {
    const problems = rules.surfaceProblems([
      report(
        'etc/core.api.md',
        '// @public',
        'export class FusionApp {',
        '  // Warning: (ae-forgotten-export) The symbol "ListenOptions" needs to be exported by the entry point index.d.ts',
        '  listen(options?: ListenOptions): Promise<void>;',
        '  // Warning: (ae-forgotten-export) The symbol "CallAbort" needs to be exported by the entry point index.d.ts',
        '  abort(call: CallAbort): void;',
        '}'
      ),
      report('etc/core-advanced.api.md', '// @public', 'export type ListenOptions = { port: number };'),
      report(
        'etc/core-redis.api.md',
        '// Warning: (ae-forgotten-export) The symbol "CallAbort" needs to be exported by the entry point redis/index.d.ts'
      )
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^"CallAbort" is used in a signature of the package root \(etc\/core-redis\.api\.md, etc\/core\.api\.md\) but the root does not export it: /
    );
    expect(problems[1]).toMatch(
      /^"ListenOptions" is used in a signature of the package root \(etc\/core\.api\.md\) but the root does not export it \(only etc\/core-advanced\.api\.md does, which is not enough\)/
    );
    for (const problem of problems) expect(problem).toContain('export it from src/index.ts, type-only');
    expect(problems[1]).toContain("`export type { ListenOptions } from '…'`");
  });

  it('knows the root report by its name, wherever it is', () => {
    expect(['etc/core.api.md', 'core.api.md', 'etc/core-advanced.api.md', 'etc/score.api.md'].map((f) => rules.isRootReport(f))).toEqual([
      true,
      true,
      false,
      false
    ]);
  });

  it('names a colliding declaration (Name_2), whether ours collide or ours and a global', () => {
    const problems = rules.surfaceProblems([
      report(
        'etc/core.api.md',
        '// Warning: (ae-forgotten-export) The symbol "progress_2" needs to be exported by the entry point index.d.ts',
        'export const progress: typeof progress_2;',
        'function progress_2(percent: number): ProgressEvent_2;',
        'interface ProgressEvent_2 {',
        '  readonly percent: number;',
        '}',
        'export { ProgressEvent_2 as ProgressEvent };'
      )
    ]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^"ProgressEvent_2" \(etc\/core\.api\.md\): two declarations are named "ProgressEvent"/);
    expect(problems[1]).toMatch(/^"progress_2" \(etc\/core\.api\.md\): two declarations are named "progress".*`typeof progress`/);
  });

  it('reads the exported names of a report: declarations and export lists, renamed ones by their public name', () => {
    const names = rules.exportedNames(
      report(
        'x',
        'export interface A {}',
        'export abstract class B {}',
        'export const c: number;',
        'export { D, E_2 as E }',
        'interface Hidden {}'
      ).text
    );
    expect([...names].sort()).toEqual(['A', 'B', 'D', 'E', 'c']);
  });
});
