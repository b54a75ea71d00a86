#!/usr/bin/env node
// Checks the links of README.md and docs/*.md: every relative link names a file that exists
// (in the repository), and every #anchor a heading of the page it points to (GitHub's slugs).
// External links (http, https, mailto) are not fetched. Exit status 1, with each broken link
// named by page and line, when any is broken.
//
//   node scripts/docs/check-links.mjs        (or: npm run docs:links)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pages = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => join(ROOT, 'docs', n))];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = match[1]
      .replace(/<[^>]+>/g, '')
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

const broken = [];
let checked = 0;
for (const page of pages) {
  const text = readFileSync(page, 'utf8');
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    // Inline code is not a link.
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^(https?:|mailto:)/.test(target)) continue;
      checked++;
      const where = `${relative(ROOT, page)}:${index + 1}`;
      const [path, anchor] = target.split('#');
      const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${where}: ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${where}: ${target}: no heading with the anchor #${anchor}`);
      }
    }
  });
}
if (broken.length > 0) {
  process.stderr.write(`${broken.length} broken link(s):\n${broken.map((b) => `  ${b}`).join('\n')}\n`);
  process.exit(1);
}
process.stderr.write(`links: ${checked} relative links in ${pages.length} pages, none broken\n`);
