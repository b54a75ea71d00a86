import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripJsonComments, tsconfigWithoutLegacyDecorators } from '../../../src/decorators/transpiler-config';

/**
 * What Bun reads to choose its decorator mode, read the way the framework reads it at import: a
 * tsconfig that plainly leaves `experimentalDecorators` unset is named; one that sets it, or one
 * that cannot be read or followed, is not (a wrong stop would refuse a program that works).
 */
describe("the tsconfig a Bun process's TypeScript entry is compiled under", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpfusion-tsconfig-'));
    mkdirSync(join(dir, 'src'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (): string => join(dir, 'src', 'main.ts');
  const config = (name: string, text: string): void => writeFileSync(join(dir, name), text);

  test('with comments, a URL in a string and trailing commas, experimentalDecorators set: nothing said', () => {
    config(
      'tsconfig.json',
      '{\n  // Bun reads this\n  "$schema": "https://json.schemastore.org/tsconfig", /* a block */\n  "compilerOptions": { "experimentalDecorators": true, "emitDecoratorMetadata": true, },\n}\n'
    );
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
  });

  test('without experimentalDecorators (and nothing extended): that tsconfig is named', () => {
    config('tsconfig.json', '{ "compilerOptions": { "strict": true } }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBe(join(dir, 'tsconfig.json'));
  });

  test('experimentalDecorators false: named', () => {
    config('tsconfig.json', '{ "compilerOptions": { "experimentalDecorators": false } }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBe(join(dir, 'tsconfig.json'));
  });

  test('a relative base is followed (with or without .json), whichever way it says', () => {
    config('tsconfig.base.json', '{ "compilerOptions": { "experimentalDecorators": true } }');
    config('tsconfig.json', '{ "extends": "./tsconfig.base", "compilerOptions": { "strict": true } }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
    config('tsconfig.base.json', '{ "compilerOptions": {} }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBe(join(dir, 'tsconfig.json'));
  });

  test('a base in a package, a missing base, an unparsable file or no tsconfig at all: nothing said', () => {
    config('tsconfig.json', '{ "extends": "@tsconfig/bun/tsconfig.json" }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
    config('tsconfig.json', '{ "extends": "./missing.json" }');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
    config('tsconfig.json', '{ "compilerOptions": ');
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
    rmSync(join(dir, 'tsconfig.json'));
    expect(tsconfigWithoutLegacyDecorators(entry())).toBeUndefined();
  });

  test('comments and trailing commas are removed, strings are kept as they are', () => {
    expect(JSON.parse(stripJsonComments('{ "a": "x // y, }", /* z */ "b": [1, 2,], // end\n }'))).toEqual({ a: 'x // y, }', b: [1, 2] });
    expect(JSON.parse(stripJsonComments('{ "q": "say \\"hi\\" // no" }'))).toEqual({ q: 'say "hi" // no' });
  });
});
