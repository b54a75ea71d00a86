import { CliError } from '../cli-error';
import { parsePort } from '../command-line';
import type { Terminal } from '../terminal';

/** `mcpfusion dev …`, as read from the command line. */
export interface DevCommand {
  readonly command: 'dev';
  /** The project's folder (the current one). */
  readonly dir: string;
  readonly port: number;
  /** The module (a source file, or a compiled .js) and the export that returns a new FusionApp. */
  readonly app: { readonly module: string; readonly exportName: string };
  /** The tsconfig to compile (default: tsconfig.build.json, else tsconfig.json). */
  readonly tsconfig?: string;
  /** The browser inspector's port on 127.0.0.1 (0: a free one), or false (`--no-inspector`). */
  readonly inspector: number | false;
}

/** The usage lines of `dev` (part of `mcpfusion --help`). */
export const DEV_USAGE = `  mcpfusion dev [--port N] [--app <module>#<export>] [--tsconfig <file>] [--inspector-port M | --no-inspector]
                         compile with tsc --watch and serve the project at http://127.0.0.1:N/mcp (default 3000);
                         an edit reloads its tools, prompts, resources and views, clients stay connected
                         (default app: src/app.ts#createApp, as \`mcpfusion init\` makes it); the browser
                         inspector of the project is served beside it, its URL printed (port M, default a free one)`;

/** Reads `dev`'s arguments (after the word `dev`). */
export function parseDev(argv: readonly string[], dir: string = process.cwd()): DevCommand {
  let port = 3000;
  let app = { module: 'src/app.ts', exportName: 'createApp' };
  let tsconfig: string | undefined;
  let inspector: number | false = 0;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new CliError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port':
        port = parsePort(flag, value());
        break;
      case '--app': {
        const text = value();
        const hash = text.lastIndexOf('#');
        if (hash <= 0 || hash === text.length - 1)
          throw new CliError(`--app must be <module>#<export> (got "${text}"), e.g. src/app.ts#createApp`);
        app = { module: text.slice(0, hash), exportName: text.slice(hash + 1) };
        break;
      }
      case '--tsconfig':
        tsconfig = value();
        break;
      case '--inspector-port':
        inspector = parsePort(flag, value());
        break;
      case '--no-inspector':
        inspector = false;
        break;
      default:
        throw new CliError(`dev: unknown option "${flag}" (mcpfusion --help)`);
    }
  }
  return { command: 'dev', dir, port, app, inspector, ...(tsconfig !== undefined ? { tsconfig } : {}) };
}

/** Runs `mcpfusion dev` until SIGINT or SIGTERM. Loads the server library (lazily, so the client commands stay light). */
export async function runDev(command: DevCommand, terminal: Terminal): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runDevServer } = require('./dev-runner') as typeof import('./dev-runner.js');
  if (command.inspector === false) return runDevServer(command, terminal);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { inspectorFor } = require('./dev-inspector') as typeof import('./dev-inspector.js');
  return runDevServer(command, terminal, { attachInspector: inspectorFor(command.inspector) });
}
