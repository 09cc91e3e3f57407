import { describe, expect, it } from '@jest/globals';
import { expectEqual, expectSame } from './expectEqual.js';

// The random suites' cheap checks must fail exactly where jest's matchers fail.
describe('spec/support expectSame and expectEqual', () => {
  it('expectSame passes what toBe passes and throws jest\'s toBe error otherwise', () => {
    const o = { a: 1 };
    expectSame(o, o);
    expectSame(Number.NaN, Number.NaN);
    expectSame(undefined, undefined);
    expect(() => expectSame({ a: 1 }, { a: 1 })).toThrow(/toBe/);
    expect(() => expectSame(0, -0)).toThrow(/toBe/);
    expect(() => expectSame(1, undefined)).toThrow(/Expected: undefined/);
  });

  it('expectEqual passes what toEqual passes and throws jest\'s toEqual error with the diff otherwise', () => {
    expectEqual({ a: [1, { b: '2' }] }, { a: [1, { b: '2' }] });
    expectEqual({ a: 1, b: undefined }, { a: 1 }); // toEqual ignores undefined properties
    expectEqual([['k', '1']], [['k', '1']]);
    expect(() => expectEqual({ a: [1, 2] }, { a: [1, 3] })).toThrow(/toEqual/);
    expect(() => expectEqual([['k', '1']], [['k', '2']])).toThrow(/"2"/);
    expect(() => expectEqual({ size: 1 }, { size: 2 })).toThrow(/toEqual/);
  });
});
