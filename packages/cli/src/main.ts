#!/usr/bin/env node
/**
 * `mcpfusion`: the terminal client of @mcpfusion/core. It lists what an MCP server offers and
 * calls its tools, showing what a call does while it runs: progress, the questions the tool
 * asks (answered at the prompt), and Ctrl-C as the protocol's cancellation. It is a program
 * of its own built on the SDK v2 client; it imports nothing of the server library, and it is
 * the one part of the package that writes to stdout. `inspect` prints all a server declares as one
 * JSON document; `inspector` serves a page on 127.0.0.1 that drives a server in either era; `install` adds a server
 * to a client's configuration file (Claude, Cursor, VS Code). `serve` and `dev` are the exceptions that load the
 * server library (lazily): `serve` puts a server behind a gateway endpoint, `dev` serves a project with hot reload.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from './cli-error';
import { note, paint, processTerminal } from './terminal';

/* eslint-disable @typescript-eslint/no-require-imports -- each command is loaded when it runs (below) */
// Each command is loaded when it runs: `serve` is a gateway's start, and its cold start should not
// pay for the client commands' prompts, progress bars and inspector page (measured: a third of it).

/** The package's version, read from its package.json (dist/main.js or src/main.ts → ../package.json). */
function version(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Ends the process now with `code` (stdin back to cooked mode first). */
function exitNow(code: number): never {
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.exit(code);
}

async function main(argv: readonly string[]): Promise<number> {
  const terminal = processTerminal();
  try {
    if (argv[0] === 'serve') {
      const { parseServe, runServe } = require('./serve-command') as typeof import('./serve-command.js');
      return await runServe(parseServe(argv.slice(1)), terminal);
    }
    if (argv[0] === 'inspector' && !argv.includes('--help') && !argv.includes('-h')) {
      const { parseInspector, runInspector } = require('./inspector') as typeof import('./inspector/index.js');
      return await runInspector(parseInspector(argv.slice(1)), terminal);
    }
    if (argv[0] === 'dev') {
      const { parseDev, runDev } = require('./dev/dev-command') as typeof import('./dev/dev-command.js');
      return await runDev(parseDev(argv.slice(1)), terminal);
    }
    if (argv[0] === 'install' && !argv.includes('--help') && !argv.includes('-h')) {
      const { parseInstall, runInstall } = require('./install-command') as typeof import('./install-command.js');
      return runInstall(parseInstall(argv.slice(1)), terminal);
    }
    const { parseCommandLine, USAGE } = require('./options') as typeof import('./options.js');
    const command = parseCommandLine(argv);
    switch (command.command) {
      case 'help':
        terminal.out.write(`${USAGE}\n`);
        return ExitCode.OK;
      case 'version':
        terminal.out.write(`${version()}\n`);
        return ExitCode.OK;
      case 'list':
        return await (require('./list-command') as typeof import('./list-command.js')).runList(command, terminal);
      case 'inspect':
        return await (require('./inspect-command') as typeof import('./inspect-command.js')).runInspect(command, terminal);
      case 'call':
        return await (require('./call-command') as typeof import('./call-command.js')).runCall(command, terminal, exitNow);
      case 'types':
        return await (require('./types-command') as typeof import('./types-command.js')).runTypes(command, terminal);
      case 'init':
        return (require('./init-command') as typeof import('./init-command.js')).runInit(command, terminal);
    }
  } catch (error) {
    if (error instanceof CliError) {
      note(terminal, `${paint(terminal, 'red', 'mcpfusion:')} ${error.message}`);
      return error.exitCode;
    }
    note(terminal, `${paint(terminal, 'red', 'mcpfusion:')} ${describe(error)}`);
    return ExitCode.PROTOCOL_ERROR;
  }
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: string };
  return typeof code === 'number' ? `protocol error ${code}: ${message ?? ''}` : (message ?? String(error));
}

void main(process.argv.slice(2)).then(exitNow);
