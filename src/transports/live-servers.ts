import type { Server } from '@modelcontextprotocol/server';
import type { Era } from '../types/core';

/** A connected server instance that outlives one request (a 2025-era session, a stdio connection). */
interface LiveServer {
  readonly server: Server;
  readonly era: Era;
  readonly subscriptions: Set<string>;
}

/**
 * The app's long-lived server instances, so the app can push change notifications to them:
 * `notifications/resources/updated` to the ones subscribed to a URI (2025-era), and
 * `list_changed` to all. Per-request 2026-era HTTP instances are not kept; their
 * notifications go through the HTTP handler's notifier.
 */
export class LiveServers {
  private readonly servers = new Set<LiveServer>();

  add(server: Server, era: Era): Set<string> {
    const live: LiveServer = { server, era, subscriptions: new Set() };
    this.servers.add(live);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(live);
      previous?.();
    };
    return live.subscriptions;
  }

  get size(): number {
    return this.servers.size;
  }

  /** Sends `notifications/resources/updated` where it is wanted: subscribed 2025-era instances, and 2026-era stdio (it filters itself). */
  resourceUpdated(uri: string): void {
    for (const live of this.servers) {
      if (live.era === 'modern' || live.subscriptions.has(uri)) void live.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }

  /** Sends the list-changed notification of a surface to every live instance. */
  listChanged(surface: 'tools' | 'resources' | 'prompts'): void {
    for (const { server } of this.servers) {
      const send =
        surface === 'tools'
          ? server.sendToolListChanged()
          : surface === 'resources'
            ? server.sendResourceListChanged()
            : server.sendPromptListChanged();
      void Promise.resolve(send).catch(() => undefined);
    }
  }
}
