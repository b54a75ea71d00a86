import type { Client, McpSubscription } from '@modelcontextprotocol/client';

/** The connection a {@link ResourceWatch} asks through: its own requests, whose failures name the upstream. */
export interface WatchRequests {
  request<T>(send: (client: Client) => Promise<T>): Promise<T>;
}

/**
 * The upstream resources one connection watches for updates: a 2025-era upstream is asked
 * through `resources/subscribe`; a 2026-07-28 one through one `subscriptions/listen` stream
 * naming every URI watched (opened again, wider, for each new one, then the narrower one closed).
 */
export class ResourceWatch {
  /** 2026-07-28: the URIs watched, and the listen stream that carries their updates. */
  private readonly watched = new Set<string>();
  private listening: McpSubscription | undefined;

  /** Watches `uri` through `connection`, as its era (`modern`: 2026-07-28) asks. */
  async add(uri: string, modern: boolean, connection: WatchRequests): Promise<void> {
    if (!modern) {
      await connection.request((client) => client.subscribeResource({ uri }));
      return;
    }
    this.watched.add(uri);
    const previous = this.listening;
    this.listening = await connection.request((client) => client.listen({ resourceSubscriptions: [...this.watched] }));
    await previous?.close();
  }

  /** Ends the listen stream, if one is open (its failure is of no use to a connection closing). */
  async close(): Promise<void> {
    await this.listening?.close().catch(() => undefined);
  }
}
