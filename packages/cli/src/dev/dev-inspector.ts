import { startInspector } from '../inspector';
import type { DevReload } from '../inspector';
import { formatErrors } from './compiler-report';
import type { AttachInspector, DevEvent } from './dev-session';

/**
 * The browser inspector attached to a `mcpfusion dev` session: it drives the project's own MCP
 * endpoint (in the era chosen on its page), and its dev panel shows each member's compiled chain
 * (of the code served now) and every reload, with the compiler's errors when an edit did not compile.
 */
export function inspectorFor(port: number): AttachInspector {
  return async (session) => {
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
          })
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
