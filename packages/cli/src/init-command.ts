import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { CliError, ExitCode, type ExitCodeValue } from './cli-error';
import { note, paint, type Terminal } from './terminal';

/** `mcpfusion init`. */
export interface InitCommand {
  readonly command: 'init';
  /** The folder to create (or an empty one to fill). */
  readonly dir: string;
}

/** What a new project's `.gitignore` holds (npm leaves `.gitignore` files out of a package). */
const GITIGNORE = 'node_modules/\ndist/\n';

/**
 * `mcpfusion init <dir>`: writes a project that compiles, tests and serves, a copy of the starter
 * the package ships (examples/starter: package.json with the framework's peers, tsconfig.json
 * with `experimentalDecorators` and `emitDecoratorMetadata`, a jest config, a tool of each kind
 * with their tests). Its package.json is named after the folder and asks for this version of
 * the framework. It installs nothing: it says the commands to run.
 */
export function runInit(command: InitCommand, terminal: Terminal): ExitCodeValue {
  const target = resolve(command.dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new CliError(`${command.dir} exists and is not empty: give a new folder (mcpfusion init my-server)`);
  }
  const { root, starter } = starterSource();
  cpSync(starter, target, {
    recursive: true,
    filter: (source) => !/^(node_modules|dist)(\/|$)|\.tgz$/.test(relative(starter, source).split('\\').join('/'))
  });
  if (!existsSync(join(target, '.gitignore'))) writeFileSync(join(target, '.gitignore'), GITIGNORE);
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  manifest.name = basename(target)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  // The framework and its CLI are released together, under one version.
  manifest.dependencies['@mcpfusion/core'] = `^${version}`;
  manifest.devDependencies = { ...manifest.devDependencies, '@mcpfusion/cli': `^${version}` };
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  note(terminal, `${paint(terminal, 'green', '✔')} wrote ${command.dir}: a server with three kinds of tool and their tests`);
  note(
    terminal,
    `\n  cd ${command.dir}\n  npm install\n  npm run dev     # serves http://127.0.0.1:3000/mcp, reloads on every edit\n  npm test        # type-check, then the tests\n  npm start       # builds, then serves\n`
  );
  return ExitCode.OK;
}

/**
 * This package's root folder and the starter it copies: `starter/` in the published package
 * (copied there from examples/starter when it is packed), or the repository's examples/starter
 * when it runs from a clone (packages/cli/dist/ or packages/cli/src/).
 */
function starterSource(): { root: string; starter: string } {
  const root = resolve(__dirname, '..');
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest) || (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name !== '@mcpfusion/cli') {
    throw new CliError(`cannot find the @mcpfusion/cli package this command belongs to (looked in ${root})`);
  }
  for (const starter of [join(root, 'starter'), join(root, '..', '..', 'examples', 'starter')]) {
    if (existsSync(join(starter, 'package.json'))) return { root, starter };
  }
  throw new CliError(`this copy of @mcpfusion/cli has no starter (${join(root, 'starter')})`);
}
