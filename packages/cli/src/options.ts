import { CliError } from './cli-error';
import { addHeader, splitCommandLine } from './command-line';
import { INSTALL_USAGE } from './install-command';
import { INSPECTOR_USAGE } from './inspector/inspector-usage';
import { SERVE_USAGE } from './serve-command';
import { DEV_USAGE } from './dev/dev-command';
import type { InitCommand } from './init-command';
import { TEMPLATE_NAMES, templateName } from './init/template-names';

/** Where the server is: an HTTP URL, or a command line to spawn (stdio). */
export type Target = { kind: 'http'; url: URL } | { kind: 'stdio'; command: string; args: string[] };

/** Options every command takes. */
export interface ConnectionOptions {
  readonly target: Target;
  /** `2025` (initialize handshake), `2026` (2026-07-28 only), or undefined: negotiate. */
  readonly era?: '2025' | '2026';
  /** Extra HTTP headers (`--header`, and `Authorization` from `--token` / `MCP_TOKEN`). */
  readonly headers: Record<string, string>;
}

/** `mcpfusion list`. */
export interface ListCommand extends ConnectionOptions {
  readonly command: 'list';
  readonly json: boolean;
}

/** `mcpfusion inspect`. */
export interface InspectCommand extends ConnectionOptions {
  readonly command: 'inspect';
  /** The whole inspection as one JSON document (else a short summary). */
  readonly json: boolean;
}

/** `mcpfusion types`. */
export interface TypesCommand extends ConnectionOptions {
  readonly command: 'types';
  /** The file to write (`--out`); absent: stdout. */
  readonly out?: string;
}

/** `mcpfusion call`. */
export interface CallCommand extends ConnectionOptions {
  readonly command: 'call';
  readonly tool: string;
  readonly argPairs: readonly string[];
  readonly argsJson?: string;
  readonly answers: readonly string[];
  /** Print the raw result as JSON. */
  readonly json: boolean;
  /** Ask for a task (the tasks extension) when the server offers it. */
  readonly task: boolean;
}

/** What the command line asked for. */
export type Command =
  ListCommand | InspectCommand | CallCommand | TypesCommand | InitCommand | { command: 'help' } | { command: 'version' };

/** The usage text (`mcpfusion --help`). */
export const USAGE = `Usage:
  mcpfusion init [--template <name>] <dir>        a new server project: tools of each kind, tests; on Node,
                                                  Bun, Deno, Workers, Hono or Next.js (--template)
  mcpfusion list <url> [options]                 tools, resources, templates and prompts of a server
  mcpfusion list --stdio '<command line>' [options]
  mcpfusion inspect <url> [--json] [options]      identity, era, capabilities, every tool, prompt, resource, template
  mcpfusion inspect --stdio '<command line>' [--json] [options]
  mcpfusion call <url> <tool> [--arg name=value …] [--json '{…}'] [options]
  mcpfusion call --stdio '<command line>' <tool> [--arg name=value …] [options]
  mcpfusion types <url> [--out file.ts] [options]  TypeScript types of every tool's input and output
  mcpfusion types --stdio '<command line>' [--out file.ts] [options]
${INSPECTOR_USAGE}
${SERVE_USAGE}
${DEV_USAGE}
${INSTALL_USAGE}

Options:
  --arg name=value       a tool argument, read against the tool's input schema (repeatable)
  --json '{…}'           the tool arguments as one JSON object (--arg values are added to it)
  --json                 print the raw result (call), listing (list) or inspection (inspect) as JSON
  --answer name=value    answer a question's field without asking (repeatable)
  --out file.ts          write the types to this file instead of stdout (types)
  --task                 ask for a task when the server offers the tasks extension (2026-07-28)
  --template <name>      the project init writes: ${TEMPLATE_NAMES.join(', ')} (default node)
  --stdio '<cmd>'        spawn the server and talk to it over stdin/stdout (install: the command the client runs)
  --name <name>          the server's name in the client's configuration (install)
  --env KEY=VALUE        an environment variable of the --stdio server the client runs (install, repeatable)
  --force                replace an entry of the same name (install)
  --print                print the configuration file install would write; write nothing
  --era 2025|2026        protocol era (default: negotiate)
  --token <token>        bearer token (default: $MCP_TOKEN)
  --header 'Name: value' an extra HTTP header (repeatable)
  -h, --help             this text
  --version              the version of mcpfusion

Exit codes: 0 done, 1 the tool answered isError, 2 protocol error, 64 usage error, 130 cancelled (Ctrl-C).`;

/** Reads the command line (without `node` and the script). Throws {@link CliError} on a mistake. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  if (argv.includes('-h') || argv.includes('--help') || argv.length === 0) return { command: 'help' };
  if (argv[0] === '--version') return { command: 'version' };
  const [command, ...rest] = argv;
  if (command === 'init') return parseInit(rest);
  if (command !== 'list' && command !== 'inspect' && command !== 'call' && command !== 'types')
    throw new CliError(
      `unknown command "${command}": use init, list, inspect, call, types, inspector, serve, dev or install (mcpfusion --help)`
    ); // the usage text lists every command

  const positionals: string[] = [];
  const argPairs: string[] = [];
  const answers: string[] = [];
  const headers: Record<string, string> = {};
  let stdio: string | undefined;
  let era: '2025' | '2026' | undefined;
  let token = env.MCP_TOKEN || undefined;
  let json = false;
  let argsJson: string | undefined;
  let task = false;
  let out: string | undefined;

  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    const [flag, inline] =
      word.startsWith('--') && word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = rest[i + 1];
      if (next === undefined) throw new CliError(`${flag} needs a value`);
      i++;
      return next;
    };
    switch (flag) {
      case '--arg':
        argPairs.push(value());
        break;
      case '--answer':
        answers.push(value());
        break;
      case '--header':
        addHeader(value(), headers);
        break;
      case '--token':
        token = value();
        break;
      case '--era': {
        const chosen = value();
        if (chosen !== '2025' && chosen !== '2026') throw new CliError(`--era ${chosen}: use 2025 or 2026 (or leave it out to negotiate)`);
        era = chosen;
        break;
      }
      case '--stdio':
        stdio = value();
        break;
      case '--task':
        task = true;
        break;
      case '--out':
        out = value();
        break;
      case '--json': {
        // `--json '{…}'` carries the arguments of a call; a bare `--json` asks for JSON output.
        const next = inline ?? rest[i + 1];
        if (command === 'call' && next !== undefined && next.trimStart().startsWith('{')) {
          argsJson = next;
          if (inline === undefined) i++;
        } else if (inline !== undefined) {
          throw new CliError(`--json=${inline}: the arguments must be a JSON object, like --json '{"id": 3}'`);
        } else {
          json = true;
        }
        break;
      }
      default:
        if (word.startsWith('-') && word !== '-') throw new CliError(`unknown option ${flag} (mcpfusion --help)`);
        positionals.push(word);
    }
  }

  let target: Target;
  if (stdio !== undefined) {
    const [program, ...args] = splitCommandLine(stdio);
    target = { kind: 'stdio', command: program, args };
  } else {
    const first = positionals.shift();
    if (first === undefined) throw new CliError(`${command} needs a server: a URL (http://127.0.0.1:3000/mcp) or --stdio '<command line>'`);
    target = { kind: 'http', url: parseUrl(first) };
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  const connection = { target, era, headers };

  if (out !== undefined && command !== 'types') throw new CliError('--out belongs to types');
  if (command === 'types') {
    if (positionals.length > 0) throw new CliError(`types takes no other words (${positionals.join(' ')})`);
    if (argPairs.length || answers.length || argsJson !== undefined || json || task)
      throw new CliError('types takes only the server, --out and the connection options');
    return { command, ...connection, ...(out !== undefined ? { out } : {}) };
  }
  if (command === 'list' || command === 'inspect') {
    if (positionals.length > 0) throw new CliError(`${command} takes no other words (${positionals.join(' ')})`);
    if (argPairs.length || answers.length || argsJson !== undefined || task)
      throw new CliError('--arg, --answer, --task and --json {…} belong to call');
    return { command, ...connection, json };
  }
  const tool = positionals.shift();
  if (tool === undefined) throw new CliError('call needs the name of a tool (mcpfusion list shows them)');
  if (positionals.length > 0)
    throw new CliError(`unexpected ${positionals.join(' ')}: tool arguments go in --arg name=value or --json '{…}'`);
  return { command, ...connection, tool, argPairs, argsJson, answers, json, task };
}

/** `init [--template <name>] <dir>`: the template anywhere on the line, one folder. */
function parseInit(rest: readonly string[]): InitCommand {
  const folders: string[] = [];
  let template: InitCommand['template'];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i];
    if (word === '--template' || word.startsWith('--template=')) {
      const value = word === '--template' ? rest[++i] : word.slice('--template='.length);
      if (value === undefined || value === '' || value.startsWith('-'))
        throw new CliError(`--template needs a name: ${TEMPLATE_NAMES.join(', ')} (mcpfusion init --template bun my-server)`);
      if (template !== undefined) throw new CliError('init takes one --template');
      template = templateName(value);
    } else if (word.startsWith('-')) {
      throw new CliError(`unknown option ${word} for init: mcpfusion init [--template <name>] my-server`);
    } else {
      folders.push(word);
    }
  }
  if (folders.length !== 1) throw new CliError('init takes one folder: mcpfusion init [--template <name>] my-server');
  return { command: 'init', dir: folders[0], ...(template !== undefined ? { template } : {}) };
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`"${text}" is not a URL: give the server's endpoint (http://127.0.0.1:3000/mcp) or --stdio '<command line>'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`${text}: only http:// and https:// servers (or --stdio)`);
  return url;
}
