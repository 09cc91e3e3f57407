import { rendezvousOwner } from './rendezvousHash.js';

/**
 * Which keys one replica owns, at one moment: the live members (as this replica sees them) and
 * whether this replica is itself an active member. It owns a key when it is active and rendezvous
 * hashing over the members picks it; an inactive replica (not yet joined, cut off, stopping) owns
 * nothing.
 *
 * @example
 * ```ts
 * const a: ShardAssignment = shardAssignment('replica-a', ['replica-a', 'replica-b'], true);
 * a.owns('default/web'); // true on exactly one of the two replicas
 * ```
 */
export interface ShardAssignment {
  readonly self: string;
  readonly members: ReadonlyArray<string>;
  readonly active: boolean;
  owns(key: string): boolean;
  /** The member rendezvous hashing gives `key` to, `undefined` with no members. */
  ownerOf(key: string): string | undefined;
}

/**
 * Builds a {@link ShardAssignment}.
 *
 * @example
 * ```ts
 * const none = shardAssignment('replica-a', [], false); // owns nothing
 * ```
 */
export function shardAssignment(self: string, members: ReadonlyArray<string>, active: boolean): ShardAssignment {
  const mine = active && members.includes(self);
  return {
    self,
    members,
    active: mine,
    owns: (key) => mine && rendezvousOwner(key, members) === self,
    ownerOf: (key) => rendezvousOwner(key, members),
  };
}
