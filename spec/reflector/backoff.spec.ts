import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { exponentialBackoff } from '../../lib/reflector/backoff.js';
import {
  listOptionsFor,
  relistResourceVersion,
  rewatchResourceVersion,
} from '../../lib/reflector/relistResourceVersion.js';
import {
  isConnectionRefused,
  isExpiredError,
  isTooLargeResourceVersionError,
  isWatchErrorRetriable,
} from '../../lib/reflector/errorClassification.js';
import { apiError } from './scriptedListWatch.js';

const newScheduler = () => new TestScheduler((a, e) => expect(a).toEqual(e));

describe('exponentialBackoff (R7)', () => {
  it('R7: 800 ms, x2, capped at 30 s, with no jitter when random() is 0', () => {
    const s = newScheduler();
    const b = exponentialBackoff({}, s, () => 0);
    expect(Array.from({ length: 9 }, () => b.next())).toEqual([
      800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000,
    ]);
  });

  it('R7: jitter 1.0 puts each step in [d, 2d): random() = 0.999 gives just under double', () => {
    const s = newScheduler();
    const b = exponentialBackoff({}, s, () => 0.999);
    const steps = Array.from({ length: 8 }, () => b.next());
    const bases = [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000];
    steps.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(bases[i]);
      expect(d).toBeLessThan(2 * bases[i]);
    });
  });

  it('R7: resets to 800 ms when a step is asked for more than 2 min after the previous one (virtual time)', () => {
    const s = newScheduler();
    const delays: number[] = [];
    s.run(() => {
      const b = exponentialBackoff({}, s, () => 0);
      s.schedule(() => delays.push(b.next()), 0);
      s.schedule(() => delays.push(b.next()), 1_000);
      s.schedule(() => delays.push(b.next()), 121_000); // 2 min exactly: no reset
      s.schedule(() => delays.push(b.next()), 241_001); // 2 min + 1 ms: reset
      s.schedule(() => delays.push(b.next()), 242_000);
    });
    expect(delays).toEqual([800, 1600, 3200, 800, 1600]);
  });

  it('takes its settings from options', () => {
    const b = exponentialBackoff(
      { initialMs: 10, factor: 3, capMs: 100, jitter: 0 },
      newScheduler(),
      () => 0.7,
    );
    expect(Array.from({ length: 5 }, () => b.next())).toEqual([10, 30, 90, 100, 100]);
  });
});

describe('relist resource version choice (R3)', () => {
  const state = (lastSyncResourceVersion: string, unavailable = false, paginatedResult = false) => ({
    lastSyncResourceVersion,
    unavailable,
    paginatedResult,
  });

  it('R3: "0" first, then the last RV seen, "" after an unavailable RV', () => {
    expect(relistResourceVersion(state(''))).toBe('0');
    expect(relistResourceVersion(state('10'))).toBe('10');
    expect(relistResourceVersion(state('10', true))).toBe('');
    expect(rewatchResourceVersion(state(''))).toBe('');
    expect(rewatchResourceVersion(state('10'))).toBe('10');
    expect(rewatchResourceVersion(state('10', true))).toBe('');
  });

  it('R2: pages by 500 at "" and "0"; no limit at a specific RV unless paginated or a page size is set', () => {
    expect(listOptionsFor('0', undefined, state(''))).toEqual({ resourceVersion: '0', limit: 500 });
    expect(listOptionsFor('', undefined, state('10', true))).toEqual({ resourceVersion: '', limit: 500 });
    expect(listOptionsFor('10', undefined, state('10'))).toEqual({ resourceVersion: '10' });
    expect(listOptionsFor('10', undefined, state('10', false, true))).toEqual({
      resourceVersion: '10',
      limit: 500,
    });
    expect(listOptionsFor('10', 50, state('10'))).toEqual({ resourceVersion: '10', limit: 50 });
  });
});

describe('error classification', () => {
  it('R4: 410 with reason Expired or Gone (or none) is expired', () => {
    expect(isExpiredError(apiError(410, 'Expired'))).toBe(true);
    expect(isExpiredError(apiError(410, 'Gone'))).toBe(true);
    expect(isExpiredError(apiError(410, ''))).toBe(true);
    expect(isExpiredError(apiError(500, 'InternalError'))).toBe(false);
    expect(isExpiredError(new Error('410'))).toBe(false);
  });

  it('R3: "too large resource version" in its three server formats', () => {
    expect(
      isTooLargeResourceVersionError(
        apiError(504, 'Timeout', 1, { details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } }),
      ),
    ).toBe(true);
    expect(
      isTooLargeResourceVersionError(
        apiError(429, 'TooManyRequests', 1, { details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } }),
      ),
    ).toBe(true);
    expect(
      isTooLargeResourceVersionError(
        apiError(504, 'Timeout', 1, { details: { causes: [{ message: 'Too large resource version' }] } }),
      ),
    ).toBe(true);
    expect(
      isTooLargeResourceVersionError(
        apiError(504, 'Timeout', 1, { message: 'Too large resource version: 5' }),
      ),
    ).toBe(true);
    expect(isTooLargeResourceVersionError(apiError(504, 'Timeout'))).toBe(false);
  });

  it('R6: 429 and connection refused are retriable on a watch', () => {
    expect(isWatchErrorRetriable(apiError(429, 'TooManyRequests'))).toBe(true);
    const refused = new Error('request failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    expect(isConnectionRefused(refused)).toBe(true);
    expect(isWatchErrorRetriable(refused)).toBe(true);
    expect(isWatchErrorRetriable(apiError(403, 'Forbidden'))).toBe(false);
  });
});
