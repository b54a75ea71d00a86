import type { Mount } from '../compose/mount';
import { namespacedViewUri } from '../compose/namespace';
import { ConfigurationError } from '../errors';
import type { ViewDescriptor } from './view-descriptor';

/** The mounts' views under their namespaces (`ui://<namespace>/…`); one that clashes with another view is refused, naming both. */
export function mountedViewsOf(mounted: ReadonlyMap<Mount, readonly ViewDescriptor[]>, own: ReadonlySet<string>): ViewDescriptor[] {
  const held = new Map([...own].map((uri) => [uri, 'the app']));
  const views: ViewDescriptor[] = [];
  const problems: string[] = [];
  for (const [m, described] of mounted) {
    for (const view of described) {
      const uri = namespacedViewUri(m.namespace, view.uri);
      const other = held.get(uri);
      if (other) problems.push(`view ${uri} is both ${other}'s and ${view.uri} of the app mounted under ${m.namespace}`);
      else held.set(uri, `${view.uri} of the app mounted under ${m.namespace}`);
      views.push(Object.freeze({ ...view, uri, mountedUnder: m.namespace }));
    }
  }
  if (problems.length > 0) throw new ConfigurationError(`Cannot start: ${problems.length} view(s) clash:\n- ${problems.join('\n- ')}`);
  return views;
}
