// npm runs this (the `prepare` script) when the framework is installed from git with `#path:packages/core`,
// after installing this folder's devDependencies: the compiler, Node's types and the peers, nothing else.
// It compiles the repository's src/ into dist/ here, the same build as `npm run build` at the root.
//
// MCPFUSION_PREPARE_REPORT=<file> writes what the preparation had installed (for scripts/starter/git-install.sh).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const source = join(repo, 'src');
if (!existsSync(source)) {
  console.error(`@mcpfusion/core: ${source} is missing; packages/core builds the framework from the repository's src/.`);
  process.exit(1);
}

const copy = join(here, 'src');
rmSync(copy, { recursive: true, force: true });
rmSync(join(here, 'dist'), { recursive: true, force: true });
cpSync(source, copy, { recursive: true });
cpSync(join(repo, 'README.md'), join(here, 'README.md'));
try {
  const tsc = createRequire(join(here, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
} finally {
  rmSync(copy, { recursive: true, force: true });
}

if (process.env.MCPFUSION_PREPARE_REPORT) {
  const modules = join(here, 'node_modules');
  const installed = existsSync(modules)
    ? readdirSync(modules).flatMap((name) =>
        name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : name.startsWith('.') ? [] : [name]
      )
    : [];
  writeFileSync(
    process.env.MCPFUSION_PREPARE_REPORT,
    JSON.stringify({ folder: here, installed, repositoryNodeModules: existsSync(join(repo, 'node_modules')) }, null, 2)
  );
}
