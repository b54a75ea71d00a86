import { relative } from 'node:path';
import type { FusionApp } from '@mcpfusion/core';
import { CliError, ExitCode } from '../cli-error';
import { note, paint, type Terminal } from '../terminal';
import { decoratorFlagsHint, formatErrors, missingFlagsHint, type CompileError } from './compiler-report';
import type { DevCommand } from './dev-command';
import { LiveDevSession, type AttachInspector, type AttachedInspector } from './dev-session';
import { outputOf, readProject, sourceOf, type DevProject } from './project-config';
import { loadApp, type AppEntry } from './project-loader';
import { TscRuns } from './tsc-runs';
import { TscWatch } from './tsc-watch';
import { unregisteredProviders } from './unregistered-providers';

/** What the runner needs beyond the command line. */
export interface DevRunnerOptions {
  /** Attaches the browser inspector to the session (inspector/): its URL is printed with the MCP URL. */
  readonly attachInspector?: AttachInspector;
}

/**
 * `mcpfusion dev`: compiles the project with its own tsc in watch mode, serves its app over HTTP
 * on 127.0.0.1, and on each clean compile loads the new code and has the served app adopt it
 * (`app.adopt`): the listener and the sessions stay, clients are told which lists changed. A
 * compile with errors (or new code that throws as it loads) leaves the previous code serving.
 * Everything it says goes to stderr. Ends on SIGINT or SIGTERM.
 */
export async function runDevServer(command: DevCommand, terminal: Terminal, options: DevRunnerOptions = {}): Promise<number> {
  const say = (line: string): void => note(terminal, `${paint(terminal, 'cyan', '[mcpfusion dev]')} ${line}`);
  const project = readProject(command.dir, command.tsconfig);
  const entry: AppEntry = { file: outputOf(project, command.app.module), exportName: command.app.exportName };
  if (project.missingDecoratorFlags.length > 0)
    say(
      paint(
        terminal,
        'yellow',
        `The tsconfig lacks decorator flags. ${missingFlagsHint(project.missingDecoratorFlags, project.tsconfigChain, project.dir)}`
      )
    );
  loadReflectMetadata(project);

  let session: LiveDevSession | undefined;
  let inspector: AttachedInspector | undefined;
  let stopping = false;
  // The compiler's reports are handled one after another: a reload finishes before the next begins.
  let work = Promise.resolve();
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));

  const start = async (): Promise<void> => {
    const { app, modules } = loadApp(project, entry);
    let url: URL;
    try {
      ({ url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: command.port, handleSignals: false })) as { url: URL });
    } catch (error) {
      await app.close();
      throw new CliError(`dev: cannot listen on 127.0.0.1:${command.port}: ${(error as Error).message} (another server there? --port N)`);
    }
    session = new LiveDevSession(app, url);
    say(`MCP endpoint: ${paint(terminal, 'bold', url.href)}`);
    // INSPECTOR HOOK: the browser inspector (inspector/) attaches here and its URL is printed beside the MCP one.
    if (options.attachInspector) {
      inspector = await options.attachInspector(session);
      say(`inspector: ${paint(terminal, 'bold', inspector.url.href)}`);
    }
    warnUnregistered(app, modules);
    say(`serving ${describeApp(app)}; watching for changes (Ctrl-C stops)`);
  };

  const reload = async (live: LiveDevSession): Promise<void> => {
    const before = new Set(live.app.listTools().map((tool) => tool.name));
    let loaded: { app: FusionApp; modules: readonly string[] };
    try {
      loaded = loadApp(project, entry);
      const changes = await live.app.adopt(loaded.app);
      const after = new Set(live.app.listTools().map((tool) => tool.name));
      const added = [...after].filter((name) => !before.has(name));
      const removed = [...before].filter((name) => !after.has(name));
      live.emit({ kind: 'reloaded', changes, added, removed });
      say(`reloaded: ${describeChanges(changes, added, removed)}`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      live.emit({ kind: 'reload-failed', message });
      say(paint(terminal, 'red', `the new code did not load; the previous code keeps serving:\n${message}`));
      return;
    }
    warnUnregistered(live.app, loaded.modules);
  };

  const compiled = (errors: readonly CompileError[]): void => {
    if (errors.length > 0) {
      session?.emit({ kind: 'compile-failed', errors });
      const what = session ? 'the previous code keeps serving' : 'nothing is served until it compiles';
      say(paint(terminal, 'red', `compile failed (${errors.length} error${errors.length === 1 ? '' : 's'}); ${what}:`));
      for (const line of formatErrors(errors)) note(terminal, `  ${line}`);
      const hint = decoratorFlagsHint(errors, project.tsconfigChain, project.dir);
      if (hint) say(paint(terminal, 'yellow', hint));
      return;
    }
    work = work.then(async () => {
      if (stopping) return;
      try {
        if (session) await reload(session);
        else await start();
      } catch (error) {
        if (error instanceof CliError && !session) return stop(ExitCode.USAGE, error.message);
        say(paint(terminal, 'red', `the app did not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
        say('fix the code: the next compile starts it');
      }
    });
  };

  // Each forgotten class is named once a session (a reload that still leaves it out does not repeat it).
  const named = new Set<string>();
  function warnUnregistered(app: FusionApp, modules: readonly string[]): void {
    for (const { provider, file } of unregisteredProviders(app, modules)) {
      const where = `${provider.name} (${sourceOf(project, file)})`;
      if (named.has(where)) continue;
      named.add(where);
      say(
        paint(
          terminal,
          'yellow',
          `warning: @ToolProvider() class ${where} is loaded but given to no app, so none of its tools are served. ` +
            `Add it to the tools of FusionApp.create({ tools: [..., ${provider.name}] }) in ${command.app.module}, or remove the decorator.`
        )
      );
    }
  }

  function stop(code: number, why?: string): void {
    if (stopping) return;
    stopping = true;
    if (why) say(paint(terminal, 'red', why));
    tsc.stop();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
    void (async () => {
      await work.catch(() => undefined);
      await inspector?.close().catch(() => undefined);
      await session?.app.close();
      finish(code);
    })();
  }

  const onSignal = (): void => stop(ExitCode.OK);
  // TypeScript 7's watch mode still misses changes: its fast native tsc is run once per change instead.
  const Compiler = project.tscMajor >= 7 ? TscRuns : TscWatch;
  say(`compiling with ${relative(project.dir, project.tsconfig)} (tsc ${project.tscMajor >= 7 ? 'on each change' : '--watch'})…`);
  const tsc = new Compiler(
    project,
    {
      compiling: () => {
        session?.emit({ kind: 'compiling' });
        if (session) say('source changed: compiling…');
      },
      compiled
    },
    (code) => stop(code === 0 || stopping ? ExitCode.OK : ExitCode.USAGE, stopping ? undefined : `tsc stopped (exit ${code})`)
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
  return finished;
}

/** The project's own `reflect-metadata` (its entry may not import it; the framework's decorators need it loaded first). */
function loadReflectMetadata(project: DevProject): void {
  try {
    project.require('reflect-metadata');
  } catch {
    // Not installed in the project: the framework says what to do when the app is created.
  }
}

function describeApp(app: FusionApp): string {
  const tools = app.listTools().length;
  return `${tools} tool${tools === 1 ? '' : 's'}`;
}

function describeChanges(
  changes: { tools: boolean; resources: boolean; prompts: boolean },
  added: readonly string[],
  removed: readonly string[]
): string {
  const parts: string[] = [];
  if (changes.tools)
    parts.push(`tools changed${added.length ? ` (+${added.join(' +')})` : ''}${removed.length ? ` (-${removed.join(' -')})` : ''}`);
  if (changes.prompts) parts.push('prompts changed');
  if (changes.resources) parts.push('resources changed');
  return parts.length > 0 ? `${parts.join(', ')}; clients told` : 'no list changed';
}
