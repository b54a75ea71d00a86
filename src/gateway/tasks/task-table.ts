import { randomUUID } from 'node:crypto';

/** One upstream task as the front knows it. */
export interface ForwardedTask {
  /** The id the upstream gave it (sent upstream only; the front client never sees it). */
  readonly upstreamId: string;
  /** Who created it (the front's owner key: principal, session or anonymous). */
  readonly owner: string;
  /** When the front forgets it (the upstream's `ttlMs` from its creation, bounded). */
  readonly expiresAt: number;
}

/** How long a task the upstream gave no usable `ttlMs` (null: unlimited) is kept at the front. */
const DEFAULT_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The upstream tasks of one gateway, by front id: each front id is random (a UUID, never the
 * upstream's id, which the upstream may make guessable and which all front callers share through
 * one upstream caller, the gateway), bound to the front caller that created the task. A lookup
 * with another owner, an unknown id, or an id past its time finds nothing, all alike. Bounded: past
 * `max` tasks the oldest is forgotten (its upstream task runs on; the front can no longer reach it).
 */
export class ForwardedTaskTable {
  private readonly tasks = new Map<string, ForwardedTask>();

  constructor(
    private readonly max = 10_000,
    private readonly now: () => number = Date.now
  ) {}

  /** Tasks known now. */
  get size(): number {
    return this.tasks.size;
  }

  /** Records an upstream task for `owner`; returns its front id. `ttlMs` (untrusted): the upstream's. */
  add(upstreamId: string, owner: string, ttlMs: unknown): string {
    const now = this.now();
    this.sweep(now);
    const kept = typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? Math.min(ttlMs, DEFAULT_KEPT_MS * 7) : DEFAULT_KEPT_MS;
    const id = randomUUID();
    this.tasks.set(id, { upstreamId, owner, expiresAt: now + kept });
    return id;
  }

  /** The task `frontId` names for `owner`, or undefined (unknown, another's, or past its time). */
  find(frontId: string, owner: string): ForwardedTask | undefined {
    const task = this.tasks.get(frontId);
    if (!task) return undefined;
    if (task.expiresAt <= this.now()) {
      this.tasks.delete(frontId);
      return undefined;
    }
    return task.owner === owner ? task : undefined;
  }

  /** Forgets the tasks past their time, and the oldest beyond the bound (a Map iterates in insertion order). */
  private sweep(now: number): void {
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.tasks.delete(id);
    for (const id of this.tasks.keys()) {
      if (this.tasks.size < this.max) break;
      this.tasks.delete(id);
    }
  }
}
