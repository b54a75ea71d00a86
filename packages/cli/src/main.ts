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
import { runCall } from './call-command';
import { CliError, ExitCode } from './cli-error';
import { parseDev, runDev } from './dev/dev-command';
import { runInit } from './init-command';
import { runInspect } from './inspect-command';
import { parseInspector, runInspector } from './inspector';
import { parseInstall, runInstall } from './install-command';
import { runList } from './list-command';
import { parseServe, runServe } from './serve-command';
import { runTypes } from './types-command';
import { parseCommandLine, USAGE } from './options';
import { note, paint, processTerminal } from './terminal';

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
    if (argv[0] === 'serve') return await runServe(parseServe(argv.slice(1)), terminal);
    if (argv[0] === 'inspector' && !argv.includes('--help') && !argv.includes('-h'))
      return await runInspector(parseInspector(argv.slice(1)), terminal);
    if (argv[0] === 'dev') return await runDev(parseDev(argv.slice(1)), terminal);
    if (argv[0] === 'install' && !argv.includes('--help') && !argv.includes('-h')) return runInstall(parseInstall(argv.slice(1)), terminal);
    const command = parseCommandLine(argv);
    switch (command.command) {
      case 'help':
        terminal.out.write(`${USAGE}\n`);
        return ExitCode.OK;
      case 'version':
        terminal.out.write(`${version()}\n`);
        return ExitCode.OK;
      case 'list':
        return await runList(command, terminal);
      case 'inspect':
        return await runInspect(command, terminal);
      case 'call':
        return await runCall(command, terminal, exitNow);
      case 'types':
        return await runTypes(command, terminal);
      case 'init':
        return runInit(command, terminal);
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
