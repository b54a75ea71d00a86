import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Importing the package does nothing a Cloudflare Worker forbids in global scope: no timer, no
 * random value, no `AbortController` or `AbortSignal.timeout`/`any`, no `fetch`. A Worker stops the
 * whole script at the first one (`Disallowed operation called within global scope`), so each must
 * be made on first use instead (docs/deploy.md, "What the package does at import").
 *
 * Each entry point of package.json's "exports" is required from dist/ in a child `node -e`, with
 * those operations replaced by traps that throw (the error names the module that called one), and
 * restored afterwards. `node -e` also stands in for a bundle: the requiring module has no file and
 * `process.argv[1]` is unset, so the legacy-decorator check reads nothing (as in a Worker).
 *
 * The same child records which `node:` built-ins are loaded, and by which module: the Node-only
 * ones (`node:http`, `node:fs`, `node:child_process`, `node:os`, …) are loaded where they are used,
 * never at import, and not on the path of `app.createHttpHandler().fetch(request)` either.
 *
 * It also records which of the validation libraries are loaded (class-validator, which brings
 * libphonenumber-js and validator, class-transformer, class-validator-jsonschema's index): none at
 * import, nor for an app without input classes (the gateway is one); they load with the first input
 * class (src/schema/validation-libraries.ts).
 */
const ROOT = join(__dirname, '..', '..', '..');

/** Every run-time entry point of the package, read from its "exports" (so a new one is checked too). */
const ENTRIES: readonly string[] = Object.values(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { default?: string }> }).exports
)
  .map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target): target is string => typeof target === 'string' && target.startsWith('./dist/'));

/**
 * Built-ins a Worker provides only in part or not at all (or that only a long-lived Node process
 * needs): none is loaded at import of any entry point.
 */
const NODE_ONLY = [
  'child_process',
  'cluster',
  'dgram',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'os',
  'readline',
  'tty',
  'worker_threads'
];

/**
 * The child's script. Traps are installed before the first `require` and removed after the last;
 * the report goes to stdout as one JSON line: the forbidden calls (operation, the first module of
 * the stack that is not the trap's, the stack), and each built-in with the modules that required it.
 */
const PROBE = String.raw`
const Module = require('node:module');
const nodeCrypto = require('node:crypto');
const forbidden = [];
const restore = [];
const callerOf = (stack) => (stack.split('\n').slice(2).find((line) => /\(?\/.+:\d+:\d+\)?$/.test(line) && !line.includes('[eval]')) || '').trim();
function trap(owner, key, op, asClass) {
  const original = owner[key];
  if (typeof original !== 'function') return;
  const fail = () => {
    const error = new Error(op + ' called at import');
    forbidden.push({ op, module: callerOf(error.stack), stack: error.stack });
    return error;
  };
  owner[key] = asClass ? class extends original { constructor() { throw fail(); } } : function () { throw fail(); };
  restore.push(() => { owner[key] = original; });
}
trap(globalThis, 'setTimeout', 'setTimeout');
trap(globalThis, 'setInterval', 'setInterval');
trap(globalThis, 'setImmediate', 'setImmediate');
trap(globalThis, 'fetch', 'fetch');
trap(globalThis, 'AbortController', 'new AbortController()', true);
trap(AbortSignal, 'timeout', 'AbortSignal.timeout');
trap(AbortSignal, 'any', 'AbortSignal.any');
trap(Math, 'random', 'Math.random');
trap(globalThis.crypto, 'getRandomValues', 'crypto.getRandomValues');
trap(globalThis.crypto, 'randomUUID', 'crypto.randomUUID');
trap(nodeCrypto, 'randomBytes', 'node:crypto randomBytes');
trap(nodeCrypto, 'randomUUID', 'node:crypto randomUUID');
trap(nodeCrypto, 'getRandomValues', 'node:crypto getRandomValues');
const builtins = {};
const load = Module._load;
Module._load = function (request, parent) {
  const name = request.replace(/^node:/, '');
  if (Module.isBuiltin(request)) (builtins[name] ??= new Set()).add(parent && parent.filename ? parent.filename : '?');
  return load.apply(this, arguments);
};
let threw;
try {
  require(process.env.PROBE_ENTRY);
} catch (error) {
  threw = String(error && error.stack);
} finally {
  restore.reverse().forEach((undo) => undo());
}
const LAZY = /\/node_modules\/(class-validator|class-transformer|libphonenumber-js|validator)\/|\/node_modules\/class-validator-jsonschema\/build\/index\.js$/;
const lazyLoaded = () => [...new Set(Object.keys(require.cache).filter((file) => LAZY.test(file)).map((file) => file.split('/node_modules/').pop().split('/')[0]))].sort();
const report = () => Object.fromEntries(Object.entries(builtins).sort().map(([name, by]) => [name, [...by].sort()]));
const atImport = report();
const librariesAtImport = lazyLoaded();
async function fetchPath() {
  // As a Worker does it: the app made in the request handler, every request through handler.fetch.
  const core = require(process.env.PROBE_ENTRY);
  class Greeter { hello() { return 'hi'; } }
  Reflect.decorate([core.ToolProvider()], Greeter);
  Reflect.decorate([core.Action('hello', { description: 'Says hi' })], Greeter.prototype, 'hello', Object.getOwnPropertyDescriptor(Greeter.prototype, 'hello'));
  const app = core.FusionApp.create({ name: 'import-probe', version: '1.0.0', tools: [Greeter] });
  const handler = app.createHttpHandler();
  const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
  const client = new Client({ name: 'import-probe', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }));
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const called = (await client.callTool({ name: 'hello', arguments: {} })).content;
  const era = client.getNegotiatedProtocolVersion();
  await client.close();
  await handler.close();
  return { tools, called, era };
}
(process.env.PROBE_FETCH && !threw ? fetchPath() : Promise.resolve(undefined)).then(
  (served) => process.stdout.write(JSON.stringify({ forbidden, threw, atImport, librariesAtImport, served, afterFetch: served && report(), librariesAfterFetch: served && lazyLoaded() })),
  (error) => process.stdout.write(JSON.stringify({ forbidden, threw: String(error && error.stack), atImport }))
);
`;

interface ProbeReport {
  readonly forbidden: ReadonlyArray<{ op: string; module: string; stack: string }>;
  readonly threw?: string;
  /** Each built-in loaded at import, with the files that required it. */
  readonly atImport: Readonly<Record<string, readonly string[]>>;
  readonly served?: { tools: string[]; called: unknown; era: string };
  readonly afterFetch?: Readonly<Record<string, readonly string[]>>;
  /** The validation libraries (package names) loaded at import. */
  readonly librariesAtImport: readonly string[];
  /** The same after the fetch path (an app whose one tool has no input). */
  readonly librariesAfterFetch?: readonly string[];
}

async function probe(entry: string, fetchPath = false): Promise<ProbeReport> {
  const file = join(ROOT, entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (npm run build)`);
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', PROBE], {
    cwd: ROOT,
    env: { ...process.env, PROBE_ENTRY: file, ...(fetchPath ? { PROBE_FETCH: '1' } : {}) }
  });
  return JSON.parse(stdout) as ProbeReport;
}

/** The built-ins of `loaded` that `NODE_ONLY` names, each with the modules (relative to the package) that required it. */
function nodeOnly(
  loaded: Readonly<Record<string, readonly string[]>>,
  except: (name: string, by: string) => boolean = () => false
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, by] of Object.entries(loaded)) {
    const culprits = by.filter((file) => !except(name, file)).map((file) => file.replace(ROOT + '/', ''));
    if (NODE_ONLY.includes(name) && culprits.length > 0) out[name] = culprits;
  }
  return out;
}

describe('importing the package (what a Cloudflare Worker allows in global scope)', () => {
  it('checks every entry point of package.json "exports"', () => {
    expect(ENTRIES).toEqual(
      expect.arrayContaining(['./dist/index.js', './dist/advanced.js', './dist/testing/index.js', './dist/redis/index.js'])
    );
  });

  it.each(ENTRIES)(
    '%s makes no timer, random value, AbortController or fetch at import, and loads no Node-only built-in',
    async (entry) => {
      const report = await probe(entry);
      // On failure these name the operation and the module that made it (`module`), with the stack.
      expect(report.forbidden.map(({ op, module }) => ({ op, module }))).toEqual([]);
      expect(report.threw).toBeUndefined();
      expect(nodeOnly(report.atImport)).toEqual({});
      // Loaded with the first input class, not at import (a third of the package's load time).
      expect(report.librariesAtImport).toEqual([]);
    }
  );

  it('the fetch handler path (app made on the first request, a 2026-07-28 client through handler.fetch) loads no node:http, node:child_process or node:os', async () => {
    const report = await probe('./dist/index.js', true);
    expect(report.threw).toBeUndefined();
    expect(report.served).toEqual({ tools: ['hello'], called: [{ type: 'text', text: 'hi' }], era: '2026-07-28' });
    // The test's own SDK client is not the package. `node:fs` is read on Node by the startup check for a
    // second copy of tsyringe & co. (di/injection-check.js, after `require.resolve`, which a Worker bundle lacks).
    const ours = (name: string, by: string): boolean =>
      by.includes('/node_modules/@modelcontextprotocol/client/') || (name === 'fs' && by.endsWith('/dist/di/injection-check.js'));
    expect(nodeOnly(report.afterFetch!, ours)).toEqual({});
    // No input class, no validation library: an app like the gateway never loads them.
    expect(report.librariesAfterFetch).toEqual([]);
  });
});
