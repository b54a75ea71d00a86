import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Constructor } from '../types/core';
import { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL } from './tokens';

// tsyringe keeps what `@injectable()` recorded in this map, and resolving reads it. It is not part
// of the public API, so it is only read, to report at startup what resolving would fail on later.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { typeInfo } = require('tsyringe/dist/cjs/dependency-container') as { typeInfo: Map<unknown, readonly unknown[]> };

/** Tokens that exist only in a call's child container. */
const PER_CALL: ReadonlySet<unknown> = new Set([CALL_CONTEXT, CALL_SIGNAL, CALL_AUTH]);

/** Types `design:paramtypes` records for an interface, a union or a primitive: nothing to resolve by. */
const NOT_A_TOKEN: ReadonlySet<unknown> = new Set([Object, String, Number, Boolean, Array, Function, Symbol, Promise]);

/**
 * Checks, before anything runs, that every class the app will resolve (tool classes,
 * presenter and middleware classes, class providers) can be built by the app's container:
 * decorator metadata is present, every constructor parameter has a token, and every token is
 * registered or itself buildable. Returns one line per problem, naming the class, the
 * parameter and the fix; the app turns them into one ConfigurationError.
 */
export function checkInjection(
  container: DependencyContainer,
  classes: Iterable<Constructor>,
  singletons: ReadonlyMap<unknown, Constructor> = new Map()
): string[] {
  const problems: string[] = [];
  const reported = new Set<unknown>();
  const seen = new Set<Constructor>();
  const visit = (target: Constructor, via: string | undefined): void => {
    if (seen.has(target)) return;
    seen.add(target);
    const where = via ? `${target.name} (needed by ${via})` : target.name;
    const info = typeInfo.get(target);
    if (!info || info.length === 0) {
      if (target.length === 0) return;
      problems.push(missingTypeInfo(target, where, info !== undefined));
      return;
    }
    info.forEach((param, index) => {
      const token = tokenOf(param);
      if (token === undefined) return; // delay(), injectAll(): resolved lazily or possibly empty
      if (PER_CALL.has(token)) return;
      if (container.isRegistered(token as InjectionToken, true)) {
        const singleton = singletons.get(token);
        const perCall = singleton ? perCallTokenOf(container, singleton) : undefined;
        if (singleton && perCall !== undefined && !reported.has(token)) {
          reported.add(token);
          problems.push(
            `${singleton.name} (needed by ${where}) is a singleton provider but injects ${tokenName(perCall)}, which exists only during a call: ` +
              `register it as { provide: ${singleton.name}, useClass: ${singleton.name}, singleton: false } so each call builds its own, ` +
              'or inject the per-call value into the tool class.'
          );
        }
        return;
      }
      const at = `parameter #${index + 1} of ${where}`;
      if (NOT_A_TOKEN.has(token)) {
        problems.push(
          `${at} has no injection token: its type is an interface, a union or a primitive (${(token as { name: string }).name}). ` +
            'Add @inject(TOKEN) to the parameter and register TOKEN in providers.'
        );
      } else if (typeof token === 'function') {
        visit(token as Constructor, target.name);
      } else {
        problems.push(`${at} injects ${String(token)}, which is not registered: add { provide: ${String(token)}, … } to providers.`);
      }
    });
  };
  for (const target of classes) visit(target, undefined);
  return problems;
}

/** The per-call token a class reaches through its constructor parameters (unregistered classes followed), if any. */
function perCallTokenOf(container: DependencyContainer, target: Constructor, seen = new Set<unknown>()): unknown {
  if (seen.has(target)) return undefined;
  seen.add(target);
  for (const param of typeInfo.get(target) ?? []) {
    const token = tokenOf(param);
    if (PER_CALL.has(token)) return token;
    if (typeof token === 'function' && !container.isRegistered(token as InjectionToken, true)) {
      const reached = perCallTokenOf(container, token as Constructor, seen);
      if (reached !== undefined) return reached;
    }
  }
  return undefined;
}

function tokenName(token: unknown): string {
  return token === CALL_CONTEXT
    ? 'CALL_CONTEXT'
    : token === CALL_SIGNAL
      ? 'CALL_SIGNAL'
      : token === CALL_AUTH
        ? 'CALL_AUTH'
        : String(token);
}

function tokenOf(param: unknown): unknown {
  if (param && typeof param === 'object') {
    const described = param as { token?: unknown; multiple?: boolean };
    if (described.multiple || !('token' in described)) return undefined;
    return described.token;
  }
  return param;
}

function missingTypeInfo(target: Constructor, where: string, decorated: boolean): string {
  if (decorated) {
    return (
      `${where} takes ${target.length} constructor parameter(s) but no decorator metadata was emitted for it, so they cannot be injected. ` +
      'Set "experimentalDecorators" and "emitDecoratorMetadata" in tsconfig.json and compile with tsc, ts-node or swc ' +
      '(with "jsc.transform.legacyDecorator" and "decoratorMetadata"; @swc/jest for tests): ' +
      "esbuild-based runners such as tsx and vitest's default transform drop the metadata."
    );
  }
  const metadata = (Reflect as unknown as { getMetadata(key: string, target: object): unknown }).getMetadata('design:paramtypes', target);
  if (metadata === undefined) {
    return `${where} takes constructor parameters but is not injectable: decorate it with @injectable() from 'tsyringe', or register it in providers.`;
  }
  const copies = duplicateCopies();
  return (
    `${where} is decorated, but not for the framework's tsyringe: decorate it with @injectable() from the same 'tsyringe' ` +
    `the framework uses.${copies.length > 0 ? ` ${copies.join(' ')}` : ' Check for a second copy with npm ls tsyringe.'}`
  );
}

/** Packages whose identity matters (one container, one metadata store). */
const SHARED_PACKAGES = ['tsyringe', 'class-validator', 'class-transformer', 'reflect-metadata'] as const;

/**
 * Packages of which the app's project resolves another copy than the framework does (so its
 * decorators write into a store the framework never reads). One line per package.
 */
export function duplicateCopies(from: string = process.cwd()): string[] {
  const out: string[] = [];
  for (const name of SHARED_PACKAGES) {
    const ours = locate(name);
    const theirs = locate(name, from);
    if (ours && theirs && ours !== theirs) {
      out.push(
        `Two copies of ${name}: the framework uses ${ours}, your project ${theirs}. Keep one (it is a peer dependency: ` +
          `remove the nested copy, then run npm ls ${name}).`
      );
    }
  }
  return out;
}

function locate(name: string, from?: string): string | undefined {
  try {
    // The main entry (some packages do not export their package.json): the same copy, the same file.
    const entry = from ? require.resolve(name, { paths: [from] }) : require.resolve(name);
    // `node:fs` is loaded here, not at import: in a Worker bundle `require.resolve` fails first, and it is never loaded.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    return (require('node:fs') as typeof import('node:fs')).realpathSync(entry);
  } catch {
    return undefined;
  }
}

/**
 * Whether resolving `classes` (a member's class, its middleware and presenter classes) can
 * reach a per-call token (`CALL_CONTEXT`, `CALL_SIGNAL`), directly or through the classes they
 * inject; `opaque` tokens (factories, transient class providers) count as reaching one, since
 * what they build is not known before they run, and so does a class with `dispose()` (disposed
 * with the call's container). Decided once at startup: a call whose member
 * needs none gets no child container.
 */
export function needsCallScope(container: DependencyContainer, classes: Iterable<Constructor>, opaque: ReadonlySet<unknown>): boolean {
  const seen = new Set<unknown>();
  const reaches = (target: unknown): boolean => {
    if (seen.has(target)) return false;
    seen.add(target);
    // A Disposable the call builds is disposed with the call's container, so it needs one.
    if (typeof (target as { prototype?: { dispose?: unknown } }).prototype?.dispose === 'function') return true;
    for (const param of typeInfo.get(target) ?? []) {
      const token = param && typeof param === 'object' && 'token' in (param as object) ? (param as { token: unknown }).token : param;
      if (PER_CALL.has(token) || opaque.has(token)) return true;
      if (typeof token === 'function' && !container.isRegistered(token as InjectionToken, true) && reaches(token)) return true;
    }
    return false;
  };
  for (const target of classes) if (reaches(target)) return true;
  return false;
}
