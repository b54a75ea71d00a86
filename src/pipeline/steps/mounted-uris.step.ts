import { mountedUriRewrite, namespacedResultUris } from '../../compose/namespaced-content';
import { namedAfter, namedExit, type NamedStep } from './named-step';

/**
 * A mounted tool's or prompt's presentation, then the URIs its result names (resource links,
 * embedded resources) put under the mount's namespace, as the app in front serves them (see
 * src/compose/namespaced-content.ts): a link a mounted tool returns reads back through the app.
 * It keeps the presentation step's name, so the chain reads as before.
 */
export function mountedUrisStep(namespace: string, present: NamedStep): NamedStep {
  const rewrite = mountedUriRewrite(namespace);
  const shape = present.exit?.value;
  // A presentation that is only its exit hook stays one (applied where the call finishes).
  if (shape && !present.exit?.error) {
    return namedExit(present.name, {
      value: (state, value) => {
        const presented = shape(state, value);
        return isThenable(presented) ? presented.then((result) => namespacedResultUris(result, rewrite)) : namespacedResultUris(presented, rewrite);
      }
    });
  }
  return namedAfter(present.name, (state, next) =>
    Promise.resolve(present.run(state, next)).then((result) => namespacedResultUris(result, rewrite))
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
