import type { AuthInfo, ClientCapabilities, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { ListenRouter, ParsedListen } from '../transports/http/task-listen-request';
import { remoteAddressOf } from '../transports/http/connection-facts';
import { ConfigurationError, MissingCapabilityError } from '../errors';
import type { ErrorBoundary } from '../pipeline/error-boundary';
import type { Middleware } from '../types/middleware';
import type { ExtensionLife } from '../pipeline/steps/call-life.step';
import type { ServedRequest } from '../types/request';
import { isPlainJsonObject } from '../wire/own-properties';
import { ServedRequests } from './served-requests';
import type { ExtensionHost, ExtensionMethod, ExtensionRequest, FusionExtension } from '../extensions/extension';
import { extensionRequestOf } from '../extensions/extension-request';
import { extensionIdProblem, extensionMethodProblem } from '../extensions/extension-rules';

/**
 * The app's extensions, checked at startup (every problem at once, in one ConfigurationError)
 * and served: their settings advertised, their methods dispatched (opt-in checked, started
 * first, failures mapped by the app's error boundary), their resources read, their middleware
 * placed, their start and stop run once each.
 */
export class ExtensionSet implements ListenRouter {
  private readonly methods = new Map<string, { extension: FusionExtension; run: ExtensionMethod }>();
  private starting: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly extensions: readonly FusionExtension[],
    private readonly boundary: ErrorBoundary,
    private readonly host: ExtensionHost,
    /** Where the requests handed to extensions are tied to the requests they were made from (the app's one). */
    private readonly served: ServedRequests = new ServedRequests()
  ) {
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const extension of extensions) {
      const idProblem = extensionIdProblem(extension?.id);
      if (idProblem) {
        problems.push(idProblem);
        continue;
      }
      if (ids.has(extension.id)) problems.push(`extension ${extension.id} is given twice: each extension id once per app`);
      ids.add(extension.id);
      if (extension.settings !== undefined && !isPlainJsonObject(extension.settings)) {
        problems.push(
          `extension ${extension.id}: settings must be a plain JSON object (what capabilities.extensions["${extension.id}"] advertises)`
        );
      }
      const life = extension.callLife;
      if (life !== undefined && (typeof life?.appliesTo !== 'function' || typeof life?.around !== 'function')) {
        problems.push(`extension ${extension.id}: callLife must have appliesTo(tool) and around(call, next) functions`);
      } else if (life?.checkFor !== undefined && typeof life.checkFor !== 'function') {
        problems.push(`extension ${extension.id}: callLife.checkFor, when given, must be a function (tool) => check or undefined`);
      }
      const scopes = extension.resources?.scopes;
      if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || scope === ''))) {
        problems.push(`extension ${extension.id}: resources.scopes must be an array of scope names`);
      }
      for (const [method, run] of Object.entries(extension.methods ?? {})) {
        const methodProblem = extensionMethodProblem(extension.id, method);
        const owner = this.methods.get(method);
        if (methodProblem) problems.push(methodProblem);
        else if (owner)
          problems.push(`extensions ${owner.extension.id} and ${extension.id} both serve ${method}: one method, one extension`);
        else if (typeof run !== 'function') problems.push(`extension ${extension.id}: method ${method} must be a function`);
        else this.methods.set(method, { extension, run });
      }
    }
    if (problems.length > 0) throw new ConfigurationError(`Invalid extensions:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }

  /** What `capabilities.extensions` advertises (in `initialize` and `server/discover`), or undefined when there is none. */
  get capabilities(): Readonly<Record<string, object>> | undefined {
    if (this.extensions.length === 0) return undefined;
    return Object.fromEntries(this.extensions.map((e) => [e.id, { ...(e.settings ?? {}) }]));
  }

  /** The methods the extensions serve. */
  get methodNames(): readonly string[] {
    return [...this.methods.keys()];
  }

  /** Starts every extension, once (the first caller starts them; later ones wait for the same start). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      for (const extension of this.extensions) await extension.start?.(this.host);
      this.started = true;
    })();
    return this.starting;
  }

  /** The start, while it is not over (begun now if it was not); undefined once every extension started (see `ExtensionLife.starting`). */
  startIfNeeded(): Promise<void> | undefined {
    return this.started ? undefined : this.start();
  }

  /**
   * Stops every extension that has a `stop`, once; a failure is logged, the others still stop.
   * `keep`: extensions the app's next definition serves as well (a reload given the same objects), left running.
   */
  async stop(keep: ReadonlySet<FusionExtension> = new Set()): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const extension of this.extensions) {
      if (keep.has(extension)) continue;
      try {
        await extension.stop?.();
      } catch (error) {
        this.host.log(`extension ${extension.id} failed to stop: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Serves one request to an extension method; failures are thrown as the boundary maps them (JSON-RPC errors). */
  async call(method: string, params: unknown, served: ServedRequest): Promise<Record<string, unknown>> {
    const entry = this.methods.get(method);
    try {
      if (!entry) throw new ConfigurationError(`No extension serves ${method}`);
      const request = this.requestOf(entry.extension, method, params, served);
      this.checkOptIn(entry.extension, method, request.clientSettings);
      await this.start();
      const result = await entry.run(request);
      // Every 2026-07-28 result names its type; an extension's own (a task's "task") is kept.
      return request.era === 'modern' && result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
    } catch (error) {
      throw this.boundary.protocolError(error, 'tool', method);
    }
  }

  /** The extension that serves a resource URI, when one does. */
  resourceOwner(uri: string): FusionExtension | undefined {
    return this.extensions.find((e) => e.resources?.owns(uri) === true);
  }

  /**
   * Reads a resource an extension serves (see {@link resourceOwner}), the extension started
   * first: the terminal of the extension's resource chain (`extension-resources.ts`), whose
   * boundary maps what it throws.
   */
  async readOwnResource(owner: FusionExtension, uri: string, served: ServedRequest): Promise<ReadResourceResult> {
    await this.start();
    return owner.resources!.read(uri, this.requestOf(owner, 'resources/read', { uri }, served));
  }

  /** Whether any extension answers listens (then the HTTP routing asks this set: see {@link accepts}). */
  get hasListens(): boolean {
    return this.extensions.some((e) => e.listens !== undefined);
  }

  /** Whether an extension answers this `subscriptions/listen` (the first whose `accepts` says so). */
  accepts(listen: ParsedListen): boolean {
    return this.listenOwner(listen.params) !== undefined;
  }

  /** Opens a listen an extension answers (started first, opt-in checked); failures thrown as the boundary maps them. */
  async open(listen: ParsedListen, authInfo: AuthInfo | undefined, signal: AbortSignal, httpRequest?: Request): Promise<Response> {
    const served: ServedRequest = {
      era: 'modern',
      authInfo,
      // The caller's facts, as for any request: `principalOf` may name the caller from them (a task is found only for its creator).
      ...(httpRequest ? { httpRequest, remoteAddress: remoteAddressOf(httpRequest) } : {}),
      clientCapabilities: isPlainJsonObject(listen.capabilities) ? (listen.capabilities as ClientCapabilities) : undefined,
      signal
    };
    const owner = this.listenOwner(listen.params);
    try {
      if (!owner) throw new ConfigurationError('No extension answers this subscriptions/listen');
      const request = { ...this.requestOf(owner, 'subscriptions/listen', listen.params, served), id: listen.id };
      this.checkOptIn(owner, 'subscriptions/listen', request.clientSettings);
      await this.start();
      return await owner.listens!.open(request);
    } catch (error) {
      throw this.boundary.protocolError(error, 'tool', 'subscriptions/listen');
    }
  }

  private listenOwner(params: Readonly<Record<string, unknown>>): FusionExtension | undefined {
    return this.extensions.find((e) => e.listens?.accepts(params) === true);
  }

  /** A request of an extension that requires opt-in, from a client that did not declare it: -32021. */
  private checkOptIn(extension: FusionExtension, method: string, clientSettings: unknown): void {
    if (!extension.requiresOptIn || clientSettings !== undefined) return;
    const id = extension.id;
    throw new MissingCapabilityError(
      id,
      { extensions: { [id]: {} } },
      `${method} needs the ${id} extension: declare it in the client capabilities.`
    );
  }

  /** What the extensions add to `resources/list`. */
  listedResources(): Resource[] {
    return this.extensions.flatMap((e) => [...(e.resources?.list?.() ?? [])]);
  }

  private requestOf(extension: FusionExtension, method: string, params: unknown, served: ServedRequest): ExtensionRequest {
    const request = extensionRequestOf(extension.id, method, params, served, served.signal ?? new AbortController().signal);
    this.served.record(request, served);
    return request;
  }
}

/**
 * The extensions' call-life points, in the order of the extensions (the first outermost in a
 * chain), each waiting for the extensions' start (`starting`: the app's set, read when a call
 * comes). A malformed one is left out here: the set refuses it at startup, naming it (see {@link ExtensionSet}).
 */
export function callLivesOf(extensions: readonly FusionExtension[], starting?: () => Promise<void> | undefined): readonly ExtensionLife[] {
  const wellFormed = (life: FusionExtension['callLife']) =>
    typeof life?.appliesTo === 'function' &&
    typeof life.around === 'function' &&
    (life.checkFor === undefined || typeof life.checkFor === 'function');
  return extensions.flatMap((e) => (wellFormed(e?.callLife) ? [{ id: e.id, life: e.callLife!, starting }] : []));
}

/** The app's global middleware with its extensions' around it: every `outer` first, every `inner` last (see `ExtensionSteps`). */
export function middlewareAround(extensions: readonly FusionExtension[], app: readonly Middleware[]): readonly Middleware[] {
  const outer = extensions.flatMap((e) => e?.steps?.outer ?? []);
  const inner = extensions.flatMap((e) => e?.steps?.inner ?? []);
  return outer.length === 0 && inner.length === 0 ? app : [...outer, ...app, ...inner];
}
