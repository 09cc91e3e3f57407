// The standalone deltaFifo operator's state as data: the pure step and the drain's decisions,
// without a queue, a scheduler or a subscriber.
import { describe, expect, it } from '@jest/globals';
import {
  deltaFifoStep,
  drainEnd,
  initialDeltaFifoState,
  nextDrainAction,
  type DeltaFifoInput,
  type DeltaFifoState,
  type DrainAction,
  type FifoQueueView,
} from '../../lib/fifo/deltaFifoState.js';

const open = { type: 'open' } as const;
const completed = { type: 'completed' } as const;
const failed = { type: 'failed', error: new Error('gone') } as const;
const state = (demand: number, syncedSent = false, source: DeltaFifoState['source'] = open): DeltaFifoState => ({ demand, syncedSent, source });
const queue = (length: number, hasSynced = false): FifoQueueView => ({ length, hasSynced });

describe('initialDeltaFifoState', () => {
  it('allows everything without pull$, nothing with it', () => {
    expect(initialDeltaFifoState(true)).toEqual(state(Infinity));
    expect(initialDeltaFifoState(false)).toEqual(state(0));
  });
});

describe('deltaFifoStep', () => {
  const cases: Array<[string, DeltaFifoState, DeltaFifoInput, DeltaFifoState]> = [
    ['a pull adds demand', state(1), { type: 'pull', n: 2 }, state(3)],
    ['a pull of Infinity lets everything through', state(1), { type: 'pull', n: Infinity }, state(Infinity)],
    ['a pop spends one', state(2), { type: 'popped' }, state(1)],
    ['a pop under Infinity leaves Infinity', state(Infinity), { type: 'popped' }, state(Infinity)],
    ['the marker is sent once', state(0), { type: 'syncedSent' }, state(0, true)],
    ['the source completes', state(0), { type: 'sourceEnded', source: completed }, state(0, false, completed)],
    ['the source fails', state(5, true), { type: 'sourceEnded', source: failed }, state(5, true, failed)],
  ];
  it.each(cases)('%s', (_name, before, input, after) => {
    expect(deltaFifoStep(before, input)).toEqual(after);
  });

  it.each([0, -1, NaN])('a pull of %p changes nothing (the same state comes back)', (n) => {
    const s = state(1);
    expect(deltaFifoStep(s, { type: 'pull', n })).toBe(s);
  });

  it('a source ends once: a later end changes nothing', () => {
    const ended = deltaFifoStep(state(0), { type: 'sourceEnded', source: failed });
    expect(deltaFifoStep(ended, { type: 'sourceEnded', source: completed })).toBe(ended);
  });

  it('never changes the state it is given', () => {
    const s = Object.freeze(state(2));
    expect(() => deltaFifoStep(s, { type: 'popped' })).not.toThrow();
    expect(s.demand).toBe(2);
  });
});

describe('nextDrainAction', () => {
  const cases: Array<[string, DeltaFifoState, FifoQueueView, DrainAction]> = [
    ['the marker first, without demand', state(0), queue(3, true), 'synced'],
    ['the marker before a pop', state(5), queue(3, true), 'synced'],
    ['a pop when allowed and queued', state(1, true), queue(3, true), 'pop'],
    ['no demand: stop', state(0, true), queue(3, true), 'stop'],
    ['nothing queued: stop', state(Infinity, true), queue(0, true), 'stop'],
    ['not synced yet: pops go on without the marker', state(Infinity), queue(2), 'pop'],
  ];
  it.each(cases)('%s', (_name, s, q, action) => {
    expect(nextDrainAction(s, q)).toBe(action);
  });
});

describe('drainEnd', () => {
  it('a failed source fails the stream whatever is queued', () => {
    expect(drainEnd(state(0, true, failed), queue(4))).toEqual({ error: failed.error });
  });
  it('a completed source completes it once nothing is queued', () => {
    expect(drainEnd(state(0, true, completed), queue(0))).toBe('complete');
    expect(drainEnd(state(0, true, completed), queue(1))).toBe('open');
  });
  it('an open source keeps it open', () => {
    expect(drainEnd(state(Infinity, true), queue(0))).toBe('open');
  });
});
