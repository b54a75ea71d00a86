/*
 * Jest runs each test file in a vm context whose `Symbol` lacks Node's `Symbol.dispose` and
 * `Symbol.asyncDispose`; playwright-core's bundle then disagrees with itself about them (its
 * `using` helper falls back to `Symbol.for('Symbol.dispose')`, its classes key on the missing
 * property) and fails clicks with "Object not disposable". Giving the context the registered
 * symbols before playwright-core loads makes both sides agree. Import this first.
 */
const symbols = Symbol as unknown as { dispose?: symbol; asyncDispose?: symbol };
symbols.dispose ??= Symbol.for('Symbol.dispose');
symbols.asyncDispose ??= Symbol.for('Symbol.asyncDispose');

export {};
