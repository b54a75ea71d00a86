import type { ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import { UnknownResourceError } from '../errors';
import type { ServerHooks } from './gateway-connections';
import { namespacedUri, upstreamUri } from './namespace';
import { allPages } from './pages';
import type { UpstreamConnection } from './upstream-connection';

/** What {@link ProxiedResources} needs of its gateway. */
export interface ResourcesHost {
  readonly namespace: string | undefined;
  readonly label: string;
  readonly log: (message: string) => void;
  readonly hooks: ServerHooks;
  /** The connection a front session's request goes through (see `GatewayConnections.connectionFor`). */
  connectionFor(sessionId: string | undefined): Promise<UpstreamConnection>;
  /** The shared connection (see `GatewayConnections.shared`). */
  shared(): Promise<UpstreamConnection>;
}

/**
 * A gateway's upstream resources as the front sees them: read and listed under the gateway's
 * namespace, and subscribed upstream once read, so that their updates reach the front clients
 * that subscribed to them. It remembers what it subscribed to until the shared connection closes.
 */
export class ProxiedResources {
  /** Upstream URIs the gateway subscribed to (after a read), so their updates reach the front's subscribers. */
  private readonly subscribed = new Set<string>();

  /** Made by the gateway. */
  constructor(private readonly host: ResourcesHost) {}

  /** The shared connection closed: its subscriptions went with it (a read subscribes again). */
  forgetSubscriptions(): void {
    this.subscribed.clear();
  }

  /** Reads an upstream resource (`uri` under the namespace); the contents' URIs are namespaced back. */
  async read(uri: string, signal: AbortSignal, sessionId?: string): Promise<ReadResourceResult> {
    const { namespace } = this.host;
    const upstream = upstreamUri(namespace, uri) ?? uri;
    const connection = await this.host.connectionFor(sessionId);
    const result = await connection
      .request((client) => client.readResource({ uri: upstream }, { signal }))
      .catch((error: unknown) => {
        // The upstream's "not found" (-32602 on 2026-07-28, -32002 before) stays a not-found for the front client, in its era's form.
        const code = ((error as { cause?: { code?: unknown } }).cause ?? {}).code;
        throw code === -32602 || code === -32002 ? new UnknownResourceError(uri) : error;
      });
    // Subscribed once it is read (awaited, the first time only): its updates then reach the front clients that subscribed to it.
    if (connection.capabilities.subscribe && !this.subscribed.has(upstream)) {
      this.subscribed.add(upstream);
      await connection.watchResource(upstream).catch(() => this.subscribed.delete(upstream));
    }
    const contents = result.contents.map((content) => ({ ...content, uri: namespacedUri(namespace, content.uri) }));
    return { ...result, contents } as ReadResourceResult;
  }

  /**
   * The upstream's resources (all pages), their URIs namespaced. In a set (`proxyServers`), an
   * upstream that is down or fails to list adds none: the others' resources are still listed.
   */
  async list(): Promise<Resource[]> {
    const { hooks } = this.host;
    if (!hooks.refuse) return this.upstreamResources();
    if (hooks.refuse()) return [];
    return this.upstreamResources().catch((error: unknown) => {
      this.host.log(`${this.host.label}: resources/list failed, listed without its resources: ${(error as Error).message}`);
      return [];
    });
  }

  private async upstreamResources(): Promise<Resource[]> {
    const connection = await this.host.shared();
    const resources = await connection.request((client) =>
      allPages(
        (cursor) => client.listResources(cursor),
        (page) => page.resources
      )
    );
    return resources.map((resource) => ({ ...resource, uri: namespacedUri(this.host.namespace, resource.uri) }));
  }
}
