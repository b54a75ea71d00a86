import type { ServerEventBus, ServerNotifier } from '@modelcontextprotocol/server';
import type { LiveServers } from '../transports/live-servers';

/** The app's lists a change of tool classes can change. */
export type Surface = 'tools' | 'resources' | 'prompts';

/**
 * Tells connected clients of changes: 2025-era connections (stdio, sessions) and 2026-era
 * listen streams of every HTTP endpoint. With a shared bus (several instances), a change goes
 * out once on the bus and comes back to every instance, this one included.
 */
export class ChangeNotifier {
  /** The notifiers of this app's HTTP endpoints (their listen streams). */
  readonly endpoints = new Set<ServerNotifier>();
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly live: LiveServers,
    private readonly bus: ServerEventBus | undefined
  ) {
    // A shared bus: its events reach this instance's long-lived connections (listen streams subscribe to it themselves).
    this.unsubscribe = bus?.subscribe((event) => {
      if (event.kind === 'resource_updated') this.live.resourceUpdated(event.uri);
      else
        this.live.listChanged(
          event.kind === 'tools_list_changed' ? 'tools' : event.kind === 'resources_list_changed' ? 'resources' : 'prompts'
        );
    });
  }

  /** `notifications/resources/updated` to whoever subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    if (this.bus) return this.bus.publish({ kind: 'resource_updated', uri });
    this.live.resourceUpdated(uri);
    for (const notify of this.endpoints) notify.resourceUpdated(uri);
  }

  /** `notifications/{surface}/list_changed` to every connection. */
  listChanged(surface: Surface): void {
    if (this.bus) return this.bus.publish({ kind: `${surface}_list_changed` });
    this.live.listChanged(surface);
    for (const notify of this.endpoints) {
      if (surface === 'tools') notify.toolsChanged();
      else if (surface === 'resources') notify.resourcesChanged();
      else notify.promptsChanged();
    }
  }

  close(): void {
    this.unsubscribe?.();
  }
}
