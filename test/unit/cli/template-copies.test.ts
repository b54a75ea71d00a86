import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every deploy template (examples/templates/<name>/) is a project a user gets whole from
 * `mcpfusion init --template`, so each carries its own copy of the starter's tools and note book.
 * The copies must not drift from examples/starter: the target suites check every template
 * against the same scenario, and the docs show the starter's files. Bun and Deno import local
 * files with their `.ts` extension; that is the one difference allowed.
 */
const ROOT = join(__dirname, '..', '..', '..');
const STARTER = join(ROOT, 'examples', 'starter', 'src');
const TEMPLATES = join(ROOT, 'examples', 'templates');

const withoutTsExtensions = (source: string): string => source.replace(/(from '\.{1,2}\/[^']+)\.ts'/g, "$1'");

const copies = readdirSync(TEMPLATES).flatMap((template) =>
  ['tools.ts', 'notes.ts'].map((file) => {
    const folder = ['src', 'lib'].map((dir) => join(TEMPLATES, template, dir)).find((dir) => existsSync(join(dir, file)));
    return [template, file, folder] as const;
  })
);

describe("the templates' copies of the starter's tools", () => {
  test.each(copies)('%s has %s as the starter has it', (_template, file, folder) => {
    expect(folder).toBeDefined();
    const copy = withoutTsExtensions(readFileSync(join(folder!, file), 'utf8'));
    expect(copy).toBe(readFileSync(join(STARTER, file), 'utf8'));
  });
});
