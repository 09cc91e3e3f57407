import { describe, expect, it } from '@jest/globals';
import { parseLabelSelector } from '../../lib/labels/parseLabelSelector.js';
import { labelRequirement, parseInt64, type LabelSelectorOperator } from '../../lib/labels/labelRequirement.js';
import { labelSelector } from '../../lib/labels/labelSelector.js';
import { LabelSelectorParseError } from '../../lib/labels/labelSelectorParseError.js';

// Cases carried over from apimachinery's pkg/labels/selector_test.go (TestSelectorParse,
// TestSelectorMatches, TestRequirementConstructor, TestRequirementSelectorMatching), plus the
// `>`/`<` rules of its NewRequirement: the value must be a valid label value (no sign) that
// strconv.ParseInt(v, 10, 64) accepts, and label values are compared as 64-bit integers.
describe('label selectors behave as apimachinery’s (selector_test.go)', () => {
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])(
    'TestSelectorParse: %j parses and prints back without spaces',
    (s) => {
      expect(parseLabelSelector(s).toString()).toBe(s.replace(/ /g, ''));
    },
  );

  it.each(['x=a||y=b', 'x==a==b', '!x=a', 'x<a'])('TestSelectorParse: %j is refused', (s) => {
    expect(() => parseLabelSelector(s)).toThrow(LabelSelectorParseError);
  });

  it.each([
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
    ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }, false],
    ['z>1', { z: 'v2' }, false],
  ])('TestSelectorMatches: %j on %j is %s', (s, labels, expected) => {
    expect(parseLabelSelector(s).matches(labels)).toBe(expected);
  });

  it.each<[string, LabelSelectorOperator, string[], boolean]>([
    ['x', 'In', [], false],
    ['x', 'NotIn', [], false],
    ['x', 'In', ['foo'], true],
    ['x', 'NotIn', ['foo'], true],
    ['x', 'Exists', [], true],
    ['x', 'DoesNotExist', [], true],
    ['1foo', 'In', ['bar'], true],
    ['1234', 'In', ['bar'], true],
    ['y', 'GreaterThan', ['1'], true],
    ['z', 'LessThan', ['6'], true],
    ['foo', 'GreaterThan', ['bar'], false],
    ['barz', 'LessThan', ['blah'], false],
    ['a'.repeat(254), 'Exists', [], false],
  ])('TestRequirementConstructor: %j %s %j valid=%s', (key, op, values, valid) => {
    const build = () => labelRequirement(key, op, values);
    if (valid) expect(build).not.toThrow();
    else expect(build).toThrow(LabelSelectorParseError);
  });

  it.each([
    ['x>-1', 'value "-1"'],
    ['x<-5', 'value "-5"'],
    ['x>+1', 'value "+1"'],
    ['x>99999999999999999999', '64-bit integer'],
    ['x<9223372036854775808', '64-bit integer'],
    ['x>1.5', '64-bit integer'],
  ])('refuses %j as the API server does (a label value that parses as int64)', (s, why) => {
    expect(() => parseLabelSelector(s)).toThrow(why);
  });

  it('accepts the int64 bounds and leading zeros', () => {
    expect(parseLabelSelector('x<9223372036854775807').matches({ x: '9223372036854775806' })).toBe(true);
    expect(parseLabelSelector('x>007').matches({ x: '8' })).toBe(true);
  });

  it('x>1 does not match a label value out of the int64 range; signed label values compare', () => {
    expect(parseLabelSelector('x>1').matches({ x: '99999999999999999999' })).toBe(false);
    expect(parseLabelSelector('x<1').matches({ x: '99999999999999999999' })).toBe(false);
    // ParseInt reads a sign, so a (hand-made) label value "-3" is less than 1, as in Go.
    expect(parseLabelSelector('x<1').matches({ x: '-3' })).toBe(true);
  });

  it('a requirement built by hand is validated the same way', () => {
    expect(() => labelSelector([labelRequirement('x', 'GreaterThan', ['-1'])])).toThrow(LabelSelectorParseError);
  });

  it.each([
    ['0', 0n],
    ['-9223372036854775808', -(2n ** 63n)],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['+12', 12n],
    ['9223372036854775808', undefined],
    ['', undefined],
    ['1_000', undefined],
    ['0x10', undefined],
    [' 1', undefined],
  ])('parseInt64(%j) reads as strconv.ParseInt(s, 10, 64): %s', (s, expected) => {
    expect(parseInt64(s)).toBe(expected);
  });
});
