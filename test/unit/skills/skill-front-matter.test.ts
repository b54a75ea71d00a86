import { frontMatterOf } from '../../../src/skills/skill-front-matter';
import { pageOf } from '../../../src/skills/skill-pages';

describe('SKILL.md front matter', () => {
  it('is the YAML mapping as written, every field passed through', () => {
    const text =
      '\uFEFF---\r\nname: refunds\r\ndescription: "Refund: the steps"\r\nlicense: MIT\r\nmetadata:\r\n  version: "1.0"\r\n  n: 2\r\n---\r\n# body\r\n';
    expect(frontMatterOf(text)).toEqual({
      name: 'refunds',
      description: 'Refund: the steps',
      license: 'MIT',
      metadata: { version: '1.0', n: 2 }
    });
  });

  it('keeps YAML 1.2 core typing (a date stays a string)', () => {
    expect(frontMatterOf('---\nname: a\ndescription: b\ncreated: 2026-01-02\n---\n')).toMatchObject({ created: '2026-01-02' });
  });

  it.each([
    ['# no front matter', /must begin with YAML front matter/],
    ['---\nname: a\ndescription: b\n', /no closing --- line/],
    ['---\nname: [a\n---\n', /not valid YAML/],
    ['---\n- a\n---\n', /must be a YAML mapping/],
    ['---\ndescription: b\n---\n', /needs a name/],
    ['---\nname: a\n---\n', /needs a description/],
    ['---\nname: a\ndescription: 3\n---\n', /needs a description/]
  ])('refuses %j', (text, problem) => expect(frontMatterOf(text)).toMatch(problem));
});

describe('listing pages', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('walks every item once, in order, with opaque cursors', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = pageOf(items, cursor, 2, 'skills/list');
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(items);
  });

  it.each([
    ['forged'],
    [Buffer.from('0').toString('base64url')],
    [Buffer.from('9').toString('base64url')],
    [Buffer.from('2.5').toString('base64url')],
    [42]
  ])('refuses the cursor %j with a message naming the method', (cursor) =>
    expect(() => pageOf(items, cursor, 2, 'skills/list')).toThrow(/Invalid params for skills\/list: unknown cursor/)
  );
});
