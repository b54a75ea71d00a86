import { isToolProvider } from '@mcpfusion/core/advanced';
import type { Constructor, FusionApp } from '@mcpfusion/core';

/**
 * The `@ToolProvider()` classes the project's loaded modules export that the app serves nothing
 * of: neither given to it (`tools`, `addTools`), nor extended by a class it was given, nor the
 * class of a mounted tool. Their tools would be silently missing; dev names them at startup.
 */
export function unregisteredProviders(app: FusionApp, modules: readonly string[]): { provider: Constructor; file: string }[] {
  const served = new Set<Constructor>([...app.mountable.tools, ...app.tools.map((tool) => tool.target)]);
  const found = new Map<Constructor, string>();
  for (const file of modules) {
    const exported = require.cache[file]?.exports as unknown;
    const values = typeof exported === 'function' ? [exported] : exported && typeof exported === 'object' ? Object.values(exported) : [];
    for (const value of values) if (isToolProvider(value) && !isServed(value, served) && !found.has(value)) found.set(value, file);
  }
  return [...found].map(([provider, file]) => ({ provider, file }));
}

/** Served: given to the app, or a base class of one that is. */
function isServed(provider: Constructor, served: ReadonlySet<Constructor>): boolean {
  for (const cls of served) if (cls === provider || cls.prototype instanceof provider) return true;
  return false;
}
