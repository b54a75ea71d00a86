#!/usr/bin/env node
// `npm start` and `npm run front`: the staleness check (build-if-stale.mjs), then the compiled
// server, in this one process. Two processes (`node build-if-stale.mjs && exec node main.js`)
// paid Node's startup twice, ~150 ms of every start.
//
//   node scripts/dev/start.mjs build/sample-app/main.js [server arguments…]
//
// The server sees the command line it would see run directly (`node build/sample-app/main.js
// --stdio`): process.argv[1] is its file, its own arguments follow.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { buildIfStale, ROOT } from './build-if-stale.mjs';

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node scripts/dev/start.mjs <compiled entry file> [arguments…]\n');
  process.exit(2);
}
buildIfStale();
const file = resolve(ROOT, entry);
process.argv.splice(1, 2, file);
createRequire(import.meta.url)(file);
