// apimachinery's HumanDuration and the printers' age of a timestamp, at each threshold.
import { describe, expect, it } from '@jest/globals';
import { ageSince, humanDuration, parseTimestamp } from '../../../lib/testing/fakeApiServer/printers/humanDuration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  it.each([
    [-3 * s, '<invalid>'],
    [-2 * s, '<invalid>'],
    [-1500, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 30 * s, '2m30s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 12 * m, '3h12m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [2 * d, '2d'],
    [4 * d + 5 * h, '4d5h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d + 5 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [740 * d, '2y10d'],
    [8 * 365 * d, '8y'],
    [20 * 365 * d + 100 * d, '20y'],
  ])('%d ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('ageSince', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  it.each([
    ['2026-05-01T11:55:00Z', '5m'],
    ['2026-05-01T11:55:00.750Z', '4m59s'],
    ['2026-05-01T13:55:00+02:00', '5m'],
    [undefined, '<unknown>'],
    ['', '<unknown>'],
    ['yesterday', '<unknown>'],
    ['2026-05-01 11:55:00', '<unknown>'],
  ])('%s at noon is %s', (ts, text) => {
    expect(ageSince(ts, now)).toBe(text);
  });

  it('parses RFC 3339 only', () => {
    expect(parseTimestamp('1970-01-01T00:00:01Z')).toBe(1000);
    expect(parseTimestamp('1970-01-01')).toBeUndefined();
    expect(parseTimestamp(12)).toBeUndefined();
  });
});
