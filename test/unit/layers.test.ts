import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The library's layers cannot be crossed by accident: its import graph has no cycle, type-only
 * imports included (the lint's import-x/no-cycle skips those), and the leaf of shared types
 * imports nothing.
 */
const SRC = join(__dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative imports and re-exports of a file, type-only ones included, resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((spec) => {
    const base = resolve(dirname(file), spec);
    for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
      try {
        readFileSync(candidate);
        return candidate;
      } catch {
        // try the next spelling
      }
    }
    throw new Error(`${relative(SRC, file)} imports ${spec}, which is not a file of src`);
  });
}

describe('the import graph of src/', () => {
  const files = sources(SRC);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('has no cycle, type-only imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(SRC, f)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('the shared types (src/types/core.ts) import nothing of the framework (type-only imports of the SDK at most)', () => {
    const leaf = join(SRC, 'types', 'core.ts');
    expect(graph.get(leaf)).toEqual([]);
    for (const line of readFileSync(leaf, 'utf8')
      .split('\n')
      .filter((l) => /^\s*import\s/.test(l)))
      expect(line).toMatch(/^import type /);
  });
});
