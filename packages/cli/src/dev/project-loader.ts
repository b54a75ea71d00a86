import { realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { FusionApp } from '@mcpfusion/core';
import { CliError } from '../cli-error';
import type { DevProject } from './project-config';

/** Where the app is: a compiled module and the export that makes it (`createApp`, `createBillingApp`). */
export interface AppEntry {
  /** The compiled module's absolute path. */
  readonly file: string;
  /** The exported function that returns a new `FusionApp` (called with no arguments). */
  readonly exportName: string;
}

/** The framework this CLI runs on: its files are never dropped from the cache (the app must be its `FusionApp`). */
const FRAMEWORK_DIR = dirname(realpath(require.resolve('@mcpfusion/core')));

/**
 * Loads the project's app from its compiled files, fresh: the project's compiled files (under its
 * `outDir`; not node_modules, not the framework) are dropped from Node's require cache first, so
 * the new code is what loads. The modules of the code being served stay alive through the app
 * that holds them; a load that throws leaves that app as it is.
 */
export function loadApp(project: DevProject, entry: AppEntry): { app: FusionApp; modules: readonly string[] } {
  const outDir = realpath(project.outDir) + sep;
  for (const key of Object.keys(require.cache)) if (isProjectFile(key, outDir)) delete require.cache[key];
  const loaded = project.require(entry.file) as Record<string, unknown>;
  const factory = loaded[entry.exportName];
  if (typeof factory !== 'function')
    throw new CliError(
      `dev: ${entry.file} exports no function ${entry.exportName} (give --app <module>#<export>: a function that returns FusionApp.create(…))`
    );
  const app = (factory as () => unknown)();
  if (!(app instanceof FusionApp)) {
    const hint =
      app && typeof app === 'object' && app.constructor?.name === 'FusionApp'
        ? "a FusionApp of another copy of @mcpfusion/core than this mcpfusion runs on: run the project's own (npx mcpfusion dev)"
        : 'not a FusionApp';
    throw new CliError(`dev: ${entry.exportName}() returned ${hint}`);
  }
  return { app, modules: Object.keys(require.cache).filter((key) => isProjectFile(key, outDir)) };
}

/** A compiled file of the project: under its outDir, not a dependency, not the framework. */
function isProjectFile(path: string, outDir: string): boolean {
  const real = realpath(path);
  return real.startsWith(outDir) && !real.includes(`${sep}node_modules${sep}`) && !real.startsWith(FRAMEWORK_DIR + sep);
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
