import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertLegacyDecorators } from '../../../src/decorators/decorator-mode';
import { ConfigurationError } from '../../../src/errors';

/**
 * The import-time check over compiled files laid out on disk (the integration suite
 * decorator-setup.test.ts compiles real programs with tsc, swc and esbuild). What is checked here
 * is which files decide: the importers first, then the files beside them, and the first file that
 * tells how the build was compiled ends the reading.
 */
const LEGACY = 'var __metadata = function () {};\nfoo = __decorate([Input(), __metadata("design:type", Object)], Foo);\n';
const STANDARD = 'var __esDecorate = function () {};\nlet Foo = (() => { __esDecorate(null, null, [], {}, null, []); })();\n';
const PLAIN = 'module.exports = 1;\n';

let dir: string;
const argv1 = process.argv[1];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'decorator-mode-'));
});
afterEach(() => {
  process.argv[1] = argv1;
  rmSync(dir, { recursive: true, force: true });
});

/** A module chain as Node's CommonJS loader leaves it: the framework's module, imported by `importer`. */
function loadedBy(importer: string): NodeJS.Module {
  process.argv[1] = importer;
  return { parent: { filename: importer, parent: null } } as unknown as NodeJS.Module;
}

test('an importer compiled with standard decorators stops the program, naming it', () => {
  writeFileSync(join(dir, 'app.js'), STANDARD);
  expect(() => assertLegacyDecorators(loadedBy(join(dir, 'app.js')))).toThrow(ConfigurationError);
});

test('an importer without decorators: the compiled file beside it decides (the starter layout)', () => {
  writeFileSync(join(dir, 'main.js'), PLAIN);
  mkdirSync(join(dir, 'tools'));
  writeFileSync(join(dir, 'tools', 'notes.js'), STANDARD);
  expect(() => assertLegacyDecorators(loadedBy(join(dir, 'main.js')))).toThrow(/tools[\\/]notes\.js was compiled with standard/);
});

test('an importer compiled with the legacy decorators and their metadata settles it: other builds below are not read', () => {
  writeFileSync(join(dir, 'app.js'), LEGACY);
  mkdirSync(join(dir, 'other-build'));
  writeFileSync(join(dir, 'other-build', 'x.js'), STANDARD);
  expect(() => assertLegacyDecorators(loadedBy(join(dir, 'app.js')))).not.toThrow();
});

test('swc legacy output (_ts_metadata) settles it as tsc legacy output does', () => {
  writeFileSync(join(dir, 'main.js'), PLAIN);
  writeFileSync(join(dir, 'a.js'), 'foo = _ts_decorate([Input(), _ts_metadata("design:type", Object)], Foo);\n');
  expect(() => assertLegacyDecorators(loadedBy(join(dir, 'main.js')))).not.toThrow();
});
