import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { TEMPLATE_NAMES } from '../../packages/cli/src/init/template-names';
import { TEMPLATES } from '../../packages/cli/src/init/templates';

/**
 * docs/deploy.md, checked where Docker may be missing (scripts/starter/check.sh builds and runs
 * the image where it is not): the Dockerfile it shows is the starter's, and each line holds
 * against the project `mcpfusion init` writes; the process manager and the proxy say what the
 * server needs; and the table of production settings has a row for every option there is.
 */
const ROOT = join(__dirname, '..', '..');
const STARTER = join(ROOT, 'examples', 'starter');
const GUIDE = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');

function block(lang: string): string {
  const match = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(GUIDE);
  if (!match) throw new Error(`docs/deploy.md has no ${lang} block`);
  return match[1];
}

/** The Dockerfile's instructions: `[keyword, arguments]`, comments and blank lines left out. */
const instructions = (text: string): Array<[string, string]> =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.trim().split(/\s+/);
      return [keyword, rest.join(' ')];
    });

describe('docs/deploy.md: the container image', () => {
  const dockerfile = block('dockerfile');
  const steps = instructions(dockerfile);
  const starterPackage = JSON.parse(readFileSync(join(STARTER, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    engines: { node: string };
  };

  it('is the Dockerfile the starter ships (so mcpfusion init writes it), with a .dockerignore', () => {
    expect(readFileSync(join(STARTER, 'Dockerfile'), 'utf8')).toBe(dockerfile);
    expect(readFileSync(join(STARTER, '.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist']));
  });

  it('uses only Dockerfile instructions, two stages from a Node line the package supports', () => {
    const known = ['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'CMD'];
    expect(steps.filter(([keyword]) => !known.includes(keyword))).toEqual([]);
    const froms = steps.filter(([keyword]) => keyword === 'FROM').map(([, args]) => args);
    expect(froms).toEqual(['node:20-slim AS build', 'node:20-slim']);
    expect(starterPackage.engines.node).toContain('^20.');
  });

  it('copies only what the project has (package-lock.json: written by npm install) and builds what it runs', () => {
    for (const [keyword, args] of steps.filter(([k, a]) => k === 'COPY' && !a.startsWith('--from'))) {
      const sources = args.split(' ').slice(0, -1);
      for (const source of sources) {
        if (source === 'package-lock.json') continue;
        expect([keyword, source, existsSync(join(STARTER, source))]).toEqual([keyword, source, true]);
      }
    }
    expect(steps).toContainEqual(['RUN', 'npm run build']);
    expect(starterPackage.scripts.build).toBe('tsc -p tsconfig.build.json');
    const build = JSON.parse(readFileSync(join(STARTER, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: Record<string, string> };
    expect([build.compilerOptions.rootDir, build.compilerOptions.outDir]).toEqual(['src', 'dist']);
    expect(existsSync(join(STARTER, 'src', 'main.ts'))).toBe(true);
    expect(steps).toContainEqual(['COPY', '--from=build /app/dist ./dist']);
    expect(steps[steps.length - 1]).toEqual(['CMD', '["node", "dist/main.js"]']);
  });

  it('serves off loopback as main.ts reads it: HOST, PORT (the one exposed), ALLOWED_HOSTS at run time, NODE_ENV', () => {
    const env = steps.filter(([k]) => k === 'ENV').flatMap(([, args]) => args.split(' '));
    expect(env).toEqual(['NODE_ENV=production', 'HOST=0.0.0.0', 'PORT=3000']);
    expect(steps).toContainEqual(['EXPOSE', '3000']);
    expect(steps).toContainEqual(['USER', 'node']);
    const main = readFileSync(join(STARTER, 'src', 'main.ts'), 'utf8');
    for (const name of ['HOST', 'PORT', 'ALLOWED_HOSTS']) expect(main).toContain(`process.env.${name}`);
    expect(readFileSync(join(STARTER, 'src', 'app.ts'), 'utf8')).toContain("maskErrors: process.env.NODE_ENV === 'production'");
    expect(GUIDE).toContain('-e ALLOWED_HOSTS=');
  });
});

describe('docs/deploy.md: the process manager and the proxy', () => {
  it('the systemd unit restarts on failure and stops with SIGTERM, from the build, in production', () => {
    const unit = block('ini');
    for (const line of ['ExecStart=/usr/bin/node dist/main.js', 'Restart=on-failure', 'KillSignal=SIGTERM'])
      expect(unit.split('\n')).toContain(line);
    expect(unit).toMatch(/^Environment=NODE_ENV=production .*ALLOWED_HOSTS=/m);
  });

  it('the proxy forwards to loopback without buffering the event streams, with the public Host', () => {
    const nginx = block('nginx');
    for (const directive of [
      'proxy_pass http://127.0.0.1:3000;',
      'proxy_http_version 1.1;',
      'proxy_set_header Host $host;',
      'proxy_buffering off;',
      'listen 443 ssl;'
    ])
      expect(nginx).toContain(directive);
  });
});

describe('docs/deploy.md: every production setting in one table', () => {
  /** The option names of an exported type (interfaces and unions of them), read from the source. */
  function optionsOf(program: ts.Program, file: string, name: string): string[] {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(join(ROOT, file))!;
    let names: string[] = [];
    ts.forEachChild(source, (node) => {
      if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name) {
        const type = checker.getTypeAtLocation(node);
        names = [...new Set((type.isUnion() ? type.types.flatMap((t) => t.getProperties()) : type.getProperties()).map((p) => p.name))];
      }
    });
    if (names.length === 0) throw new Error(`${file} declares no ${name}`);
    return names;
  }

  it('has a row for each option of the app, listen, the HTTP sessions, tasks and auth (what the app is made of aside)', () => {
    const files = ['src/app/app-options.ts', 'src/transports/http/session-registry.ts', 'src/tasks/app-tasks.ts', 'src/auth/http-auth.ts'];
    const program = ts.createProgram(
      files.map((f) => join(ROOT, f)),
      { experimentalDecorators: true, skipLibCheck: true, noEmit: true, strict: true }
    );
    const notSettings = new Set([
      'tools',
      'views',
      'mounts',
      'extensions',
      'gateways',
      'providers',
      'middleware',
      'presenter',
      'contextFactory',
      'name',
      'version',
      'instructions',
      'parentContainer',
      'onClose',
      'onerror',
      'sessions',
      'tasks',
      'auth'
    ]);
    const wanted = [
      ...optionsOf(program, 'src/app/app-options.ts', 'FusionAppOptions'),
      ...optionsOf(program, 'src/app/app-options.ts', 'ListenOptions'),
      ...optionsOf(program, 'src/transports/http/session-registry.ts', 'SessionOptions').map((o) => `sessions.${o}`),
      ...optionsOf(program, 'src/tasks/app-tasks.ts', 'TaskSettings').map((o) => `tasks.${o}`),
      ...optionsOf(program, 'src/auth/http-auth.ts', 'AuthOptions').map((o) => `auth.${o}`)
    ].filter((o) => !notSettings.has(o));
    const rows = new Set([...GUIDE.matchAll(/^\|\s*`([\w.]+)`\s*\|/gm)].map((m) => m[1]));
    expect(wanted.filter((option) => !rows.has(option))).toEqual([]);
    // Every row names its default.
    const from = GUIDE.indexOf('## Every production setting');
    const next = GUIDE.indexOf('\n## ', from + 3);
    const table = GUIDE.slice(from, next < 0 ? undefined : next);
    const settingRows = table.split('\n').filter((line) => /^\|\s*`/.test(line));
    expect(settingRows.length).toBeGreaterThanOrEqual(wanted.length);
    for (const row of settingRows) expect(row.split('|')[3].trim()).not.toBe('');
  });
});

describe('docs/deploy.md: where it runs', () => {
  const from = GUIDE.indexOf('## Where it runs');
  const section = GUIDE.slice(from, GUIDE.indexOf('\n## ', from + 3));
  /** The table's rows as cells (the header and the rule left out). */
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim())
    );

  it('comes before the Node.js guide, with a row for each template mcpfusion init writes', () => {
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(GUIDE.indexOf('## What changes from your laptop'));
    expect(rows.map((cells) => cells[1])).toEqual(TEMPLATE_NAMES.map((name) => `\`${name}\``));
    for (const cells of rows) expect(cells.every((cell) => cell !== '')).toBe(true);
  });

  it('names only scripts the template declares (checked for each template this checkout holds)', () => {
    for (const cells of rows) {
      const name = cells[1].replace(/`/g, '') as (typeof TEMPLATE_NAMES)[number];
      const source = join(ROOT, ...TEMPLATES[name].source.split('/'));
      if (!existsSync(source)) continue; // a template not merged yet: the init test finds the ones that are
      const scripts = new Set<string>();
      if (existsSync(join(source, 'package.json')))
        for (const script of Object.keys(
          (JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { scripts?: object }).scripts ?? {}
        ))
          scripts.add(script);
      if (existsSync(join(source, 'deno.json')))
        for (const task of Object.keys((JSON.parse(readFileSync(join(source, 'deno.json'), 'utf8')) as { tasks?: object }).tasks ?? {}))
          scripts.add(task);
      const commands = [...cells[2].matchAll(/`([^`]+)`/g)].flatMap((m) => m[1].split('&&').map((c) => c.trim()));
      for (const command of commands) {
        const script = /^(?:npm run|bun run|deno task) (\S+)$/.exec(command)?.[1] ?? /^npm (start|test)$/.exec(command)?.[1];
        if (script !== undefined) expect([name, command, scripts.has(script)]).toEqual([name, command, true]);
      }
    }
  });
});
