import { ForwardedTaskTable } from '../../../src/gateway/tasks/task-table';

/** The front ids of a gateway's upstream tasks: random, bound to their creator, kept for the upstream's TTL, bounded. */
describe('ForwardedTaskTable', () => {
  it('gives each task a random front id of its own, never the upstream id, found only for its owner', () => {
    const table = new ForwardedTaskTable();
    const first = table.add('1', 'principal:alice', 60_000);
    const second = table.add('1', 'principal:alice', 60_000);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);
    expect(table.find(first, 'principal:alice')).toMatchObject({ upstreamId: '1', owner: 'principal:alice' });
    expect(table.find(first, 'principal:bob')).toBeUndefined();
    expect(table.find(first, 'anonymous')).toBeUndefined();
    expect(table.find('1', 'principal:alice')).toBeUndefined();
    expect(table.find('__proto__', 'principal:alice')).toBeUndefined();
  });

  it('forgets a task once the upstream TTL has passed; one without a usable TTL is kept a day', () => {
    let now = 1_000;
    const table = new ForwardedTaskTable(100, () => now);
    const short = table.add('a', 'anonymous', 5_000);
    const unlimited = table.add('b', 'anonymous', null);
    const garbage = table.add('c', 'anonymous', 'soon');
    now += 4_999;
    expect(table.find(short, 'anonymous')).toBeDefined();
    now += 1;
    expect(table.find(short, 'anonymous')).toBeUndefined();
    now += 24 * 60 * 60 * 1000 - 5_001;
    expect(table.find(unlimited, 'anonymous')).toBeDefined();
    expect(table.find(garbage, 'anonymous')).toBeDefined();
    now += 1;
    expect(table.find(unlimited, 'anonymous')).toBeUndefined();
  });

  it('holds at most its bound: past it the oldest task is forgotten', () => {
    const table = new ForwardedTaskTable(3);
    const ids = ['a', 'b', 'c', 'd'].map((upstream) => table.add(upstream, 'anonymous', 60_000));
    expect(table.size).toBe(3);
    expect(table.find(ids[0]!, 'anonymous')).toBeUndefined();
    expect(ids.slice(1).map((id) => table.find(id, 'anonymous')?.upstreamId)).toEqual(['b', 'c', 'd']);
  });

  it('bounds one owner before the others: its own oldest task goes first', () => {
    const table = new ForwardedTaskTable(100, Date.now, 2);
    const bobs = table.add('b', 'principal:bob', 60_000);
    const flood = ['1', '2', '3', '4'].map((upstream) => table.add(upstream, 'principal:mallory', 60_000));
    expect(table.size).toBe(3);
    expect(table.find(bobs, 'principal:bob')?.upstreamId).toBe('b');
    expect(flood.map((id) => table.find(id, 'principal:mallory')?.upstreamId)).toEqual([undefined, undefined, '3', '4']);
  });
});
