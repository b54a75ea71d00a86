#!/usr/bin/env node
'use strict';
// The `mcpfusion` command. A committed file (the compiled program is dist/main.js), so that npm links the
// command when it installs the workspace, before anything is built.
try {
  require.resolve('../dist/main.js');
} catch {
  process.stderr.write('mcpfusion: @mcpfusion/cli is not built (no dist/main.js): run `npm run compile` at the repository root\n');
  process.exit(1);
}
require('../dist/main.js');
