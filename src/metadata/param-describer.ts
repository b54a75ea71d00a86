import type { MethodRecord } from './types';
import type { Constructor, ParamKind } from '../types/core';

/** Parameter types that are not an input class. */
const NOT_INPUT_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt, Date, undefined]);

/**
 * What each parameter of a decorated method receives, from its parameter decorators and
 * (for `@Input()`) its emitted type. Problems are collected with the class and method named.
 */
export function describeParams(
  target: Constructor,
  key: string | symbol,
  fn: (...args: unknown[]) => unknown,
  method: MethodRecord,
  where: string,
  problems: string[]
): { kinds: ParamKind[]; inputType?: Constructor } | undefined {
  const types = Reflect.getMetadata('design:paramtypes', target.prototype, key) as unknown[] | undefined;
  const count = Math.max(fn.length, types?.length ?? 0, ...[...method.params.keys()].map((i) => i + 1));
  const kinds: ParamKind[] = [];
  let inputType: Constructor | undefined;
  let ok = true;
  for (let i = 0; i < count; i++) {
    const marks = method.params.get(i) ?? [];
    if (marks.length !== 1) {
      problems.push(
        marks.length === 0
          ? `${where}: parameter ${i + 1} has no decorator: mark it @Input(), @Ctx() or @Signal().`
          : `${where}: parameter ${i + 1} has ${marks.length} parameter decorators: keep exactly one.`
      );
      ok = false;
      continue;
    }
    const mark = marks[0];
    if (mark === 'input') {
      if (inputType) {
        problems.push(`${where}: more than one @Input() parameter: a tool takes one input class.`);
        ok = false;
        continue;
      }
      if (!types) {
        problems.push(
          `${where}: no type metadata for @Input(): enable "emitDecoratorMetadata" and "experimentalDecorators" in tsconfig ` +
            '(with swc: "jsc.transform.legacyDecorator" and "decoratorMetadata"), and do not build with esbuild, which drops it: ' +
            "tsx and vitest's default transform are esbuild-based (build with tsc or swc, run with ts-node, test with @swc/jest)."
        );
        ok = false;
        continue;
      }
      const type = types[i];
      if (typeof type !== 'function' || NOT_INPUT_TYPES.has(type)) {
        const shown = typeof type === 'function' ? type.name : String(type);
        problems.push(
          `${where}: the @Input() parameter's type (${shown}) is not a class: declare a class with class-validator decorators and use it as the type.`
        );
        ok = false;
        continue;
      }
      inputType = type as Constructor;
    }
    kinds.push(mark);
  }
  return ok ? { kinds, inputType } : undefined;
}
