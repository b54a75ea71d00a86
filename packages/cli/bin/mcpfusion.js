#!/usr/bin/env node
'use strict';
// The `mcpfusion` command. A committed file (the compiled program is dist/main.js), so that npm links the
// command when it installs the workspace, before anything is built.
// Node 22.1+: V8's compile cache (in the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so
// a command's later starts skip compiling the CLI's and the library's modules again (measured on Node 22: ~6% of the
// CPU of a start to its first answer, 2 to 6% in one run). Node 20 has no such function: nothing happens.
try {
  require('node:module').enableCompileCache?.();
} catch {
  // a cache that cannot be set up (a read-only temporary folder) costs only the compile
}
try {
  require.resolve('../dist/main.js');
} catch {
  process.stderr.write('mcpfusion: @mcpfusion/cli is not built (no dist/main.js): run `npm run compile` at the repository root\n');
  process.exit(1);
}
require('../dist/main.js');
