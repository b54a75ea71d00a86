#!/usr/bin/env node
'use strict';
// `npm create mcpfusion@latest my-server` runs this: it is `mcpfusion init my-server`, run by the
// @mcpfusion/cli this package depends on (its own process, so its exit status and signals are the init's).
// Its words go through as they are (`npm create mcpfusion@latest -- --template bun my-app`); without a
// folder it writes my-mcp-server.
const { spawnSync } = require('node:child_process');
const { dirname, join } = require('node:path');

const cliRoot = dirname(require.resolve('@mcpfusion/cli/package.json'));
const { bin } = require('@mcpfusion/cli/package.json');
const args = process.argv.slice(2);
// A folder is a word that is neither an option nor the value of --template.
const folders = args.filter((word, i) => !word.startsWith('-') && args[i - 1] !== '--template');
const result = spawnSync(
  process.execPath,
  [join(cliRoot, bin.mcpfusion), 'init', ...args, ...(folders.length > 0 ? [] : ['my-mcp-server'])],
  {
    stdio: 'inherit'
  }
);
if (result.error) {
  process.stderr.write(`create-mcpfusion: ${result.error.message}\n`);
  process.exit(1);
}
process.exit(result.status ?? 1);
