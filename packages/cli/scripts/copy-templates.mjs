#!/usr/bin/env node
// `npm pack` of @mcpfusion/cli: the projects that `mcpfusion init` copies ship in the package, copied from
// the repository (their one source): examples/starter as starter/ (`--template node`, the default) and each
// examples/templates/<name>/ as templates/<name>/, without what an install or a build leaves there and with
// the files npm would drop (.gitignore, .npmrc) stored under another name; init names them back. The filter
// is init's own (packages/cli/dist/init/template-files.js, built by the prepack step before this one).
//
//   node scripts/copy-templates.mjs           before packing (prepack)
//   node scripts/copy-templates.mjs --clean   after packing (postpack): a clone's init reads examples/ again
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = join(PACKAGE, '..', '..', 'examples');
const STARTER = join(PACKAGE, 'starter');
const TEMPLATES = join(PACKAGE, 'templates');

rmSync(STARTER, { recursive: true, force: true });
rmSync(TEMPLATES, { recursive: true, force: true });
if (process.argv.includes('--clean')) process.exit(0);

const { copyTemplate } = createRequire(import.meta.url)('../dist/init/template-files.js');
const isProject = (dir) => ['package.json', 'deno.json', 'deno.jsonc'].some((file) => existsSync(join(dir, file)));
if (!isProject(join(EXAMPLES, 'starter'))) throw new Error(`no starter at ${join(EXAMPLES, 'starter')}`);
copyTemplate(join(EXAMPLES, 'starter'), STARTER, true);
const names = [];
if (existsSync(join(EXAMPLES, 'templates'))) {
  for (const entry of readdirSync(join(EXAMPLES, 'templates'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const source = join(EXAMPLES, 'templates', entry.name);
    if (!isProject(source)) throw new Error(`examples/templates/${entry.name} has no package.json or deno.json`);
    copyTemplate(source, join(TEMPLATES, entry.name), true);
    names.push(entry.name);
  }
}
process.stderr.write(`copy-templates: starter/ and templates/{${names.join(',')}} from examples/\n`);
