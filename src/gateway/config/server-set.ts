import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ConfigurationError, TaskNotFoundError } from '../../errors';
import type { Gateway, MemberSource, MemberSourceListener } from '../../metadata/member-source';
import type { ToolDescriptor } from '../../metadata/tool-descriptor';
import type { PromptDescriptor, ResourceTemplateDescriptor } from '../../metadata/surface-descriptors';
import type { ProxyOptions } from '../proxy-options';
import type { ProxiedServer } from '../gateway';
import type { TaskForwarding } from '../../types/forwarded-tasks';
import { parseServersConfig, serversFromConfig, type ConfiguredServer } from './servers-config';
import { UpstreamSlot, type SlotTiming, type UpstreamHealth } from './upstream-slot';
import { LateFrontSessions } from './late-front-sessions';

/** The health resource's URI. */
export const HEALTH_URI = 'mcpfusion://gateway/health';

/** Where a set's servers come from: a file (watched), or a value given in code. */
export type ServersSource = { readonly file: string } | { readonly value: unknown };

/** A set of upstreams as `proxyServers` returns it: a {@link Gateway} with each upstream's health, reloadable. */
export interface UpstreamSet extends Gateway {
  /** Each upstream's state, as the health resource (`mcpfusion://gateway/health`) lists it. */
  health(): UpstreamHealth[];
  /**
   * Reads the source again (a file; or `value`, a new config in code) and applies the
   * difference: new upstreams are connected, removed ones closed, changed ones replaced; front
   * clients are told (`list_changed`). An invalid config is an error and changes nothing.
   */
  reload(value?: unknown): Promise<void>;
}

/**
 * Many upstreams served as one gateway: each a {@link UpstreamSlot} under its name as namespace.
 * Its members are the slots' members at the moment (plus the health resource), so an upstream
 * that is down or slow never holds the listings of the others. A file source is watched: an
 * edit reloads the set (a broken edit is logged and the set kept as it was).
 */
export class ServerSet implements UpstreamSet, MemberSource {
  readonly label: string;
  readonly namespace = undefined;
  /** It is its own member source (what the app reads through `Gateway.memberSource`). */
  readonly memberSource: MemberSource = this;
  private readonly slots = new Map<string, UpstreamSlot>();
  private readonly listeners = new Set<MemberSourceListener>();
  /** The front sessions of the app that follows the set, as its upstreams reach them (they may connect before it exists). */
  private readonly front = new LateFrontSessions();
  private watcher: FSWatcher | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private reloadAgain = false;
  private closed = false;
  private readonly healthTemplate: ResourceTemplateDescriptor;

  constructor(
    private readonly source: ServersSource,
    private readonly options: ProxyOptions,
    private readonly timing: SlotTiming,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (message: string) => void
  ) {
    this.label = 'file' in source ? `gateway set (${source.file})` : 'gateway set';
    const health = (): UpstreamHealth[] => this.health();
    const members = class GatewayHealth {
      readHealth() {
        return { upstreams: health() };
      }

      listHealth() {
        return [{ uri: HEALTH_URI, name: 'gateway-health', title: 'Gateway health', mimeType: 'application/json' }];
      }
    };
    this.healthTemplate = Object.freeze({
      kind: 'resource-template' as const,
      target: members,
      className: this.label,
      interactive: false,
      singleUseState: false,
      middleware: [],
      scopes: [],
      uriTemplate: HEALTH_URI,
      name: 'gateway-health',
      description: "Each upstream's state (connecting, up, down), its last error and when it is tried again.",
      mimeType: 'application/json',
      methodName: 'readHealth',
      params: Object.freeze([] as const),
      complete: {},
      list: 'listHealth',
      unlisted: true
    }) as ResourceTemplateDescriptor;
  }

  /** Reads the source and starts every upstream; resolves once each has had its first try (up, or down and retrying). */
  async start(watchFile: boolean): Promise<void> {
    const servers = await this.read(undefined);
    for (const server of servers) this.slots.set(server.name, this.slot(server));
    await Promise.all([...this.slots.values()].map((slot) => slot.firstTry));
    if (watchFile && 'file' in this.source) this.watch(this.source.file);
  }

  get waitingQuestions(): number {
    let total = 0;
    for (const slot of this.slots.values()) total += slot.current?.waitingQuestions ?? 0;
    return total;
  }

  health(): UpstreamHealth[] {
    return [...this.slots.values()].map((slot) => slot.health());
  }

  /** The upstreams' tasks (each server's own, see `UpstreamTasks`): a task is its server's, reached by its front id. */
  readonly tasks: TaskForwarding = {
    offered: () => this.servers().some((server) => server.tasks.offered()),
    serves: (toolName) => this.servers().some((server) => server.tasks.serves(toolName)),
    adopt: (toolName, created, owner) => {
      const server = this.servers().find((candidate) => candidate.tasks.serves(toolName));
      // Not reached (the app asks only for a tool a server serves); an upstream's id is never passed on unbound.
      if (!server) throw new TaskNotFoundError();
      return server.tasks.adopt(toolName, created, owner);
    },
    forward: (method, taskId, owner, params, signal) => {
      for (const server of this.servers()) {
        const answer = server.tasks.forward(method, taskId, owner, params, signal);
        if (answer) return answer;
      }
      return undefined;
    },
    follow: (taskIds, owner, signal, status) => {
      const follows = this.servers().map((server) => server.tasks.follow(taskIds, owner, signal, status));
      return {
        followed: follows.flatMap((follow) => follow.followed),
        ended: Promise.all(follows.map((follow) => follow.ended)).then(() => undefined)
      };
    }
  };

  /** The servers answering now. */
  private servers(): ProxiedServer[] {
    return [...this.slots.values()].flatMap((slot) => (slot.current ? [slot.current] : []));
  }

  tools(): readonly ToolDescriptor[] {
    return [...this.slots.values()].flatMap((slot) => slot.current?.tools() ?? []);
  }

  templates(): readonly ResourceTemplateDescriptor[] {
    return [this.healthTemplate, ...[...this.slots.values()].flatMap((slot) => slot.current?.templates() ?? [])];
  }

  prompts(): readonly PromptDescriptor[] {
    return [...this.slots.values()].flatMap((slot) => slot.current?.prompts() ?? []);
  }

  subscribe(listener: MemberSourceListener): () => void {
    this.listeners.add(listener);
    if (listener.sessions) this.front.attach(listener.sessions);
    return () => {
      this.listeners.delete(listener);
      if (listener.sessions) this.front.attach(undefined);
    };
  }

  reload(value?: unknown): Promise<void> {
    // One reload at a time, in order: an edit made while one runs is applied after it.
    const next = this.reloading.then(() => this.apply(value));
    this.reloading = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.allSettled(slots.map((slot) => slot.close()));
  }

  private async apply(value: unknown): Promise<void> {
    if (this.closed) return;
    const servers = await this.read(value);
    if (this.closed) return;
    const wanted = new Map(servers.map((server) => [server.name, server]));
    const closing: UpstreamSlot[] = [];
    for (const [name, slot] of this.slots) {
      const next = wanted.get(name);
      if (next && next.key === slot.config.key && next.namespace === slot.config.namespace) {
        wanted.delete(name);
        continue;
      }
      this.slots.delete(name);
      closing.push(slot);
      this.log(next ? `upstream "${name}" changed in the config: replacing it.` : `upstream "${name}" was removed from the config.`);
    }
    const added = [...wanted.values()];
    for (const server of added) this.slots.set(server.name, this.slot(server));
    await Promise.allSettled(closing.map((slot) => slot.close()));
    // Removed members leave the listings now; an added upstream's members arrive when it answers (its slot says so).
    if (closing.length > 0) this.changed();
  }

  private async read(value: unknown): Promise<ConfiguredServer[]> {
    if (value !== undefined) return serversFromConfig(value, 'the gateway config', this.env);
    if ('value' in this.source) return serversFromConfig(this.source.value, 'the gateway config', this.env);
    const file = this.source.file;
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new ConfigurationError(`Cannot read the gateway config ${file}: ${error.code ?? error.message}.`);
    });
    return parseServersConfig(text, file, this.env, dirname(file));
  }

  private slot(server: ConfiguredServer): UpstreamSlot {
    return new UpstreamSlot(server, this.options, this.timing, {
      changed: () => this.changed(),
      resourceUpdated: (uri) => {
        for (const listener of this.listeners) listener.resourceUpdated?.(uri);
      },
      stateChanged: () => {
        if (!this.closed) for (const listener of this.listeners) listener.resourceUpdated?.(HEALTH_URI);
      },
      log: this.log,
      sessions: this.front
    });
  }

  private changed(): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener.listChanged();
    for (const listener of this.listeners) listener.resourceUpdated?.(HEALTH_URI);
  }

  /**
   * Watches the file's folder (editors replace a file rather than write it in place, which ends a
   * watch on the file itself); an event for the file reloads the set, one reload at a time.
   */
  private watch(file: string): void {
    const name = basename(file);
    this.watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      if (this.reloadAgain) return;
      this.reloadAgain = true;
      void this.reloading.then(() => {
        this.reloadAgain = false;
        return this.reload().catch((error: unknown) =>
          this.log(`the config ${file} was not reloaded (the upstreams stay as they were): ${(error as Error).message}`)
        );
      });
    });
    this.watcher.on('error', (error) => this.log(`watching ${file} stopped: ${error.message}`));
  }
}
