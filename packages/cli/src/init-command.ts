import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CliError, ExitCode, type ExitCodeValue } from './cli-error';
import { adoptProject, packageName, projectScripts } from './init/project-manifest';
import { copyTemplate } from './init/template-files';
import type { TemplateName } from './init/template-names';
import { TEMPLATES } from './init/templates';
import { note, paint, type Terminal } from './terminal';

/** `mcpfusion init [--template <name>] <dir>`. */
export interface InitCommand {
  readonly command: 'init';
  /** The folder to create (or an empty one to fill). */
  readonly dir: string;
  /** The template to copy (`--template`); absent: `node`, the starter. */
  readonly template?: TemplateName;
}

/**
 * `mcpfusion init [--template node|bun|deno|workers|hono|next] <dir>`: writes a project that compiles,
 * tests and serves. `node` (the default) is a copy of the starter the package ships (examples/starter:
 * package.json with the framework's peers, tsconfig.json with `experimentalDecorators` and
 * `emitDecoratorMetadata`, a jest config, a tool of each kind with their tests); the others are the
 * projects under examples/templates/<name>/, the same tools on another runtime. Its package.json is
 * named after the folder and asks for this version of the framework (a Deno project's deno.json, through
 * its `npm:` imports). It installs nothing: it says the commands to run.
 *
 * `packageRoot` is the @mcpfusion/cli package the templates come from (this one; a test gives another).
 */
export function runInit(command: InitCommand, terminal: Terminal, packageRoot: string = resolve(__dirname, '..')): ExitCodeValue {
  const template = command.template ?? 'node';
  const facts = TEMPLATES[template];
  const target = resolve(command.dir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new CliError(`${command.dir} exists and is not empty: give a new folder (mcpfusion init my-server)`);
  }
  const { version, source } = templateSource(packageRoot, template);
  copyTemplate(source, target, false);
  if (!existsSync(join(target, '.gitignore'))) writeFileSync(join(target, '.gitignore'), facts.gitignore);
  if (adoptProject(target, packageName(basename(target)), version).length === 0) {
    throw new CliError(`the ${template} template (${source}) has no package.json or deno.json: this copy of @mcpfusion/cli is broken`);
  }

  const scripts = projectScripts(target);
  const steps = facts.steps.filter((step) => step.script === undefined || scripts === undefined || scripts.has(step.script));
  const width = Math.max(...steps.map((step) => step.command.length));
  const lines = [
    `cd ${command.dir}`,
    ...(facts.install ? [facts.install] : []),
    ...steps.map((step) => `${step.command.padEnd(width + 2)}   # ${step.what}`)
  ];
  const named = command.template === undefined ? '' : ` (template ${template})`;
  note(terminal, `${paint(terminal, 'green', '✔')} wrote ${command.dir}${named}: ${facts.what}`);
  note(terminal, `\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
  return ExitCode.OK;
}

/**
 * The framework's version and the folder a template is copied from: in the published package,
 * `starter/` and `templates/<name>/` (copied there from the repository when it is packed,
 * scripts/copy-templates.mjs); run from a clone (packages/cli/dist/ or packages/cli/src/), the
 * repository's examples/starter and examples/templates/<name>. A clone's own folders come first:
 * a pack (CI's packaging and starter checks, while the tests run) copies them into the package
 * for a moment, and init must not read a copy half made.
 */
function templateSource(root: string, template: TemplateName): { version: string; source: string } {
  const manifest = join(root, 'package.json');
  const cli = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }) : undefined;
  if (cli?.name !== '@mcpfusion/cli' || cli.version === undefined) {
    throw new CliError(`cannot find the @mcpfusion/cli package this command belongs to (looked in ${root})`);
  }
  const packed = template === 'node' ? join(root, 'starter') : join(root, 'templates', template);
  const candidates = [join(root, '..', '..', ...TEMPLATES[template].source.split('/')), packed];
  const source = candidates.find((dir) => ['package.json', 'deno.json', 'deno.jsonc'].some((file) => existsSync(join(dir, file))));
  if (source === undefined) {
    throw new CliError(`this copy of @mcpfusion/cli has no ${template} template (looked in ${candidates.join(' and ')})`);
  }
  // The framework and its CLI are released together, under one version.
  return { version: cli.version, source };
}
