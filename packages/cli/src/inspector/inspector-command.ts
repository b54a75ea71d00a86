import { CliError, ExitCode, type ExitCodeValue } from '../cli-error';
import { addHeader, parsePort, splitCommandLine } from '../command-line';
import type { Target } from '../options';
import { note, paint, type Terminal } from '../terminal';
import { openBrowser } from './browser-opener';
import { startInspector } from './start-inspector';

export { INSPECTOR_USAGE } from './inspector-usage';

/** `mcpfusion inspector …`, as read from the command line. */
export interface InspectorCommand {
  readonly command: 'inspector';
  readonly target: Target;
  readonly headers: Record<string, string>;
  /** The inspector's own port on 127.0.0.1 (0: a free one). */
  readonly port: number;
}

/** Reads `inspector`'s arguments (after the word `inspector`). */
export function parseInspector(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): InspectorCommand {
  let target: Target | undefined;
  let port = 0;
  let token = env.MCP_TOKEN || undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new CliError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--stdio': {
        const [command, ...args] = splitCommandLine(value());
        if (command === undefined) throw new CliError("--stdio needs a command line: --stdio 'node server.js --stdio'");
        target = { kind: 'stdio', command, args };
        break;
      }
      case '--port':
        port = parsePort(flag, value());
        break;
      case '--header':
        addHeader(value(), headers);
        break;
      case '--token':
        token = value();
        break;
      default: {
        if (flag.startsWith('-')) throw new CliError(`unknown option ${flag} (mcpfusion --help)`);
        if (target) throw new CliError(`inspector takes one server (${flag} is one too many)`);
        let url: URL;
        try {
          url = new URL(flag);
        } catch {
          throw new CliError(`"${flag}" is not a URL: give the server's endpoint (http://127.0.0.1:3000/mcp) or --stdio '<command line>'`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new CliError(`${flag}: only http:// and https:// servers (or --stdio)`);
        target = { kind: 'http', url };
      }
    }
  }
  if (!target) throw new CliError("inspector needs a server: a URL (http://127.0.0.1:3000/mcp) or --stdio '<command line>'");
  if (token) headers.Authorization = `Bearer ${token}`;
  return { command: 'inspector', target, headers, port };
}

/**
 * `mcpfusion inspector`: starts the inspector, prints its URL (stdout, one line, so scripts can
 * read it), opens a browser unless `BROWSER=none`, and runs until SIGINT or SIGTERM.
 */
export async function runInspector(
  command: InspectorCommand,
  terminal: Terminal,
  signals: NodeJS.EventEmitter = process
): Promise<ExitCodeValue> {
  const inspector = await startInspector({ target: command.target, headers: command.headers, port: command.port });
  terminal.out.write(`${inspector.url.href}\n`);
  const where = command.target.kind === 'http' ? command.target.url.href : [command.target.command, ...command.target.args].join(' ');
  note(
    terminal,
    `${paint(terminal, 'bold', 'mcpfusion inspector')} for ${where}: ${paint(terminal, 'cyan', inspector.url.href)} (Ctrl-C stops it)`
  );
  const opened = await openBrowser(inspector.url.href);
  if (!opened.opened) note(terminal, `no browser opened (${opened.why}): open the address above`);
  const signal = await new Promise<string>((resolve) => {
    const stop = (name: string) => () => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve(name);
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    signals.once('SIGINT', onInt);
    signals.once('SIGTERM', onTerm);
  });
  await inspector.close();
  note(terminal, `inspector stopped (${signal})`);
  return ExitCode.OK;
}
