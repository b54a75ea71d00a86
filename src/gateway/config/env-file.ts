/**
 * The `envFile` of a stdio entry (VS Code's field): a dotenv file whose variables the spawned
 * server gets, under those of `env`. The file is the user's, but its text is still checked: each
 * line that is neither blank, a comment nor `NAME=value` is a problem naming its line.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

const MAX_ENV_FILE_BYTES = 1024 * 1024;
const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/**
 * The variables of the dotenv file at `path` (relative to `baseDir`): `NAME=value`, `export
 * NAME=value`, values bare (a ` #` starts a comment), in single quotes (as written) or in double
 * quotes (`\n`, `\t`, `\"`, `\\` unescaped). Problems go to `problem`; an unreadable file is one.
 */
export function readEnvFile(path: string, baseDir: string, problem: (message: string) => void): Record<string, string> {
  const file = isAbsolute(path) ? path : resolve(baseDir, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problem(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    return {};
  }
  if (Buffer.byteLength(text) > MAX_ENV_FILE_BYTES) {
    problem(`${file} is larger than ${MAX_ENV_FILE_BYTES} bytes.`);
    return {};
  }
  return parseEnvText(text, file, problem);
}

/** The variables of a dotenv text (see {@link readEnvFile}); `where` names it in problems. */
export function parseEnvText(text: string, where: string, problem: (message: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = LINE.exec(line);
    if (!match) {
      problem(`${where}:${index + 1}: expected NAME=value.`);
      return;
    }
    const value = valueOf(match[2]);
    if (value === undefined) {
      problem(`${where}:${index + 1}: a quote is not closed.`);
      return;
    }
    out[match[1]] = value;
  });
  return out;
}

function valueOf(text: string): string | undefined {
  const quote = text[0];
  if (quote === "'" || quote === '"') {
    const end = text.indexOf(quote, 1);
    if (quote === "'") return end < 0 ? undefined : text.slice(1, end);
    // A double-quoted value ends at the first quote that is not escaped.
    let i = 1;
    let out = '';
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\' && i + 1 < text.length) {
        const next = text[++i];
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
      } else out += text[i];
    }
    return i < text.length ? out : undefined;
  }
  const comment = text.search(/\s#/);
  return (comment < 0 ? text : text.slice(0, comment)).trim();
}
