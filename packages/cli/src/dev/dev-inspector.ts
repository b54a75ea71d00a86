import { startInspector } from '../inspector';
import type { DevReload } from '../inspector';
import { formatErrors } from './compiler-report';
import type { AttachInspector, DevEvent } from './dev-session';
import { StageTimings } from './stage-timings';

/**
 * The browser inspector attached to a `mcpfusion dev` session: it drives the project's own MCP
 * endpoint (in the era chosen on its page), and its dev panel shows each member's compiled chain
 * (of the code served now), every reload, with the compiler's errors when an edit did not compile, and each
 * call's stage timings (through a tracer provider of the session's, unless the project registered one).
 */
export function inspectorFor(port: number): AttachInspector {
  return async (session) => {
    const timings = new StageTimings();
    const timed = timings.register();
    const inspector = await startInspector({
      target: { kind: 'http', url: session.url },
      port,
      devHooks: {
        describeChain: (kind, name) => {
          try {
            return session.describeChain(name, kind);
          } catch {
            return undefined; // a member the code served now does not have
          }
        },
        onReload: (listener) =>
          session.onEvent((event) => {
            const reload = reloadOf(event);
            if (reload) listener(reload);
          }),
        ...(timed ? { onCallTimings: (listener: Parameters<StageTimings['on']>[0]) => timings.on(listener) } : {})
      }
    });
    return { url: inspector.url, close: () => inspector.close() };
  };
}

/** What the dev panel shows of a session event (compiling says nothing yet). */
function reloadOf(event: DevEvent): DevReload | undefined {
  if (event.kind === 'reloaded') return { ok: true };
  if (event.kind === 'compile-failed') return { ok: false, errors: formatErrors(event.errors) };
  if (event.kind === 'reload-failed') return { ok: false, errors: [event.message] };
  return undefined;
}
