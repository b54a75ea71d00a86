import { CliError } from './cli-error';

/**
 * Splits the `--stdio '<command line>'` string into a program and its arguments the way a
 * POSIX shell splits words: spaces separate, single quotes keep everything, double quotes
 * keep spaces (a backslash escapes `"`, `\`, `$` and a backquote in them), a backslash outside
 * quotes escapes the next character. No expansion, no pipes: the program is spawned directly.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new CliError(`--stdio: unclosed ${quote} in ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new CliError('--stdio needs a command line, for example --stdio "node build/sample-app/main.js --stdio"');
  return words;
}

/** Adds a `--header 'Name: value'` to `headers`, or says how to write it. */
export function addHeader(header: string, headers: Record<string, string>): void {
  const colon = header.indexOf(':');
  if (colon <= 0) throw new CliError(`--header ${header}: write it as 'Name: value'`);
  headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
}

/** A port given on the command line (`--port`, `--inspector-port`): an integer 0–65535, else a usage error naming the flag. */
export function parsePort(flag: string, text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`${flag}: "${text}" is not a port number (0–65535)`);
  return port;
}
