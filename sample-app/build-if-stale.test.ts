import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * `npm start`'s staleness check (scripts/dev/build-if-stale.mjs), in a tree of its own: the script is
 * copied there, and the tree's `compile` does what the real one does to the sources, rewriting the
 * generated view types (sample-app/views/app/tool-types.mts) while it runs, then stamping.
 */
function fakeRepository(): string {
  const root = mkdtempSync(join(tmpdir(), 'build-if-stale-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  mkdirSync(join(root, 'scripts', 'dev'), { recursive: true });
  for (const script of ['build-if-stale.mjs', 'start.mjs'])
    copyFileSync(join(__dirname, '..', 'scripts', 'dev', script), join(root, 'scripts', 'dev', script));
  write('dev/package.json', '{}\n');
  write('src/index.ts', 'export const a = 1;\n');
  write('sample-app/views/app/tool-types.mts', 'export type ToolName = "billing.list";\n');
  write(
    'compile.mjs',
    [
      "import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';",
      "for (const dir of ['build/sample-app', 'dist', 'packages/cli/dist']) mkdirSync(dir, { recursive: true });",
      "writeFileSync('build/sample-app/main.js', '');",
      "writeFileSync('dist/index.js', '');",
      "writeFileSync('packages/cli/dist/main.js', '');",
      "const types = 'sample-app/views/app/tool-types.mts';",
      'writeFileSync(types, readFileSync(types));',
      ''
    ].join('\n')
  );
  write(
    'package.json',
    JSON.stringify({ private: true, scripts: { compile: 'node compile.mjs && node scripts/dev/build-if-stale.mjs --stamp' } })
  );
  return root;
}

const check = (root: string) => {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'dev', 'build-if-stale.mjs')], { cwd: root, encoding: 'utf8' });
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('');
  return run.stderr;
};

test('a second staleness check after a compile reports fresh, though the compile rewrote the generated view types', () => {
  const root = fakeRepository();
  try {
    expect(check(root)).toContain('[build] compiling (npm run compile)');
    expect(check(root)).toBe('[build] up to date (nothing changed since the last build)\n');
    writeFileSync(join(root, 'src', 'index.ts'), 'export const a = 2;\n');
    expect(check(root)).toContain('[build] compiling');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);

test('npm start runs the check, then the compiled entry in the same process, with the command line it would have run alone', () => {
  const root = fakeRepository();
  try {
    expect(check(root)).toContain('[build] compiling');
    writeFileSync(
      join(root, 'build', 'sample-app', 'main.js'),
      "process.stderr.write(JSON.stringify({ argv: process.argv.slice(1), pid: process.pid }) + '\\n');\n"
    );
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'dev', 'start.mjs'), 'build/sample-app/main.js', '--stdio'], {
      cwd: root,
      encoding: 'utf8'
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const [said, seen] = run.stderr.trim().split('\n');
    expect(said).toBe('[build] up to date (nothing changed since the last build)');
    expect(JSON.parse(seen!)).toEqual({ argv: [join(root, 'build', 'sample-app', 'main.js'), '--stdio'], pid: run.pid });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
