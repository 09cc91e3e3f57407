import type { RunHelpers } from 'rxjs/testing';
import { TestScheduler } from 'rxjs/testing';
import { expect } from '@jest/globals';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { reflector, type ReflectorOptions } from '../../lib/reflector/reflector.js';
import type { ReflectorError } from '../../lib/reflector/reflectorError.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';

export interface Recorded<T> {
  events: Array<{ at: number; event: ReflectorEvent<T> }>;
  statuses: Array<{ at: number; status: ReflectorStatus }>;
  errors: Array<{ at: number; error: ReflectorError }>;
  resourceVersions: string[];
}

/**
 * Runs a reflector on virtual time (TestScheduler.run) until `until` ms, then unsubscribes, and
 * returns what it emitted, with times. `random` defaults to 0: no jitter, timeoutSeconds = 300.
 */
export function runOnVirtualTime<T extends KubeObject, LW extends ListWatch<T>>(
  setup: (helpers: RunHelpers, scheduler: TestScheduler) => LW,
  until: number,
  options: ReflectorOptions = {},
): Recorded<T> & { lw: LW } {
  const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  const rec: Recorded<T> = { events: [], statuses: [], errors: [], resourceVersions: [] };
  let lw: LW | undefined;
  scheduler.run((helpers) => {
    lw = setup(helpers, scheduler);
    const r = reflector<T>(lw, {
      scheduler,
      random: () => 0,
      ...options,
    });
    const subs = [
      r.status$.subscribe((status) => rec.statuses.push({ at: scheduler.now(), status })),
      r.errors$.subscribe((error) => rec.errors.push({ at: scheduler.now(), error })),
      r.resourceVersion$.subscribe((rv) => rec.resourceVersions.push(rv)),
    ];
    const events = r.events$.subscribe((event) => rec.events.push({ at: scheduler.now(), event }));
    // events$ first, so that the final `idle` status is recorded
    subs.unshift(events);
    scheduler.schedule(() => subs.forEach((s) => s.unsubscribe()), until);
  });
  return { ...rec, lw: lw! };
}
