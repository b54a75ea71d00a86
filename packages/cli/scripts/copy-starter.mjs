#!/usr/bin/env node
// `npm pack` of @mcpfusion/cli: the starter that `mcpfusion init` copies ships in the package as
// starter/, copied from the repository's examples/starter (its one source), without what an
// install or a build leaves there.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(PACKAGE, '..', '..', 'examples', 'starter');
const TARGET = join(PACKAGE, 'starter');

if (!existsSync(join(SOURCE, 'package.json'))) throw new Error(`no starter at ${SOURCE}`);
rmSync(TARGET, { recursive: true, force: true });
cpSync(SOURCE, TARGET, {
  recursive: true,
  filter: (source) => !/^(node_modules|dist)(\/|$)|\.tgz$/.test(relative(SOURCE, source).split('\\').join('/'))
});
