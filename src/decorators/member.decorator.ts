import { metadataStorage } from '../metadata/metadata-storage';
import type { MemberKind } from '../types/core';
import { recordMethodTarget } from './member-target';

/** Records one kind decorator (`@Action`, `@Resource`, `@Prompt`, …) on a method. */
export function memberDecorator(kind: MemberKind, decorator: string, id: string, options: unknown): MethodDecorator {
  return (target, key, descriptor) => {
    if (!recordMethodTarget(decorator, target, key, descriptor)) return;
    metadataStorage.methodRecord(target.constructor, key).kinds.push({ kind, name: id, options });
  };
}
