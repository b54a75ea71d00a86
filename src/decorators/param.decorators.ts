import { metadataStorage } from '../metadata/metadata-storage';
import type { ParamKind } from '../types/core';

function paramDecorator(kind: ParamKind, decorator: string): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) {
      const name = (target as { name?: string }).name ?? '(anonymous)';
      metadataStorage
        .classRecord(target)
        .misuses.push(
          `${decorator} on a constructor parameter of ${name}: inject per-call values with @inject(CALL_CONTEXT) or @inject(CALL_SIGNAL) instead.`
        );
      return;
    }
    const record = metadataStorage.methodRecord(target.constructor, key);
    const kinds = record.params.get(index) ?? [];
    kinds.push(kind);
    record.params.set(index, kinds);
  };
}

/** Injects the validated tool input. The parameter's type must be a class with class-validator decorators. */
export function Input(): ParameterDecorator {
  return paramDecorator('input', '@Input()');
}

/** Injects the per-call context (what `contextFactory` made, plus `signal` and `progress`). */
export function Ctx(): ParameterDecorator {
  return paramDecorator('context', '@Ctx()');
}

/** Injects the call's `AbortSignal`. */
export function Signal(): ParameterDecorator {
  return paramDecorator('signal', '@Signal()');
}
