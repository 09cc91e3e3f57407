// The shared formats (apimachinery's FormatLabels, LabelSelectorAsSelector().String() and
// FormatLabelSelector, layoutContainerCells, IntOrString, access modes), and the printers folder's
// import rule: pure modules that A1's restructure of the server cannot break.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accessModes, containerCells, formatLabels, formatLabelSelector, intOrString, selectorString } from '../../../lib/testing/fakeApiServer/printers/formats.js';

describe('formatLabels', () => {
  it.each<[unknown, string]>([
    [{ tier: 'web', app: 'shop' }, 'app=shop,tier=web'],
    [{ 'a.io/b': '' }, 'a.io/b='],
    [{}, '<none>'],
    [undefined, '<none>'],
  ])('%p is %s', (labels, text) => {
    expect(formatLabels(labels)).toBe(text);
  });
});

describe('label selectors', () => {
  it.each<[unknown, string | undefined, string]>([
    [undefined, '', '<none>'],
    [{}, '', '<none>'],
    [{ matchLabels: { b: '2', a: '1' } }, 'a=1,b=2', 'a=1,b=2'],
    [
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'zone', operator: 'NotIn', values: ['b', 'a'] },
          { key: 'env', operator: 'Exists' },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'tier', operator: 'In', values: ['fe'] },
        ],
      },
      'app=web,!canary,env,tier in (fe),zone notin (a,b)',
      'app=web,!canary,env,tier in (fe),zone notin (a,b)',
    ],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, undefined, '<error>'],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, undefined, '<error>'],
    [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, undefined, '<error>'],
    [{ matchLabels: { 'bad key!': 'x' } }, undefined, '<error>'],
    [{ matchLabels: { a: 'bad value!' } }, undefined, '<error>'],
    [{ matchLabels: { 'example.com/a': 'x_y.z' } }, 'example.com/a=x_y.z', 'example.com/a=x_y.z'],
  ])('%j', (selector, text, formatted) => {
    expect(selectorString(selector)).toBe(text);
    expect(formatLabelSelector(selector)).toBe(formatted);
  });
});

describe('small formats', () => {
  it('lays out containers', () => {
    expect(containerCells([{ name: 'a', image: 'x' }, { name: 'b' }])).toEqual(['a,b', 'x,']);
    expect(containerCells(undefined)).toEqual(['', '']);
  });

  it('prints int-or-string values', () => {
    expect([intOrString(2), intOrString('50%'), intOrString(null)]).toEqual(['2', '50%', '']);
  });

  it('abbreviates access modes in kube’s order, once each', () => {
    expect(accessModes(['ReadWriteOncePod', 'ReadOnlyMany', 'ReadWriteOnce', 'ReadWriteOnce'])).toBe('RWO,ROX,RWOP');
    expect(accessModes(undefined)).toBe('');
  });
});

describe('the printers folder', () => {
  const folder = join(dirname(fileURLToPath(import.meta.url)), '../../../lib/testing/fakeApiServer/printers');
  const allowed = /^(\.\/[A-Za-z]+\.js|\.\.\/status\.js|\.\.\/resources\.js|\.\.\/schema\/[A-Za-z/]+\.js)$/;

  const files = readdirSync(folder).filter((f) => f.endsWith('.ts'));
  const importsOf = (file: string): string[] =>
    [...readFileSync(join(folder, file), 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)';/gms)].map((m) => m[1]);

  it('has its imports seen by this check', () => {
    expect(files.flatMap(importsOf).length).toBeGreaterThan(files.length);
  });

  it.each(files)('%s imports only its folder, ../status.js, ../resources.js and ../schema/**', (file) => {
    expect(importsOf(file).filter((i) => !allowed.test(i))).toEqual([]);
  });
});
