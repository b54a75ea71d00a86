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
 * `maxPerOwner` tasks of one owner that owner's oldest is forgotten, past `max` in all the oldest
 * (its upstream task runs on; the front can no longer reach it), so one caller's flood does not
 * push out the others' tasks before it has pushed out its own.
 */
export class ForwardedTaskTable {
  private readonly tasks = new Map<string, ForwardedTask>();

  private readonly countOf = new Map<string, number>();

  constructor(
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
    private readonly maxPerOwner = 1_000
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
    if ((this.countOf.get(owner) ?? 0) >= this.maxPerOwner) {
      for (const [id, task] of this.tasks) {
        if (task.owner !== owner) continue;
        this.forget(id, task);
        break;
      }
    }
    const id = randomUUID();
    this.tasks.set(id, { upstreamId, owner, expiresAt: now + kept });
    this.countOf.set(owner, (this.countOf.get(owner) ?? 0) + 1);
    return id;
  }

  /** The task `frontId` names for `owner`, or undefined (unknown, another's, or past its time). */
  find(frontId: string, owner: string): ForwardedTask | undefined {
    const task = this.tasks.get(frontId);
    if (!task) return undefined;
    if (task.expiresAt <= this.now()) {
      this.forget(frontId, task);
      return undefined;
    }
    return task.owner === owner ? task : undefined;
  }

  /** Forgets the tasks past their time, and the oldest beyond the bound (a Map iterates in insertion order). */
  private sweep(now: number): void {
    for (const [id, task] of this.tasks) if (task.expiresAt <= now) this.forget(id, task);
    for (const [id, task] of this.tasks) {
      if (this.tasks.size < this.max) break;
      this.forget(id, task);
    }
  }

  private forget(id: string, task: ForwardedTask): void {
    this.tasks.delete(id);
    const left = (this.countOf.get(task.owner) ?? 1) - 1;
    if (left === 0) this.countOf.delete(task.owner);
    else this.countOf.set(task.owner, left);
  }
}
