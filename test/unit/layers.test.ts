import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

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

/** Every cycle of a directed graph (depth first), each as the path that closes it. */
function cyclesOf(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the import graph of src/', () => {
  const files = sources(SRC);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('has no cycle, type-only imports included', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' → '))).toEqual([]);
  });

  it('the shared types (src/types/) import nothing of the framework but each other, and only types', () => {
    const types = join(SRC, 'types');
    for (const file of files.filter((f) => f.startsWith(types + sep))) {
      for (const target of graph.get(file) ?? []) expect(relative(types, target)).not.toMatch(/^\.\./);
      for (const line of readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => /^\s*import\s/.test(l)))
        expect(line).toMatch(/^import type /);
    }
  });

  /**
   * The folders of src/ in layers, lowest first: a folder imports only folders of lower layers
   * (type imports included), so no two folders can import each other. A new folder must be
   * placed here; a new arrow that goes up or sideways fails this test, which is the point: a
   * change of the layering is a decision, made here in review.
   */
  const LAYERS: ReadonlyArray<readonly string[]> = [
    ['types', 'wire', 'errors'],
    // `extensions` holds the extension API's types and its startup rules (the app serves the set: app/extension-set.ts).
    ['config', 'extensions'],
    ['concurrency', 'schema', 'auth', 'di', 'telemetry'],
    ['interactive', 'metadata', 'presenters'],
    // `compose`: the naming rule of mount and gateway, and the registries of what is mounted.
    ['tasks', 'decorators', 'compose'],
    ['pipeline'],
    // Views (MCP Apps) are resources compiled through the pipeline; the resource catalog serves them.
    // Skills (the Skills extension) are written on the extension API, as the views' extension is.
    ['views', 'skills'],
    // `direct` calls a tool with no transport (`app.callTool`): the app imports it, the test client reuses it.
    ['surface', 'transports', 'direct'],
    // `toolSearch`: a search front over a tool catalog (the app makes one with each catalog and routes its two tools).
    ['tool-search'],
    // `cloudflare`: the Durable Object backing of the continuation and task stores, beside Redis's.
    ['app', 'redis', 'cloudflare'],
    // The gateway puts another server behind an app: it builds on the app (its `serve` makes one).
    // (The terminal client is a package apart, packages/cli: checked below.)
    ['testing', 'gateway']
  ];
  const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));
  const folderOf = (file: string): string => relative(SRC, file).split(sep)[0];
  const folderEdges = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!relative(SRC, file).includes(sep)) continue; // the package entry points (src/index.ts) may import anything
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to && relative(SRC, target).includes(sep))
        (folderEdges.get(from) ?? folderEdges.set(from, new Set()).get(from)!).add(to);
    }
  }

  it('places every folder of src/ in a layer', () => {
    const folders = [...new Set(files.map(folderOf).filter((f) => !f.endsWith('.ts')))];
    expect(folders.filter((folder) => !layerOf.has(folder))).toEqual([]);
  });

  it('imports folder to folder only downwards (the folder dependency matrix)', () => {
    const upward: string[] = [];
    for (const [from, tos] of folderEdges)
      for (const to of tos) if ((layerOf.get(to) ?? Infinity) >= (layerOf.get(from) ?? -1)) upward.push(`${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it('has no cycle between folders (type imports included)', () => {
    expect(cyclesOf(folderEdges).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('keeps transports on the ServedApp interface: no import of the app, the chain, tasks or input handling', () => {
    expect(
      [...(folderEdges.get('transports') ?? [])].filter((to) => ['app', 'pipeline', 'tasks', 'interactive', 'surface'].includes(to))
    ).toEqual([]);
  });

  it('keeps the terminal client (packages/cli) a package apart: it reaches the library only by its published entry points', () => {
    const CLI = join(SRC, '..', 'packages', 'cli', 'src');
    const escapes: string[] = [];
    const entries = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          for (const [, spec] of readFileSync(path, 'utf8').matchAll(/(?:from|require\()\s*'([^']+)'/g)) {
            if (spec.startsWith('.') && relative(CLI, resolve(dirname(path), spec)).startsWith('..'))
              escapes.push(`${relative(CLI, path)} → ${spec}`);
            if (spec.startsWith('@mcpfusion/core')) entries.add(spec);
          }
        }
      }
    };
    walk(CLI);
    expect(escapes).toEqual([]);
    const published = Object.keys((JSON.parse(readFileSync(join(SRC, '..', 'package.json'), 'utf8')) as { exports: object }).exports);
    expect([...entries].filter((spec) => !published.includes(`.${spec.slice('@mcpfusion/core'.length)}`))).toEqual([]);
  });

  it('keeps the app free of the test client (app.callTool runs through src/direct/, imported directly)', () => {
    expect(folderEdges.get('app')?.has('testing') ?? false).toBe(false);
  });
});
