import type { Constructor } from '../types/core';
import { metadataStorage } from './metadata-storage';

/**
 * Whether a value is a class marked `@ToolProvider()`. For tooling that checks a project's
 * classes against its app: `mcpfusion dev` names a tool provider that was loaded but is given to
 * no app (its tools would silently be missing).
 *
 * @example
 * ```ts
 * for (const value of Object.values(require('./tools'))) if (isToolProvider(value) && !app.hasTools(value)) warn(value.name);
 * ```
 */
export function isToolProvider(value: unknown): value is Constructor {
  return typeof value === 'function' && metadataStorage.find(value)?.provider !== undefined;
}
