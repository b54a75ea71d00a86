import type { MemberHome } from '../pipeline/member-spec';

/**
 * Where each mounted member lives (its mount's container and contextFactory), by its descriptor:
 * `namespacedRegistry` makes a descriptor of its own for every mounted member and records its
 * home here; the compile paths read it. Kept beside the descriptors rather than in them, so the
 * public `ToolDescriptor` does not change.
 */
const homes = new WeakMap<object, MemberHome>();

/** Records that `descriptor` (a mounted member's own copy) lives in `home`; returns the descriptor. */
export function withHome<T extends object>(descriptor: T, home: MemberHome | undefined): T {
  if (home) homes.set(descriptor, home);
  return descriptor;
}

/** Where a member lives, when it is a mounted one. */
export function homeOf(descriptor: object): MemberHome | undefined {
  return homes.get(descriptor);
}
