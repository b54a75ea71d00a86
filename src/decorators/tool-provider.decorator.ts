import { injectable } from 'tsyringe';
import { metadataStorage } from '../metadata/metadata-storage';
import type { ToolProviderOptions } from '../metadata/types';
import { isStandardDecoratorCall, standardDecoratorsError } from './decorator-mode';

/**
 * Makes a class a tool provider and injectable: its `@Action` / `@Mutation` methods
 * become tools of any app it is given to. A fresh instance is resolved per call from
 * the call's child container, so constructors may inject `CALL_CONTEXT` and `CALL_SIGNAL`.
 * A subclass serves the decorated methods of its base classes and takes their options (class
 * middleware base first, the nearest presenter), but needs its own `@ToolProvider()` to be given to an app.
 */
export function ToolProvider(options: ToolProviderOptions = {}): ClassDecorator {
  return (target, ...standard: unknown[]) => {
    if (isStandardDecoratorCall(standard[0])) throw standardDecoratorsError(undefined, `@ToolProvider() class ${target.name}`);
    metadataStorage.classRecord(target).provider = options;
    injectable()(target as never);
  };
}
