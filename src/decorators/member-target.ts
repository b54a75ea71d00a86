import { metadataStorage } from '../metadata/metadata-storage';
import { isStandardDecoratorCall, standardDecoratorsError } from './decorator-mode';

/**
 * Resolves the class a member decorator was applied to, and records a misuse
 * when the member is not a method (a property, an accessor, a static member).
 * Returns false when the decorator must not record anything else.
 */
export function recordMethodTarget(
  decorator: string,
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor | undefined
): boolean {
  if (isStandardDecoratorCall(key)) {
    throw standardDecoratorsError(undefined, `${decorator} on method ${String((key as { name?: unknown }).name)}`);
  }
  const isStatic = typeof target === 'function';
  const ctor = isStatic ? target : (target as { constructor: object }).constructor;
  const className = (ctor as { name?: string }).name ?? '(anonymous)';
  const where = `${className}.${String(key)}`;
  if (isStatic) {
    metadataStorage.classRecord(ctor).misuses.push(`${decorator} on static member ${where}: tools are instance methods; remove "static".`);
    return false;
  }
  if (!descriptor || typeof descriptor.value !== 'function') {
    metadataStorage.classRecord(ctor).misuses.push(`${decorator} on ${where}, which is not a method: put it on a method.`);
    return false;
  }
  return true;
}
