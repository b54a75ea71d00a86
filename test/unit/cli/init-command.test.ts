import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { CliError } from '../../../packages/cli/src/cli-error';
import { runInit } from '../../../packages/cli/src/init-command';
import { nameWorker, pinDenoImports } from '../../../packages/cli/src/init/project-manifest';
import { copyTemplate, isTemplateFile } from '../../../packages/cli/src/init/template-files';
import { TEMPLATE_NAMES, type TemplateName } from '../../../packages/cli/src/init/template-names';
import { TEMPLATES } from '../../../packages/cli/src/init/templates';
import type { Terminal } from '../../../packages/cli/src/terminal';
import { CLI_BIN, CLI_PACKAGE } from '../../helpers/cli-bin';

/**
 * `mcpfusion init [--template <name>] <dir>` into a temporary folder (scripts/starter/check.sh runs the
 * node template from the packed tarball and tests what it wrote; test/integration/targets/ run the others).
 */
const ROOT = join(__dirname, '..', '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let work: string;
let said: string;
const terminal = (): Terminal => {
  said = '';
  const err = new PassThrough();
  err.on('data', (chunk: Buffer) => (said += chunk.toString()));
  return { out: new PassThrough(), err, in: new PassThrough(), interactive: false, colour: false } as unknown as Terminal;
};
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'mcpfusion-init-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `dir`, relative and `/`-separated. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path, base) : [relative(base, path).split('\\').join('/')];
  });
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The commands init printed after `cd <dir>`. */
const printed = (): string[] =>
  said
    .split('\n')
    .slice(2)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');

describe('mcpfusion init <dir> (the node template, the default)', () => {
  it('writes the starter: named after the folder, asking for this version of the framework, and says what to run', () => {
    const dir = join(work, 'My Server');
    expect(runInit({ command: 'init', dir }, terminal())).toBe(0);
    for (const file of ['tsconfig.json', 'jest.config.js', 'Dockerfile', '.gitignore', 'README.md', 'src/tools.ts', 'test/tools.test.ts'])
      expect([file, existsSync(join(dir, file))]).toEqual([file, true]);
    const manifest = readJson<Manifest & { dependencies: Record<string, string>; devDependencies: Record<string, string> }>(
      join(dir, 'package.json')
    );
    const version = readJson<{ version: string }>(join(ROOT, 'package.json')).version;
    expect(manifest.name).toBe('my-server');
    expect(manifest.dependencies).toMatchObject({
      '@mcpfusion/core': `^${version}`,
      tsyringe: expect.any(String),
      'reflect-metadata': expect.any(String),
      'class-validator': expect.any(String),
      'class-transformer': expect.any(String)
    });
    // The CLI (npx mcpfusion dev, list, call) is a development dependency, of the same release.
    expect(manifest.devDependencies['@mcpfusion/cli']).toBe(`^${version}`);
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@mcpfusion/'))).toEqual(['@mcpfusion/core']);
    const tsconfig = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toContain('"experimentalDecorators": true');
    expect(tsconfig).toContain('"emitDecoratorMetadata": true');
    expect(readFileSync(join(dir, 'src', 'tools.ts'), 'utf8')).toMatch(/@Action\([\s\S]*@Mutation\([\s\S]*@Interactive\(\)/);
    expect(said).toContain('npm install');
    expect(said).toContain('npm test');
    expect(said).toContain('npm start');
    expect(said).toContain('npm run dev');
    // What docs/getting-started.md shows, line for line.
    expect(said).toBe(`✔ wrote ${dir}: a server with three kinds of tool and their tests

  cd ${dir}
  npm install
  npm run dev     # serves http://127.0.0.1:3000/mcp, reloads on every edit
  npm test        # type-check, then the tests
  npm start       # builds, then serves

`);
  });

  it('refuses a folder that is not empty, and changes nothing in it', () => {
    const dir = join(work, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    expect(() => runInit({ command: 'init', dir }, terminal())).toThrow(CliError);
    expect(() => runInit({ command: 'init', dir }, terminal())).toThrow(/exists and is not empty/);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});

/**
 * Every template this repository holds, found at run time (examples/starter, and each folder of
 * examples/templates/), written by init as a clone runs it: each is a template init knows by name, and
 * the project it writes holds the template's files, its manifests pinned to this release.
 */
const TEMPLATES_DIR = join(ROOT, 'examples', 'templates');
const inRepository: Array<[name: string, source: string]> = [
  ['node', join(ROOT, 'examples', 'starter')],
  ...(existsSync(TEMPLATES_DIR)
    ? readdirSync(TEMPLATES_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry): [string, string] => [entry.name, join(TEMPLATES_DIR, entry.name)])
    : [])
];

describe.each(inRepository.map(([name, source]) => [name, relative(ROOT, source), source]))(
  'mcpfusion init --template %s (from %s)',
  (name, _where, source) => {
    it('is a template init knows, at the place init looks for it', () => {
      expect(TEMPLATE_NAMES).toContain(name);
      expect(join(ROOT, ...TEMPLATES[name as TemplateName].source.split('/'))).toBe(source);
    });

    it('writes every file of the template, its manifests named after the folder and asking for this release', () => {
      const dir = join(work, 'Acme Tools');
      expect(runInit({ command: 'init', dir, template: name as TemplateName }, terminal())).toBe(0);
      const manifests = ['package.json', 'deno.json', 'deno.jsonc', 'wrangler.jsonc', 'wrangler.json', 'wrangler.toml'];
      const expected = filesUnder(source).filter(isTemplateFile);
      expect(filesUnder(dir).filter((file) => file !== '.gitignore')).toEqual(
        expect.arrayContaining(expected.filter((file) => file !== '.gitignore'))
      );
      for (const file of expected.filter((f) => !manifests.includes(f)))
        expect([file, readFileSync(join(dir, file), 'utf8') === readFileSync(join(source, file), 'utf8')]).toEqual([file, true]);
      for (const left of ['node_modules', 'dist', '.wrangler', '.next', 'package-lock.json', 'bun.lock', 'bun.lockb', 'deno.lock'])
        expect([left, existsSync(join(dir, left))]).toEqual([left, false]);
      expect(existsSync(join(dir, '.gitignore'))).toBe(true);

      expect(existsSync(join(dir, 'package.json')) || existsSync(join(dir, 'deno.json')) || existsSync(join(dir, 'deno.jsonc'))).toBe(true);
      if (existsSync(join(dir, 'package.json'))) {
        const manifest = readJson<Manifest>(join(dir, 'package.json'));
        expect(manifest.name).toBe('acme-tools');
        expect({ ...manifest.dependencies, ...manifest.devDependencies }['@mcpfusion/core']).toBe(`^${VERSION}`);
        expect(manifest.devDependencies?.['@mcpfusion/cli']).toBe(`^${VERSION}`);
      }
      for (const file of ['wrangler.jsonc', 'wrangler.json'].filter((f) => existsSync(join(dir, f))))
        expect([file, /"name"\s*:\s*"([^"]*)"/.exec(readFileSync(join(dir, file), 'utf8'))?.[1]]).toEqual([file, 'acme-tools']);
      for (const file of ['deno.json', 'deno.jsonc'].filter((f) => existsSync(join(dir, f)))) {
        const text = readFileSync(join(dir, file), 'utf8');
        // Every npm: specifier of the framework asks for this release.
        for (const [specifier] of text.matchAll(/npm:@mcpfusion\/[\w-]+(@[^/"'\s]*)?/g))
          expect([file, specifier]).toEqual([
            file,
            expect.stringMatching(new RegExp(`^npm:@mcpfusion/(core|cli)@\\^${VERSION.replace(/\./g, '\\.')}$`))
          ]);
      }
    });

    it('says the commands of its runtime: the install, then scripts the project has', () => {
      const dir = join(work, 'app');
      runInit({ command: 'init', dir, template: name as TemplateName }, terminal());
      const facts = TEMPLATES[name as TemplateName];
      expect(said).toContain(`wrote ${dir} (template ${name}): ${facts.what}`);
      const commands = printed();
      expect(commands[0]).toBe(`cd ${dir}`);
      if (facts.install) expect(commands[1]).toBe(facts.install);
      expect(commands.length).toBeGreaterThan(facts.install ? 2 : 1);
      const scripts = new Set([
        ...Object.keys(existsSync(join(dir, 'package.json')) ? (readJson<Manifest>(join(dir, 'package.json')).scripts ?? {}) : {}),
        ...Object.keys(existsSync(join(dir, 'deno.json')) ? (readJson<{ tasks?: object }>(join(dir, 'deno.json')).tasks ?? {}) : {})
      ]);
      for (const step of facts.steps.filter((s) => s.script !== undefined && !existsSync(join(dir, 'deno.jsonc'))))
        expect([step.command, commands.includes(step.command)]).toEqual([step.command, scripts.has(step.script!)]);
    });
  }
);

/**
 * The published package's layout (starter/ and templates/<name>/ beside dist/, as scripts/copy-templates.mjs
 * packs them), built here from small fixture templates: a package root of its own with another version.
 */
describe('mcpfusion init --template <name> from a packed @mcpfusion/cli', () => {
  let root: string;
  beforeEach(() => {
    root = join(work, 'cli');
    write(join(root, 'package.json'), JSON.stringify({ name: '@mcpfusion/cli', version: '7.8.9' }));
    write(
      join(root, 'starter', 'package.json'),
      JSON.stringify({
        name: 'starter',
        scripts: { dev: 'mcpfusion dev', test: 'jest', start: 'node dist/main.js' },
        dependencies: { '@mcpfusion/core': '^0.1.0' }
      })
    );
    // Bun: package.json, its .gitignore stored as _gitignore, and what an install and a build leave.
    write(
      join(root, 'templates', 'bun', 'package.json'),
      JSON.stringify({
        name: 'bun-template',
        scripts: { dev: 'bun --watch src/main.ts', test: 'bun test' },
        dependencies: { '@mcpfusion/core': 'file:../../..', hono: '^4' }
      })
    );
    write(join(root, 'templates', 'bun', '_gitignore'), 'node_modules/\nlocal.db\n');
    write(join(root, 'templates', 'bun', 'src', 'main.ts'), 'Bun.serve({ fetch: (r) => app.fetch(r) });\n');
    write(join(root, 'templates', 'bun', 'bun.lock'), '{}');
    write(join(root, 'templates', 'bun', 'node_modules', 'x', 'index.js'), '');
    write(join(root, 'templates', 'bun', 'dist', 'main.js'), '');
    // Deno: deno.json and no package.json; one specifier pinned, one subpath, one import-map entry into the repository.
    write(
      join(root, 'templates', 'deno', 'deno.json'),
      JSON.stringify(
        {
          compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true },
          tasks: { dev: 'deno run -A --watch main.ts', test: 'deno test -A' },
          imports: {
            '@mcpfusion/core': 'npm:@mcpfusion/core@^0.1.0',
            '@mcpfusion/core/testing': 'npm:@mcpfusion/core@^0.1.0/testing',
            '@mcpfusion/core/advanced': '../../../dist/advanced.js',
            'reflect-metadata': 'npm:reflect-metadata@^0.2.2'
          }
        },
        null,
        2
      )
    );
    write(join(root, 'templates', 'deno', 'main.ts'), 'Deno.serve(app.fetch);\n');
    write(join(root, 'templates', 'deno', 'deno.lock'), '{}');
    // Workers: no start script; wrangler's local state left out.
    write(
      join(root, 'templates', 'workers', 'package.json'),
      JSON.stringify({ name: 'w', scripts: { dev: 'wrangler dev', test: 'vitest' }, dependencies: { '@mcpfusion/core': '^0.1.0' } })
    );
    write(
      join(root, 'templates', 'workers', 'wrangler.jsonc'),
      '{\n  // the Worker\'s name\n  "name": "mcpfusion-workers",\n  "main": "dist/index.js",\n  "vars": { "name": "kept" }\n}\n'
    );
    write(join(root, 'templates', 'workers', '.wrangler', 'state', 'kv'), '');
    write(join(root, 'templates', 'workers', '_npmrc'), 'legacy-peer-deps=false\n');
  });

  it('copies the bun template: this release, its .gitignore back, nothing an install or a build left, bun commands', () => {
    const dir = join(work, 'my-app');
    expect(runInit({ command: 'init', dir, template: 'bun' }, terminal(), root)).toBe(0);
    expect(filesUnder(dir).sort()).toEqual(['.gitignore', 'package.json', 'src/main.ts']);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\nlocal.db\n');
    expect(readJson<Manifest>(join(dir, 'package.json'))).toEqual({
      name: 'my-app',
      scripts: { dev: 'bun --watch src/main.ts', test: 'bun test' },
      dependencies: { '@mcpfusion/core': '^7.8.9', hono: '^4' },
      devDependencies: { '@mcpfusion/cli': '^7.8.9' }
    });
    // No start script in the template: no `bun run start` in the advice.
    expect(printed()).toEqual([`cd ${dir}`, 'bun install', 'bun run dev', 'bun run test']);
  });

  it('copies the deno template (deno.json, no package.json): its npm: imports ask for this release; deno task, no install', () => {
    const dir = join(work, 'deno-app');
    expect(runInit({ command: 'init', dir, template: 'deno' }, terminal(), root)).toBe(0);
    expect(filesUnder(dir).sort()).toEqual(['.gitignore', 'deno.json', 'main.ts']);
    const config = readJson<{ imports: Record<string, string>; compilerOptions: object }>(join(dir, 'deno.json'));
    expect(config.imports).toEqual({
      '@mcpfusion/core': 'npm:@mcpfusion/core@^7.8.9',
      '@mcpfusion/core/testing': 'npm:@mcpfusion/core@^7.8.9/testing',
      '@mcpfusion/core/advanced': 'npm:@mcpfusion/core@^7.8.9/advanced',
      'reflect-metadata': 'npm:reflect-metadata@^0.2.2'
    });
    expect(config.compilerOptions).toEqual({ experimentalDecorators: true, emitDecoratorMetadata: true });
    expect(printed()).toEqual([`cd ${dir}`, 'deno task dev', 'deno task test']);
  });

  it('copies the workers template: wrangler dev to run it, .npmrc back, no .wrangler state', () => {
    const dir = join(work, 'worker');
    expect(runInit({ command: 'init', dir, template: 'workers' }, terminal(), root)).toBe(0);
    expect(filesUnder(dir).sort()).toEqual(['.gitignore', '.npmrc', 'package.json', 'wrangler.jsonc']);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('.wrangler/');
    // The Worker is the project's (wrangler deploy publishes it under that name); the rest, comments included, as it was.
    expect(readFileSync(join(dir, 'wrangler.jsonc'), 'utf8')).toBe(
      '{\n  // the Worker\'s name\n  "name": "worker",\n  "main": "dist/index.js",\n  "vars": { "name": "kept" }\n}\n'
    );
    expect(printed()).toEqual([
      `cd ${dir}`,
      'npm install',
      'cp .dev.vars.example .dev.vars',
      'npx wrangler dev',
      'npm test',
      'npx wrangler secret put STATE_KEY',
      'npx wrangler deploy'
    ]);
  });

  it('copies the starter for node, of this release', () => {
    const dir = join(work, 'node-app');
    expect(runInit({ command: 'init', dir, template: 'node' }, terminal(), root)).toBe(0);
    expect(readJson<Manifest>(join(dir, 'package.json')).dependencies).toEqual({ '@mcpfusion/core': '^7.8.9' });
    expect(printed()).toEqual([`cd ${dir}`, 'npm install', 'npm run dev', 'npm test', 'npm start']);
  });

  it('refuses a template this copy lacks, naming where it looked, and writes nothing', () => {
    const dir = join(work, 'hono-app');
    expect(() => runInit({ command: 'init', dir, template: 'hono' }, terminal(), root)).toThrow(
      new CliError(
        `this copy of @mcpfusion/cli has no hono template (looked in ${join(root, '..', '..', 'examples', 'templates', 'hono')} and ${join(root, 'templates', 'hono')})`
      )
    );
    expect(existsSync(dir)).toBe(false);
  });

  it.each(['bun', 'deno', 'workers'] as const)('refuses a folder that is not empty (%s), and changes nothing in it', (template) => {
    const dir = join(work, 'taken');
    write(join(dir, 'package.json'), '{"name":"mine"}');
    expect(() => runInit({ command: 'init', dir, template }, terminal(), root)).toThrow(/taken exists and is not empty/);
    expect(filesUnder(dir)).toEqual(['package.json']);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
  });

  it('packs a template and writes it back unchanged (copyTemplate both ways)', () => {
    const source = join(work, 'source');
    write(join(source, '.gitignore'), 'a\n');
    write(join(source, 'sub', '.npmrc'), 'b\n');
    write(join(source, 'sub', 'file.ts'), 'c\n');
    write(join(source, 'sub', 'node_modules', 'd.js'), 'd\n');
    write(join(source, 'package-lock.json'), '{}');
    copyTemplate(source, join(work, 'packed'), true);
    expect(filesUnder(join(work, 'packed')).sort()).toEqual(['_gitignore', 'sub/_npmrc', 'sub/file.ts']);
    copyTemplate(join(work, 'packed'), join(work, 'project'), false);
    expect(filesUnder(join(work, 'project')).sort()).toEqual(['.gitignore', 'sub/.npmrc', 'sub/file.ts']);
  });
});

describe('nameWorker', () => {
  it('names the Worker after the project, in the letters a Worker name allows, in wrangler.toml too', () => {
    expect(nameWorker('name = "old"\nmain = "dist/index.js"\n', true, 'my_app.v2')).toBe('name = "my-app-v2"\nmain = "dist/index.js"\n');
    expect(nameWorker('{ "name": "old" }', false, '...')).toBe('{ "name": "mcp-server" }');
  });
});

describe('pinDenoImports', () => {
  it('pins every npm: specifier of the framework and keeps the rest of a deno.jsonc, comments included', () => {
    const jsonc = `{
  // the framework, from npm
  "imports": {
    "@mcpfusion/core": "npm:@mcpfusion/core@0.1.0",
    "@mcpfusion/core/": "npm:@mcpfusion/core/",
    "@mcpfusion/cli": "npm:@mcpfusion/cli",
    "hono": "npm:hono@^4.13.0"
  }
}
`;
    expect(pinDenoImports(jsonc, '1.2.3')).toBe(`{
  // the framework, from npm
  "imports": {
    "@mcpfusion/core": "npm:@mcpfusion/core@^1.2.3",
    "@mcpfusion/core/": "npm:@mcpfusion/core@^1.2.3/",
    "@mcpfusion/cli": "npm:@mcpfusion/cli@^1.2.3",
    "hono": "npm:hono@^4.13.0"
  }
}
`);
  });

  it('leaves a deno.json that names no framework package as it is', () => {
    const text = '{ "imports": { "hono": "npm:hono@^4" } }\n';
    expect(pinDenoImports(text, '1.2.3')).toBe(text);
  });
});

/** The programs as a user runs them (built by `npm run compile`). */
describe('the mcpfusion and create-mcpfusion programs', () => {
  it('mcpfusion init --template <unknown> exits 64 with the names, and writes nothing', () => {
    const result = spawnSync(process.execPath, [CLI_BIN, 'init', '--template', 'rails', join(work, 'x')], { encoding: 'utf8' });
    expect(result.status).toBe(64);
    expect(result.stderr).toContain('unknown template "rails": use node, bun, deno, workers, hono or next');
    expect(existsSync(join(work, 'x'))).toBe(false);
  });

  it('npm create mcpfusion -- --template <name> <dir> passes the template on; without a folder it writes my-mcp-server', () => {
    const create = join(CLI_PACKAGE, '..', 'create-mcpfusion', 'index.js');
    const named = spawnSync(process.execPath, [create, '--template', 'node', 'my-app'], { cwd: work, encoding: 'utf8' });
    expect([named.status, named.stderr]).toEqual([0, expect.stringContaining('wrote my-app (template node)')]);
    expect(readJson<Manifest>(join(work, 'my-app', 'package.json')).name).toBe('my-app');
    const unnamed = spawnSync(process.execPath, [create, '--template=node'], { cwd: work, encoding: 'utf8' });
    expect([unnamed.status, unnamed.stderr]).toEqual([0, expect.stringContaining('wrote my-mcp-server (template node)')]);
    const unknown = spawnSync(process.execPath, [create, '--template', 'rails', 'other'], { cwd: work, encoding: 'utf8' });
    expect([unknown.status, unknown.stderr]).toEqual([64, expect.stringContaining('unknown template "rails"')]);
    expect(existsSync(join(work, 'other'))).toBe(false);
  });

  it('scripts/copy-templates.mjs (prepack) puts the starter and every template into the package; --clean (postpack) removes them', () => {
    // A repository of its own: the script and init's compiled filter, examples/ with a starter and two templates.
    const repo = join(work, 'repo');
    const cli = join(repo, 'packages', 'cli');
    write(join(cli, 'scripts', 'copy-templates.mjs'), readFileSync(join(CLI_PACKAGE, 'scripts', 'copy-templates.mjs'), 'utf8'));
    write(join(cli, 'dist', 'init', 'template-files.js'), readFileSync(join(CLI_PACKAGE, 'dist', 'init', 'template-files.js'), 'utf8'));
    write(join(repo, 'examples', 'starter', 'package.json'), '{}');
    write(join(repo, 'examples', 'starter', '.gitignore'), 'dist/\n');
    write(join(repo, 'examples', 'starter', 'node_modules', 'x.js'), '');
    write(join(repo, 'examples', 'templates', 'deno', 'deno.json'), '{}');
    write(join(repo, 'examples', 'templates', 'next', 'package.json'), '{}');
    write(join(repo, 'examples', 'templates', 'next', '.next', 'cache'), '');
    write(join(repo, 'examples', 'templates', 'next', 'app', 'mcp', 'route.ts'), '');
    const copy = spawnSync(process.execPath, [join(cli, 'scripts', 'copy-templates.mjs')], { encoding: 'utf8' });
    expect([copy.status, copy.stderr]).toEqual([0, expect.stringContaining('templates/{deno,next}')]);
    expect(filesUnder(join(cli, 'starter')).sort()).toEqual(['_gitignore', 'package.json']);
    expect(filesUnder(join(cli, 'templates')).sort()).toEqual(['deno/deno.json', 'next/app/mcp/route.ts', 'next/package.json']);
    const clean = spawnSync(process.execPath, [join(cli, 'scripts', 'copy-templates.mjs'), '--clean'], { encoding: 'utf8' });
    expect(clean.status).toBe(0);
    expect([existsSync(join(cli, 'starter')), existsSync(join(cli, 'templates'))]).toEqual([false, false]);
  });

  it("the CLI package's files list ships starter/ and templates/, and packs them with copy-templates.mjs", () => {
    const manifest = readJson<{ files: string[]; scripts: Record<string, string> }>(join(CLI_PACKAGE, 'package.json'));
    expect(manifest.files).toEqual(expect.arrayContaining(['starter', 'templates']));
    expect(manifest.scripts.prepack).toContain('node scripts/copy-templates.mjs');
    expect(manifest.scripts.postpack).toBe('node scripts/copy-templates.mjs --clean');
  });
});
