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
  const root = packageRoot();
  const starter = join(root, 'examples', 'starter');
  if (!existsSync(join(starter, 'package.json'))) throw new CliError(`this copy of @mcpfusion/core has no starter (${starter})`);
  cpSync(starter, target, {
    recursive: true,
    filter: (source) => !/^(node_modules|dist)(\/|$)|\.tgz$/.test(relative(starter, source).split('\\').join('/'))
  });
  if (!existsSync(join(target, '.gitignore'))) writeFileSync(join(target, '.gitignore'), GITIGNORE);
  const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
  };
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  manifest.name = basename(target)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  manifest.dependencies['@mcpfusion/core'] = `^${version}`;
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  note(terminal, `${paint(terminal, 'green', '✔')} wrote ${command.dir}: a server with three kinds of tool and their tests`);
  note(
    terminal,
    `\n  cd ${command.dir}\n  npm install\n  npm test        # type-check, then the tests\n  npm start       # serves http://127.0.0.1:3000/mcp\n`
  );
  return ExitCode.OK;
}

/** The package's root folder (dist/cli/init-command.js, or build/src/cli/ in the repository's own build). */
function packageRoot(): string {
  for (const up of [resolve(__dirname, '..', '..'), resolve(__dirname, '..', '..', '..')]) {
    const manifest = join(up, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@mcpfusion/core') return up;
  }
  throw new CliError('cannot find the @mcpfusion/core package this command belongs to');
}
