// Custom resources' Tables from additionalPrinterColumns (apiextensions' tableconvertor): JSONPath,
// coercion to each type, the Age default column, priority and descriptions.
import { describe, expect, it } from '@jest/globals';
import { customResourcePrinter, goNumber, printerColumnsOf, type PrinterColumn } from '../../../lib/testing/fakeApiServer/printers/customResourceColumns.js';
import { compileJsonPath, JsonPathError } from '../../../lib/testing/fakeApiServer/printers/jsonPath.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { minutesAgo, NOW, object } from './fixtures.js';

const widget = object('w1', {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  spec: { replicas: 3, ratio: 0.25, big: 1234567.5, tiny: 0.00001, enabled: true, size: 'L', tags: ['a', 'b'], owner: { team: 'x' }, nothing: null, 'a.b': 'dotted' },
  status: {
    conditions: [
      { type: 'Synced', status: 'True', lastTransitionTime: minutesAgo(3) },
      { type: 'Ready', status: 'False', reason: 'Waiting', lastTransitionTime: minutesAgo(1) },
    ],
    observedAt: 'not a time',
    empty: '',
  },
});

describe('compileJsonPath', () => {
  it.each<[string, ReadonlyArray<unknown>]>([
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ['.spec.missing', []],
    ['.spec.missing.deeper', []],
    ['.spec.tags[0]', ['a']],
    ['.spec.tags[-1]', ['b']],
    ['.spec.tags[5]', []],
    ['.spec.tags[*]', ['a', 'b']],
    ['.spec.tags[0:1]', ['a']],
    ["['spec']['a.b']", ['dotted']],
    ['.spec.a\\.b', ['dotted']],
    ['.status.conditions[?(@.type=="Ready")].status', ['False']],
    [".status.conditions[?(@.type=='Synced')].lastTransitionTime", [minutesAgo(3)]],
    ['.status.conditions[?(@.type!="Ready")].type', ['Synced']],
    ['.status.conditions[?(@.reason)].reason', ['Waiting']],
    ['.status.conditions[*].type', ['Synced', 'Ready']],
    ['..team', ['x']],
    ['.spec.owner.*', ['x']],
    ['.spec[?(@.x)]', []],
    ['.spec.constructor', []],
  ])('%s', (path, values) => {
    expect(compileJsonPath(path).evaluate(widget)).toEqual(values);
  });

  it.each(['.spec[', '.spec.tags[x:y:z:w]', '.status.conditions[?(@.type=~"R.*")]', '.spec.[a'])('refuses %s', (path) => {
    expect(() => compileJsonPath(path)).toThrow(JsonPathError);
  });
});

describe('goNumber', () => {
  it.each<[number, string]>([
    [3, '3'],
    [-42, '-42'],
    [0.25, '0.25'],
    [100000.5, '100000.5'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
  ])('%d is %s', (n, text) => {
    expect(goNumber(n)).toBe(text);
  });
});

describe('customResourcePrinter', () => {
  const col = (name: string, type: string, jsonPath: string, extra: Partial<PrinterColumn> = {}): PrinterColumn => ({ name, type, jsonPath, ...extra });

  it('prints Name and one Age date column when no column is listed', () => {
    const printer = customResourcePrinter([]);
    expect(printer.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Age', 'date', 0],
    ]);
    expect(printer.row(widget, NOW).cells).toEqual(['w1', '5m']);
  });

  it('drops Age once any column is listed, keeps type, format, priority and description', () => {
    const printer = customResourcePrinter([
      col('Replicas', 'integer', '.spec.replicas', { format: 'int32' }),
      col('Owner', 'string', '.spec.owner.team', { priority: 1, description: 'The owning team' }),
    ]);
    expect(printer.columns).toEqual([
      expect.objectContaining({ name: 'Name', format: 'name' }),
      { name: 'Replicas', type: 'integer', format: 'int32', description: 'Custom resource definition column (in JSONPath format): .spec.replicas', priority: 0 },
      { name: 'Owner', type: 'string', format: '', description: 'The owning team', priority: 1 },
    ]);
  });

  it.each<[string, string, unknown]>([
    ['string', '.spec.size', 'L'],
    ['string', '.spec.replicas', '3'],
    ['string', '.spec.ratio', '0.25'],
    ['string', '.spec.big', '1.2345675e+06'],
    ['string', '.spec.enabled', 'true'],
    ['string', '.spec.tags', '["a","b"]'],
    ['string', '.spec.owner', '{"team":"x"}'],
    ['string', '.spec.nothing', null],
    ['string', '.spec.missing', null],
    ['string', '.status.conditions[?(@.type=="Ready")].status', 'False'],
    ['integer', '.spec.replicas', 3],
    ['integer', '.spec.ratio', 0],
    ['integer', '.spec.size', null],
    ['number', '.spec.replicas', 3],
    ['number', '.spec.ratio', 0.25],
    ['number', '.spec.enabled', null],
    ['boolean', '.spec.enabled', true],
    ['boolean', '.spec.size', null],
    ['date', '.metadata.creationTimestamp', '5m'],
    ['date', '.status.conditions[?(@.type=="Ready")].lastTransitionTime', '60s'],
    ['date', '.status.observedAt', '<invalid>'],
    ['date', '.status.empty', '<unknown>'],
    ['date', '.spec.replicas', null],
    ['unknown-type', '.spec.size', null],
    ['string', '.spec[', null],
  ])('a %s column at %s is %p', (type, jsonPath, cell) => {
    expect(customResourcePrinter([col('C', type, jsonPath)]).row(widget, NOW).cells).toEqual(['w1', cell]);
  });

  it('reads a CRD version’s columns', () => {
    const crd: JsonObject = {
      spec: {
        versions: [
          { name: 'v1', additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1, format: 'int32', description: 'd' }] },
          { name: 'v2' },
        ],
      },
    };
    expect(printerColumnsOf(crd, 'v1')).toEqual([{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1, format: 'int32', description: 'd' }]);
    expect(printerColumnsOf(crd, 'v2')).toEqual([]);
    expect(printerColumnsOf(crd, 'v3')).toBeUndefined();
  });
});
