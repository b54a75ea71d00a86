import type { Mount } from '../compose/mount';
import { namespacedUri } from '../compose/namespace';
import { memberSourceOf, type Gateway } from '../metadata/member-source';
import type { FrontSessions } from '../types/front-sessions';

/** What the relay needs of its app. */
export interface RelayTarget {
  /** Rebuilds the app's lists from its tool classes as they are now; throws (the app unchanged) when it cannot take them. */
  rebuild(): void;
  /** Tells the app's own subscribers that `uri` changed. */
  resourceUpdated(uri: string): void;
  /** The app's logger. */
  log(message: string): void;
  /** The app's front sessions, which its gateways reach outside a request. */
  readonly sessions?: FrontSessions;
}

/**
 * The changes an app hears of from other apps and passes on to them. It follows the apps mounted
 * into it (their tool classes and resource updates) and its gateways (their upstream's members and
 * resource updates), rebuilding the app's lists or telling its subscribers; and it tells the apps
 * this one is mounted into of this app's own changes. Wired once, when the app is created; `close`
 * ends the following (what arrives after it is dropped).
 */
export class ChangeRelay {
  /** Who hears of this app's tool class changes (the apps it is mounted into). */
  private readonly toolListeners = new Set<() => void>();
  /** Who hears of this app's resource updates (the apps it is mounted into). */
  private readonly resourceListeners = new Set<(uri: string) => void>();
  /** Ends the subscriptions to the mounted apps and the gateways. */
  private readonly unfollow: (() => void)[] = [];
  private closed = false;

  constructor(
    mounts: readonly Mount[],
    gateways: readonly Gateway[],
    private readonly target: RelayTarget
  ) {
    this.follow(mounts, gateways);
  }

  /**
   * Follows these mounted apps and gateways instead of those followed until now (a reload's new
   * definition); who listens to this app's own changes keeps listening.
   */
  follow(mounts: readonly Mount[], gateways: readonly Gateway[]): void {
    if (this.closed) return;
    for (const unfollow of this.unfollow.splice(0)) unfollow();
    const target = this.target;
    for (const m of mounts) {
      if (!m.app) continue;
      // A mounted app's change of tool classes is a change of this app's lists too.
      this.unfollow.push(
        m.app.onToolsChanged(() =>
          this.rebuild(target, (message) => `the app mounted under ${m.namespace} changed its tools, which this app refused: ${message}`)
        )
      );
      // Its resource updates reach this app's subscribers under the mount's namespace.
      this.unfollow.push(
        m.app.onResourceUpdated((uri) => {
          if (!this.closed) target.resourceUpdated(namespacedUri(m.namespace, uri));
        })
      );
    }
    // A gateway's members change with its upstream: the lists are rebuilt and clients told, as for `addTools`.
    for (const gateway of gateways)
      this.unfollow.push(
        memberSourceOf(gateway).subscribe({
          listChanged: () =>
            this.rebuild(target, (message) => `${gateway.label}: its new members were refused, the previous ones stay: ${message}`),
          resourceUpdated: (uri) => {
            if (!this.closed) target.resourceUpdated(uri);
          },
          ...(target.sessions ? { sessions: target.sessions } : {})
        })
      );
  }

  /** Calls `listener` after each change of this app's tool classes; returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /** Calls `listener` with each URI this app is told changed; returns the unsubscribe. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** This app's tool classes changed: the apps it is mounted into follow. */
  announceToolsChanged(): void {
    for (const listener of this.toolListeners) listener();
  }

  /** This app was told `uri` changed: the apps it is mounted into forward it. */
  announceResourceUpdated(uri: string): void {
    for (const listener of this.resourceListeners) listener(uri);
  }

  /** Stops following the mounted apps and the gateways. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const unfollow of this.unfollow) unfollow();
  }

  /** Rebuilds after a change elsewhere; one this app cannot take (a clash) is logged, the app unchanged. */
  private rebuild(target: RelayTarget, refused: (message: string) => string): void {
    if (this.closed) return;
    try {
      target.rebuild();
    } catch (error) {
      target.log(refused(error instanceof Error ? error.message : String(error)));
    }
  }
}
