import type { DurableObjectStorageLike } from './cloudflare-types';
import type { StateRequest } from './state-request';

/** An exactly-once round as stored: its fingerprint, where it is, the attempt that holds it and until when, its outcome. */
interface StoredRound {
  f: string;
  s: 'running' | 'free' | 'done';
  /** running: the owner token of the attempt that holds it. */
  w?: string;
  /** running: when its lease lapses (the object's clock, epoch ms). */
  l?: number;
  /** done: the outcome, as JSON text. */
  o?: string;
  /** When the round is forgotten (the life of its state). */
  exp: number;
}

/** A task as stored: the record as JSON text (compared byte for byte by `task.cas`), and when it expires. */
interface StoredTask {
  r: string;
  exp: number;
}

/** What `claim` answers: run it, refused (another round used the state), another attempt runs it, or its outcome. */
export type StoredClaim = { kind: 'run' } | { kind: 'refused' } | { kind: 'running' } | { kind: 'done'; outcome: string };

/** Expired entries are pruned by an alarm at most this often (reads ignore them before that anyway). */
const PRUNE_EVERY_MS = 60_000;
/** Keys read or written per storage call (the runtime's limit for a batch). */
const BATCH = 128;

const USED = 'used:';
const ROUND = 'round:';
const TASK = 'task:';
const LIVE = 'live:';

/**
 * The operations of the state object on its storage, one at a time (the object serializes
 * them: see `FusionStateObject`), so each read-then-write is a compare-and-set no other request
 * can come between. Times are the object's own clock (`now`), one clock for every isolate that
 * talks to it, so leases need no synchronized clocks. Entries expire: a read treats an expired
 * entry as absent, and an alarm deletes them.
 */
export class StateOperations {
  constructor(
    private readonly storage: DurableObjectStorageLike,
    private readonly now: () => number = Date.now
  ) {}

  /** Applies one request; the JSON-serializable answer. */
  async apply(request: StateRequest): Promise<unknown> {
    switch (request.op) {
      case 'consume':
        return this.consume(request.id, request.ttlMs);
      case 'claim':
        return this.claim(request);
      case 'record':
        return this.updateRound(request.id, request.owner, (round) => ({ f: round.f, s: 'done', o: request.outcome, exp: round.exp }));
      case 'release':
        return this.updateRound(request.id, request.owner, (round) => ({ f: round.f, s: 'free', exp: round.exp }));
      case 'renew':
        return this.updateRound(request.id, request.owner, (round) => ({ ...round, l: this.now() + request.leaseMs }));
      case 'task.create':
        return this.createTask(request.taskId, request.record, request.expiresAt, request.live);
      case 'task.get':
        return (await this.task(request.taskId))?.r ?? null;
      case 'task.cas':
        return this.compareAndSet(request.taskId, request.expected, request.next, request.live);
      case 'task.sweep':
        return this.sweep(request.now);
      case 'task.live':
        return this.live();
      case 'task.count':
        return (await this.live()).length;
    }
  }

  /** The alarm: deletes what expired, and sets the next alarm for what is left. */
  async prune(): Promise<void> {
    const now = this.now();
    let next = Infinity;
    const expired: string[] = [];
    for (const prefix of [USED, ROUND, TASK]) {
      for await (const [key, value] of this.entries<{ exp: number }>(prefix)) {
        if (value.exp <= now) {
          expired.push(key);
          if (prefix === TASK) expired.push(LIVE + key.slice(TASK.length));
        } else next = Math.min(next, value.exp);
      }
    }
    for (let at = 0; at < expired.length; at += BATCH) await this.storage.delete(expired.slice(at, at + BATCH));
    if (next !== Infinity) await this.storage.setAlarm(Math.max(next, now + PRUNE_EVERY_MS));
  }

  private async consume(id: string, ttlMs: number): Promise<boolean> {
    const key = USED + id;
    const used = await this.storage.get<{ exp: number }>(key);
    if (used && used.exp > this.now()) return false;
    await this.put(key, { exp: this.now() + ttlMs });
    return true;
  }

  /**
   * Claims a round: `run` (no record, one given back with this fingerprint, or one whose running
   * attempt's lease lapsed: this attempt now holds it), `refused` (another fingerprint), `running`
   * (another attempt holds it; ask again), or its outcome.
   */
  private async claim(request: Extract<StateRequest, { op: 'claim' }>): Promise<StoredClaim> {
    const key = ROUND + request.id;
    const now = this.now();
    const round = await this.round(request.id);
    const running = (exp: number): StoredRound => ({
      f: request.fingerprint,
      s: 'running',
      w: request.owner,
      l: now + request.leaseMs,
      exp
    });
    if (!round) {
      await this.put(key, running(now + request.ttlMs));
      return { kind: 'run' };
    }
    if (round.f !== request.fingerprint) return { kind: 'refused' };
    if (round.s === 'done') return { kind: 'done', outcome: round.o ?? 'null' };
    if (round.s === 'free' || (round.l ?? 0) < now) {
      await this.put(key, running(round.exp));
      return { kind: 'run' };
    }
    return { kind: 'running' };
  }

  /** Changes a running round held by `owner` (record, release, renew); false when it is not (any more) its to change. */
  private async updateRound(id: string, owner: string, change: (round: StoredRound) => StoredRound): Promise<boolean> {
    const round = await this.round(id);
    if (!round || round.s !== 'running' || round.w !== owner) return false;
    await this.put(ROUND + id, change(round));
    return true;
  }

  private async round(id: string): Promise<StoredRound | undefined> {
    const round = await this.storage.get<StoredRound>(ROUND + id);
    return round && round.exp > this.now() ? round : undefined;
  }

  private async task(taskId: string): Promise<StoredTask | undefined> {
    const task = await this.storage.get<StoredTask>(TASK + taskId);
    return task && task.exp > this.now() ? task : undefined;
  }

  private async createTask(taskId: string, record: string, expiresAt: number, live: boolean): Promise<null> {
    const task: StoredTask = { r: record, exp: expiresAt };
    await this.put(TASK + taskId, task);
    if (live) await this.storage.put(LIVE + taskId, true);
    return null;
  }

  /** Writes `next` only if the record is still `expected` (byte for byte), and keeps the live set in step. */
  private async compareAndSet(taskId: string, expected: string, next: string, live: boolean): Promise<boolean> {
    const task = await this.task(taskId);
    if (!task || task.r !== expected) return false;
    await this.storage.put(TASK + taskId, { r: next, exp: task.exp });
    if (live) await this.storage.put(LIVE + taskId, true);
    else await this.storage.delete(LIVE + taskId);
    return true;
  }

  /** Deletes the tasks whose TTL is over at `now` (and any live mark without a record); the ids removed. */
  private async sweep(now: number): Promise<string[]> {
    const removed: string[] = [];
    const ids = [...(await this.storage.list<true>({ prefix: LIVE })).keys()].map((key) => key.slice(LIVE.length));
    for (let at = 0; at < ids.length; at += BATCH) {
      const batch = ids.slice(at, at + BATCH);
      const tasks = await this.storage.get<StoredTask>(batch.map((taskId) => TASK + taskId));
      for (const taskId of batch) {
        const task = tasks.get(TASK + taskId);
        if (!task || task.exp <= Math.max(now, this.now())) {
          await this.storage.delete([TASK + taskId, LIVE + taskId]);
          removed.push(taskId);
        }
      }
    }
    return removed;
  }

  /** The records (JSON text) of the tasks marked live, skipping expired ones. */
  private async live(): Promise<string[]> {
    const now = this.now();
    const ids = [...(await this.storage.list<true>({ prefix: LIVE })).keys()];
    const records: string[] = [];
    for (let at = 0; at < ids.length; at += BATCH) {
      const tasks = await this.storage.get<StoredTask>(ids.slice(at, at + BATCH).map((key) => TASK + key.slice(LIVE.length)));
      for (const task of tasks.values()) if (task.exp > now) records.push(task.r);
    }
    return records;
  }

  /** Writes an entry that expires, making sure an alarm will prune it. */
  private async put(key: string, value: { readonly exp: number }): Promise<void> {
    await this.storage.put(key, value);
    const alarm = await this.storage.getAlarm();
    const wanted = Math.max(value.exp, this.now() + PRUNE_EVERY_MS);
    if (alarm === null || alarm > wanted + PRUNE_EVERY_MS) await this.storage.setAlarm(wanted);
  }

  /** Every entry under `prefix`, read a page at a time. */
  private async *entries<T>(prefix: string): AsyncGenerator<[string, T]> {
    let start: string | undefined;
    for (;;) {
      const page = await this.storage.list<T>({ prefix, limit: 1000, ...(start !== undefined ? { start } : {}) });
      for (const [key, value] of page) if (key !== start) yield [key, value];
      if (page.size < 1000) return;
      start = [...page.keys()].pop();
    }
  }
}
