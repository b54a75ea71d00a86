import { AppClosedError, ConfigurationError } from '../errors';
import type { FusionAppOptions } from './app-options';
import { assembleApp, type AppParts, type AppShell } from './assemble';

/**
 * The definition an app adopts (`FusionApp.adopt`), built and started before it is served: the
 * new options keep what calls of both definitions share (the queue, the mutation lock, the
 * continuation store), so mutations stay serialized across the reload. A served app's extensions
 * are started before it serves (see `listen`): so are the new definition's. If the build, the
 * start, or the app's close meanwhile fails it, what was built is stopped and the error thrown:
 * the app stays as it was. `served`: the app listens; `closed`: whether it was closed meanwhile.
 */
export async function adoptedDefinition(
  nextOptions: FusionAppOptions<object>,
  current: AppParts,
  app: object,
  log: (message: string) => void,
  shell: AppShell & { readonly served: boolean; closed(): boolean }
): Promise<{ parts: AppParts; options: FusionAppOptions<object> }> {
  const options: FusionAppOptions<object> = {
    ...nextOptions,
    concurrency: { queue: current.queue },
    mutationLock: current.mutationLock,
    continuationStore: current.continuations
  };
  const parts = assembleApp(options, app, log, shell);
  try {
    if (shell.served) await parts.extensions.start();
    if (shell.closed()) throw new AppClosedError();
  } catch (error) {
    parts.tasks?.close();
    parts.engine.close();
    await parts.extensions.stop();
    throw error;
  }
  return { parts, options };
}

/** Refuses what an app cannot adopt: itself, or an app that was served (`served`: it listens, or made an HTTP endpoint). */
export function assertAdoptable(app: object, next: object, served: boolean): void {
  if (next === app) throw new ConfigurationError('An app cannot adopt itself: give adopt a new app made from the new code.');
  if (served) throw new ConfigurationError('adopt takes an app that was never served: create a new one for it, and do not listen on it.');
}

/**
 * Definitions an app replaced whose calls have not all ended yet: each is released once its last
 * call ended (its tasks and engine closed, its extensions stopped but those the new definition
 * still has, its gateways closed but those still given, its `onClose` called unless the same).
 * The app's `close` aborts their calls instead of waiting ({@link RetiredDefinitions.abort}).
 */
export class RetiredDefinitions {
  private readonly retiring = new Map<AppParts, Promise<void>>();

  constructor(private readonly log: (message: string) => void) {}

  /** Releases `old` (served with `oldOptions`) once it is idle; `now` is what the app serves instead. */
  retire(old: AppParts, oldOptions: FusionAppOptions<object>, now: FusionAppOptions<object>): void {
    const released = (async () => {
      await old.engine.whenIdle();
      old.tasks?.close();
      old.engine.close();
      await old.extensions.stop(new Set(now.extensions ?? []));
      const gateways = (oldOptions.gateways ?? []).filter((gateway) => !(now.gateways ?? []).includes(gateway));
      await Promise.allSettled(gateways.map((gateway) => gateway.close()));
      if (oldOptions.onClose && oldOptions.onClose !== now.onClose) await oldOptions.onClose();
    })()
      .catch((error: unknown) =>
        this.log(`the replaced definition failed to close: ${error instanceof Error ? error.message : String(error)}`)
      )
      .finally(() => this.retiring.delete(old));
    this.retiring.set(old, released);
  }

  /** Aborts the calls of every replaced definition still running, and waits for their release. */
  async abort(): Promise<void> {
    for (const old of this.retiring.keys()) old.engine.close();
    await Promise.allSettled([...this.retiring.values()]);
  }
}
