import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import type { Lease } from '../../lib/leaderelection/leaseLock.js';
import { hash32, rendezvousOwner } from '../../lib/sharding/rendezvousHash.js';
import { shardAssignment } from '../../lib/sharding/shardAssignment.js';
import { keysGained } from '../../lib/sharding/shardFilter.js';
import { trackLiveMembers } from '../../lib/sharding/trackLiveMembers.js';

const keys = Array.from({ length: 3000 }, (_, i) => `ns-${i % 7}/object-${i}`);
const lease = (name: string, holder: string, renewTime: string, leaseDurationSeconds = 15): Lease => ({
  metadata: { name },
  spec: { holderIdentity: holder, leaseDurationSeconds, renewTime },
});

describe('rendezvous hashing', () => {
  it('is deterministic and spreads 3,000 keys over 3 members within 10% of a third each', () => {
    const members = ['replica-a', 'replica-b', 'replica-c'];
    const counts = new Map<string, number>();
    for (const k of keys) counts.set(rendezvousOwner(k, members)!, (counts.get(rendezvousOwner(k, members)!) ?? 0) + 1);
    for (const m of members) expect(Math.abs(counts.get(m)! - 1000)).toBeLessThan(100);
    expect(rendezvousOwner('default/x', [...members].reverse())).toBe(rendezvousOwner('default/x', members));
    expect(hash32('default/x')).toBe(hash32('default/x'));
    expect(rendezvousOwner('default/x', [])).toBeUndefined();
  });

  it('when a member leaves only its keys move; when one joins it only takes keys', () => {
    const three = ['a', 'b', 'c'];
    const two = ['a', 'c'];
    const wrongly: string[] = [];
    let moved = 0;
    for (const k of keys) {
      const before = rendezvousOwner(k, three)!;
      const after = rendezvousOwner(k, two)!;
      if (before === 'b') moved++;
      else if (after !== before) wrongly.push(`${k}: ${before} -> ${after} when b left`);
      const joined = rendezvousOwner(k, [...three, 'd'])!;
      if (joined !== 'd' && joined !== before) wrongly.push(`${k}: ${before} -> ${joined} when d joined`);
    }
    expect(wrongly).toEqual([]);
    expect(moved).toBeGreaterThan(900);
  });

  it('an assignment owns a key only when active and a member; exactly one active member owns each key', () => {
    const members = ['a', 'b', 'c'];
    const views = members.map((m) => shardAssignment(m, members, true));
    for (const k of keys.slice(0, 500)) expect(views.filter((v) => v.owns(k)).length).toBe(1);
    expect(keys.some((k) => shardAssignment('a', members, false).owns(k))).toBe(false);
    expect(keys.some((k) => shardAssignment('z', members, true).owns(k))).toBe(false);
  });
});

describe('trackLiveMembers on virtual time', () => {
  it("a member drops out leaseDuration after THIS replica last saw its Lease change, whatever its renewTime says; a release drops it at once", () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ cold, expectObservable }) => {
      const a0 = lease('w-a', 'a', '2000-01-01T00:00:00.000000Z');
      const b0 = lease('w-b', 'b', '2099-01-01T00:00:00.000000Z'); // a clock far ahead: irrelevant
      const a1 = lease('w-a', 'a', '2000-01-01T00:00:02.000000Z');
      const c0 = lease('w-c', 'c', '2000-01-01T00:00:00.000000Z');
      const cReleased = lease('w-c', '', '2000-01-01T00:00:01.000000Z', 1);
      // a renews at 2 s and then stops; b never renews; c joins at 3 s and is released at 4 s.
      const snapshots = cold('s 1999ms t 999ms u 999ms v', { s: [a0, b0], t: [a1, b0], u: [a1, b0, c0], v: [a1, b0, cReleased] });
      expectObservable(snapshots.pipe(trackLiveMembers(ts)), '^ 30s !').toBe('x 2999ms y 999ms z 10999ms w 1999ms e', {
        x: ['a', 'b'],
        y: ['a', 'b', 'c'],
        z: ['a', 'b'],
        w: ['a'], // b: seen at 0, expired at 15 s
        e: [], // a: last change seen at 2 s, expired at 17 s
      });
    });
  });

  it('keysGained emits the keys a replica owns after a change and did not own before', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ cold, expectObservable }) => {
      const ks = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
      const both = shardAssignment('a', ['a', 'b'], true);
      const alone = shardAssignment('a', ['a'], true);
      const gained = ks.filter((k) => !both.owns(k));
      const first = ks.filter((k) => both.owns(k));
      const assignments = cold('x 9ms y', { x: both, y: alone });
      const got: string[][] = [[], []];
      keysGained(assignments, () => ks).subscribe((k) => got[ts.now() < 5 ? 0 : 1]!.push(k));
      expectObservable(assignments).toBe('x 9ms y', { x: both, y: alone });
      ts.flush();
      expect(got).toEqual([first, gained]);
      expect(first.length).toBeGreaterThan(0);
      expect(gained.length).toBeGreaterThan(0);
    });
  });
});
