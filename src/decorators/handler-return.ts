import type { InputRound } from '../interactive/require-input';
import type { Constructor, OutputSpec } from '../types/core';

/**
 * What a tool with `output: X` may produce: an `X` (for `[X]`, a list of them), or an
 * `InputRound` (an `@Interactive` tool asking). Anything assignable to the class's instance type
 * is fine (a plain object with its fields, a subclass, a record with more fields: the output's
 * allowlist drops the rest).
 */
export type OutputValue<O extends OutputSpec> =
  (O extends [Constructor<infer T>] ? readonly T[] : O extends Constructor<infer T> ? T : never) | InputRound;

/** What a handler method may return for an output value `R`: `R`, a promise of it, or a generator (sync or async) that returns it. */
export type HandlerReturn<R> =
  | R
  | PromiseLike<R>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what the method's generator is sent is its own business
  | Generator<unknown, R, any>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  | AsyncGenerator<unknown, R, any>;

/**
 * The compile-time check that fails when a method's return type is not a {@link HandlerReturn}
 * of its declared output: the property named in the error says what to do.
 */
export type CheckedReturn<M, R> = M extends (...args: never[]) => HandlerReturn<R>
  ? unknown
  : {
      /** Never present: its name is the compiler's error message. */
      readonly 'the method must return (or resolve, or return from its generator) the declared output class, or an InputRound; throw a ToolError for a refusal': R;
    };

/**
 * The decorator `@Action` and `@Mutation` return for a tool with a declared `output` and no
 * presenter: applied to a method whose return type does not fit the output, it is a compile
 * error (`tsc`, ts-jest), not a call that fails at run time.
 */
export type OutputCheckedDecorator<R> = <M>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M> & CheckedReturn<M, R>
) => void;
