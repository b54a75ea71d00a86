import type { parse as parseYaml } from 'yaml';

/** yaml is loaded on the first SKILL.md read (an app without skills never loads its ~70 modules). */
let parse: typeof parseYaml | undefined;

/** A `SKILL.md`'s YAML front matter, as a JSON object: `name` and `description` always, every other field as written. */
export interface SkillFrontMatter {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
}

/**
 * The front matter of a `SKILL.md` (the YAML between a first line `---` and the next `---`
 * line), or a string saying what is wrong with it. Parsed as YAML 1.2 (core schema) and passed
 * on verbatim: no field is added, dropped or renamed.
 */
export function frontMatterOf(text: string): SkillFrontMatter | string {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!body.startsWith('---\n')) return 'SKILL.md must begin with YAML front matter between --- lines';
  const end = body.indexOf('\n---', 3);
  if (end < 0 || (body[end + 4] !== undefined && body[end + 4] !== '\n')) return 'the front matter of SKILL.md has no closing --- line';
  let value: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see `parse` above
    parse ??= (require('yaml') as typeof import('yaml')).parse;
    value = parse(body.slice(4, end + 1));
  } catch (error) {
    return `the front matter of SKILL.md is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the front matter of SKILL.md must be a YAML mapping';
  const fields = value as Record<string, unknown>;
  if (typeof fields.name !== 'string' || fields.name === '') return 'the front matter of SKILL.md needs a name (a non-empty string)';
  if (typeof fields.description !== 'string' || fields.description === '') {
    return 'the front matter of SKILL.md needs a description (a non-empty string)';
  }
  // Through JSON once: what is sent is what a client parsing the same YAML compares it with.
  return JSON.parse(JSON.stringify(fields)) as SkillFrontMatter;
}
