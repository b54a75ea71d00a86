import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CLIENT_CONFIGS, CLIENT_NAMES, type ClientName, type Place, type ServerSpec } from './client-configs';
import { CliError, ExitCode, type ExitCodeValue } from './cli-error';
import { addHeader, splitCommandLine } from './command-line';
import { note, paint, type Terminal } from './terminal';

/** `mcpfusion install …`, as read from the command line. */
export interface InstallCommand {
  readonly command: 'install';
  readonly client: ClientName;
  /** The entry's name in the client's configuration. */
  readonly name: string;
  readonly server: ServerSpec;
  /** Replace an entry of the same name. */
  readonly force: boolean;
  /** Print the resulting file to stdout instead of writing it. */
  readonly print: boolean;
}

/** The usage lines of `install` (part of `mcpfusion --help`). */
export const INSTALL_USAGE = `  mcpfusion install <client> --name <name> (--url <url> [--header 'Name: value' …] | --stdio '<command line>' [--env KEY=VALUE …])
                         [--force] [--print]
                         add the server to a client's MCP configuration: ${CLIENT_NAMES.join(', ')}`;

/** Reads `install`'s arguments (after the word `install`). */
export function parseInstall(argv: readonly string[]): InstallCommand {
  const [client, ...rest] = argv;
  if (!(CLIENT_NAMES as readonly string[]).includes(client ?? ''))
    throw new CliError(`install needs a client first: ${CLIENT_NAMES.join(', ')} (mcpfusion install cursor --name billing --url …)`);
  let name: string | undefined;
  let url: string | undefined;
  let stdio: string | undefined;
  let force = false;
  let print = false;
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const value = (): string => {
      const next = rest[++i];
      if (next === undefined) throw new CliError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--name':
        name = value();
        break;
      case '--url':
        url = value();
        break;
      case '--stdio':
        stdio = value();
        break;
      case '--force':
        force = true;
        break;
      case '--print':
        print = true;
        break;
      case '--env': {
        const pair = value();
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new CliError(`--env ${pair}: write it as KEY=VALUE`);
        env[pair.slice(0, eq)] = pair.slice(eq + 1);
        break;
      }
      case '--header':
        addHeader(value(), headers);
        break;
      default:
        throw new CliError(`install: unexpected ${flag} (mcpfusion --help)`);
    }
  }
  if (name === undefined || name.trim() === '' || /[\u0000-\u001f\u007f]/.test(name))
    throw new CliError('install needs --name <name>: the name the client shows for the server');
  if ((url === undefined) === (stdio === undefined)) throw new CliError("install needs one of --url <url> or --stdio '<command line>'");
  let server: ServerSpec;
  if (stdio !== undefined) {
    if (Object.keys(headers).length) throw new CliError('--header belongs to --url (a server the client reaches over HTTP)');
    const [command, ...args] = splitCommandLine(stdio);
    server = { kind: 'stdio', command, args, env };
  } else {
    if (Object.keys(env).length) throw new CliError('--env belongs to --stdio (a server the client starts)');
    server = { kind: 'http', url: httpUrl(url!), headers };
  }
  return { command: 'install', client: client as ClientName, name, server, force, print };
}

function httpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--url: "${text}" is not a URL (http://127.0.0.1:3000/mcp)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--url ${text}: only http:// and https:// servers`);
  return url.href;
}

/** This process's place: its environment, platform and working folder. */
export function processPlace(): Place {
  return { env: process.env, platform: process.platform, cwd: process.cwd() };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The configuration file's new text: the existing document (`undefined`: none yet) with the
 * entry added under `key`, every other entry and top-level key kept. Throws {@link CliError},
 * before anything is written, when the text is not a JSON object, when `key` holds something
 * other than an object, or when an entry of that name exists and `force` is not set.
 */
export function mergeEntry(
  existing: string | undefined,
  file: string,
  key: string,
  name: string,
  entry: Record<string, unknown>,
  force: boolean
): { text: string; replaced: boolean } {
  let document: unknown = {};
  if (existing !== undefined && existing.trim() !== '') {
    try {
      document = JSON.parse(existing);
    } catch (error) {
      throw new CliError(
        `${file} is not valid JSON (${(error as Error).message}); it was left as it is: fix it (comments are not read), or use --print and edit it by hand`
      );
    }
  }
  if (!isPlainObject(document)) throw new CliError(`${file} does not hold a JSON object; it was left as it is`);
  const servers = document[key] ?? {};
  if (!isPlainObject(servers)) throw new CliError(`${file}: "${key}" is not an object; it was left as it is`);
  const replaced = Object.hasOwn(servers, name);
  if (replaced && !force)
    throw new CliError(
      `${file} already has a server named "${name}"; nothing was written (--force replaces it, --name picks another name)`
    );
  // defineProperty, not assignment: a name such as "__proto__" stays an ordinary key.
  Object.defineProperty(servers, name, { value: entry, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(document, key, { value: servers, enumerable: true, writable: true, configurable: true });
  return { text: `${JSON.stringify(document, null, 2)}\n`, replaced };
}

/**
 * Writes `text` to `file` atomically: a temporary file beside it, then a rename, so a crash
 * leaves the old file or the new one, never half of one. Missing folders are made; a symbolic
 * link is followed (its target is replaced, the link kept); the file's mode is kept.
 */
export function writeAtomically(file: string, text: string): void {
  const target = existsSync(file) ? realpathSync(file) : file;
  mkdirSync(dirname(target), { recursive: true });
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o644;
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode, flag: 'wx' });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`could not write ${file}: ${(error as Error).message}`, ExitCode.PROTOCOL_ERROR);
  }
}

/**
 * `mcpfusion install <client> …`: adds the server to the client's MCP configuration file,
 * keeping what the file holds; `--print` prints the file it would write and writes nothing.
 */
export function runInstall(command: InstallCommand, terminal: Terminal, place: Place = processPlace()): ExitCodeValue {
  const config = CLIENT_CONFIGS[command.client];
  const entry = config.entry(command.server);
  const file = config.file(place);
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const { text, replaced } = mergeEntry(existing, file, config.key, command.name, entry, command.force);
  if (command.print) {
    terminal.out.write(text);
    return ExitCode.OK;
  }
  writeAtomically(file, text);
  note(
    terminal,
    `${paint(terminal, 'green', '✔')} ${replaced ? 'replaced' : 'added'} "${command.name}" in ${file} (${command.client}); ` +
      'the client reads it when it starts or reloads'
  );
  return ExitCode.OK;
}
