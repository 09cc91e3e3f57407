import { describe, expect, it } from '@jest/globals';
import { parseLabelSelector, toLabelSelector } from '../../lib/labels/parseLabelSelector.js';
import {
  everythingLabelSelector,
  labelSelectorFromObject,
  labelSelectorFromSet,
  nothingLabelSelector,
} from '../../lib/labels/labelSelector.js';
import { LabelSelectorParseError } from '../../lib/labels/labelSelectorParseError.js';
import { labelRequirement } from '../../lib/labels/labelRequirement.js';
import { RxkubeError } from '../../lib/errors.js';

const web = { app: 'web', env: 'prod', tier: 'frontend' };
const db = { app: 'db', env: 'dev' };
const bare = {};

describe('parseLabelSelector (L4: the full label selector syntax)', () => {
  it.each([
    // selector, web, db, bare
    ['', true, true, true],
    ['app=web', true, false, false],
    ['app==web', true, false, false],
    ['app!=web', false, true, true],
    ['env in (prod,staging)', true, false, false],
    ['env notin (prod,staging)', false, true, true],
    ['tier', true, false, false],
    ['!tier', false, true, true],
    ['app=web,env=prod', true, false, false],
    ['app=web,env=dev', false, false, false],
    ['app, !tier', false, true, false],
    ['  app  in ( web , db ) ,env!=dev ', true, false, false],
  ])('L4: %j matches web=%s db=%s unlabelled=%s', (selector, w, d, b) => {
    const sel = parseLabelSelector(selector);
    expect([sel.matches(web), sel.matches(db), sel.matches(bare)]).toEqual([w, d, b]);
  });

  it('L4: an empty selector matches everything, even objects without labels', () => {
    const sel = parseLabelSelector('');
    expect(sel.isEmpty).toBe(true);
    expect(sel.matches(undefined)).toBe(true);
    expect(toLabelSelector(undefined).matches({ a: 'b' })).toBe(true);
  });

  it('L4: a selector that matches nothing selects nothing', () => {
    const sel = parseLabelSelector('app=web,app=db');
    expect([web, db, bare].filter((l) => sel.matches(l))).toEqual([]);
    expect(nothingLabelSelector.matches(web)).toBe(false);
  });

  it('treats in and notin as identifiers where a key or a value is expected', () => {
    const sel = parseLabelSelector('in in (in,notin)');
    expect(sel.matches({ in: 'notin' })).toBe(true);
    expect(sel.matches({ in: 'x' })).toBe(false);
  });

  it('reads empty values: a= and members of (a,,b) and ()', () => {
    expect(parseLabelSelector('a=').matches({ a: '' })).toBe(true);
    expect(parseLabelSelector('a=').matches({ a: 'x' })).toBe(false);
    expect(parseLabelSelector('a in (x,,y)').requirements[0].values).toEqual(['', 'x', 'y']);
    expect(parseLabelSelector('a in ()').requirements[0].values).toEqual(['']);
  });

  it('compares integer values with > and <', () => {
    const sel = parseLabelSelector('replicas>2,replicas<10');
    expect(sel.matches({ replicas: '5' })).toBe(true);
    expect(sel.matches({ replicas: '10' })).toBe(false);
    expect(sel.matches({ replicas: 'many' })).toBe(false);
    expect(sel.matches({})).toBe(false);
  });

  it('accepts prefixed keys and writes a canonical string sorted by key', () => {
    const sel = parseLabelSelector('z notin (b,a), app.kubernetes.io/name == web, !x, y');
    expect(sel.toString()).toBe('app.kubernetes.io/name==web,!x,y,z notin (a,b)');
    expect(parseLabelSelector(sel.toString()).toString()).toBe(sel.toString());
  });

  it.each([
    ['app=web,', 'identifier after'],
    ['app in (web', "',' or ')'"],
    ['app in web', "'('"],
    ['!app=web', "end of string after '!key'"],
    ['app web', '=, ==, !=, in, notin'],
    ['=web', "'!', identifier"],
    ['app=(web)', 'identifier'],
    ['-app=web', 'key name'],
    ['app=-web', 'value'],
    ['a/b/c=d', 'more than one'],
    ['UPPER.example.com/x=y', 'DNS subdomain'],
    [`app=${'v'.repeat(64)}`, 'longer than 63'],
    ['replicas>many', 'integer'],
  ])('rejects %j with a typed error that says why', (selector, why) => {
    let caught: unknown;
    try {
      parseLabelSelector(selector);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LabelSelectorParseError);
    expect(caught).toBeInstanceOf(RxkubeError);
    const err = caught as LabelSelectorParseError;
    expect(err.code).toBe('LabelSelectorParseError');
    expect(err.selector).toBe(selector);
    expect(err.message).toContain(why);
  });

  it('reports where parsing failed', () => {
    try {
      parseLabelSelector('app=web, tier in (a b)');
      throw new Error('no error');
    } catch (e) {
      expect((e as LabelSelectorParseError).position).toBe('app=web, tier in (a '.length);
    }
  });

  it('parses a string once: the same selector object comes back', () => {
    expect(parseLabelSelector('cache-test in (a,b)')).toBe(parseLabelSelector('cache-test in (a,b)'));
    expect(parseLabelSelector('cache-test in (a,c)')).not.toBe(parseLabelSelector('cache-test in (a,b)'));
  });

  it('returns frozen selectors', () => {
    const sel = parseLabelSelector('a in (x,y)');
    expect(Object.isFrozen(sel)).toBe(true);
    expect(Object.isFrozen(sel.requirements)).toBe(true);
    expect(Object.isFrozen(sel.requirements[0].values)).toBe(true);
  });
});

describe('labelSelectorFromSet and labelSelectorFromObject', () => {
  it('builds equality selectors from a label set; an empty set matches everything', () => {
    expect(labelSelectorFromSet({ env: 'prod', app: 'web' }).toString()).toBe('app=web,env=prod');
    expect(labelSelectorFromSet({}).isEmpty).toBe(true);
  });

  it('converts a metav1.LabelSelector: undefined selects nothing, {} everything', () => {
    expect(labelSelectorFromObject(undefined)).toBe(nothingLabelSelector);
    expect(labelSelectorFromObject({}).matches(bare)).toBe(true);
    const sel = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod'] },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    });
    expect(sel.toString()).toBe('app=web,!canary,env in (prod)');
    expect(sel.matches(web)).toBe(true);
    expect(sel.matches({ ...web, canary: '1' })).toBe(false);
    expect(() =>
      labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] }),
    ).toThrow(LabelSelectorParseError);
  });

  it('validates requirements built by hand', () => {
    expect(() => labelRequirement('a', 'In', [])).toThrow("can't be empty");
    expect(() => labelRequirement('a', 'Exists', ['x'])).toThrow('must be empty');
    expect(everythingLabelSelector.toString()).toBe('');
  });
});

describe('selectors from plain JavaScript: what is no selector is a LabelSelectorParseError', () => {
  it.each([[5], [{}], [['a=b']], [null]])('parseLabelSelector(%j)', (input) => {
    expect(() => parseLabelSelector(input as unknown as string)).toThrow(LabelSelectorParseError);
  });

  it('toLabelSelector of a structured selector says how to convert it; of a number, what is needed', () => {
    expect(() => toLabelSelector({ matchLabels: { app: 'web' } } as never)).toThrow(/labelSelectorFromObject/);
    expect(() => toLabelSelector(5 as never)).toThrow(/a string or a LabelSelector is needed \(got number\)/);
    expect(toLabelSelector(labelSelectorFromObject({ matchLabels: { app: 'web' } })).matches({ app: 'web' })).toBe(true);
  });

  it('labelSelectorFromSet with a value that is not a string is refused (a number never matched)', () => {
    expect(() => labelSelectorFromSet({ a: 1 } as never)).toThrow(/the value of "a" must be a string \(got number\)/);
  });
});
