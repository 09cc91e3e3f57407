// The meta.k8s.io Table around the printers (apiserver's asTable and rest/table.go): rows'
// objects per includeObject, the 400 for other values, list metadata, headers left out, the default
// convertor, and which types print with kube's columns.
import { describe, expect, it } from '@jest/globals';
import {
  builtInPrinters,
  defaultPrinter,
  includeObjectOption,
  printerFor,
  tableOfList,
  tableOfObject,
  tableWatch,
  type Table,
  type TableRequest,
} from '../../../lib/testing/fakeApiServer/printers/index.js';
import { rfc3339 } from '../../../lib/testing/fakeApiServer/printers/defaultConvertor.js';
import { StatusError } from '../../../lib/testing/fakeApiServer/status.js';
import { NOW, object } from './fixtures.js';

const request = (over: Partial<TableRequest> = {}): TableRequest => ({ includeObject: 'Metadata', groupVersion: 'meta.k8s.io/v1', noHeaders: false, now: NOW, ...over });
const pods = [
  object('a', { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c' }] }, status: { phase: 'Succeeded' } }),
  object('b', { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c' }] }, status: { phase: 'Pending' } }),
];

describe('includeObjectOption', () => {
  it.each([
    ['', 'Metadata'],
    ['includeObject=', 'Metadata'],
    ['includeObject=Metadata', 'Metadata'],
    ['includeObject=Object', 'Object'],
    ['includeObject=None', 'None'],
  ])('%p asks for %s', (query, include) => {
    expect(includeObjectOption(new URLSearchParams(query))).toBe(include);
  });

  it.each(['Full', 'none', 'metadata'])('refuses %s with kube’s 400', (value) => {
    const e = includeObjectOption(new URLSearchParams({ includeObject: value }));
    expect(e).toBeInstanceOf(StatusError);
    expect((e as StatusError).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: `Unable to convert to Table as requested: includeObject: Invalid value: "${value}": must be 'Metadata', 'Object', 'None', or empty`,
    });
  });
});

describe('tableOfList', () => {
  it('is a meta.k8s.io Table with the printer’s columns, one row per item and the list metadata', () => {
    const table = tableOfList(printerFor('pods'), pods, { resourceVersion: '12', continue: 'tok', remainingItemCount: 3 }, request());
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '12', continue: 'tok', remainingItemCount: 3 } });
    expect(table.columnDefinitions).toBe(printerFor('pods').columns);
    expect(table.rows.map((r) => r.cells.slice(0, 3))).toEqual([
      ['a', '0/1', 'Succeeded'],
      ['b', '0/1', 'Pending'],
    ]);
    expect(table.rows[0].conditions).toEqual([expect.objectContaining({ type: 'Completed', reason: 'Succeeded' })]);
    expect('conditions' in table.rows[1]).toBe(false);
  });

  it('leaves continue and remainingItemCount out when the list has none', () => {
    expect(tableOfList(defaultPrinter, [], { resourceVersion: '3' }, request()).metadata).toEqual({ resourceVersion: '3' });
    expect(tableOfList(defaultPrinter, [], { resourceVersion: '3', remainingItemCount: 0 }, request()).metadata).toEqual({ resourceVersion: '3', remainingItemCount: 0 });
  });

  it('gives each row a PartialObjectMetadata by default, in the Table’s group version', () => {
    const v1 = tableOfList(printerFor('pods'), pods, {}, request());
    expect(v1.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: pods[0].metadata });
    const beta = tableOfList(printerFor('pods'), pods, {}, request({ groupVersion: 'meta.k8s.io/v1beta1' }));
    expect(beta.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(beta.rows[0].object).toMatchObject({ apiVersion: 'meta.k8s.io/v1beta1' });
  });

  it('gives the whole object with includeObject=Object and none with None', () => {
    expect(tableOfList(printerFor('pods'), pods, {}, request({ includeObject: 'Object' })).rows[1].object).toBe(pods[1]);
    expect(tableOfList(printerFor('pods'), pods, {}, request({ includeObject: 'None' })).rows.map((r) => r.object)).toEqual([null, null]);
  });

  it('has null column definitions when headers are left out (watch events after the first)', () => {
    expect(tableOfList(printerFor('pods'), pods, {}, request({ noHeaders: true })).columnDefinitions).toBeNull();
  });
});

describe('tableOfObject', () => {
  it('is one row with the object’s resourceVersion', () => {
    const table = tableOfObject(printerFor('pods'), pods[1], request());
    expect(table.metadata).toEqual({ resourceVersion: '7' });
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0].cells[0]).toBe('b');
  });
});

describe('the default convertor', () => {
  it('prints Name and Created At (RFC 3339, UTC, seconds)', () => {
    expect(defaultPrinter.columns.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ]);
    expect(defaultPrinter.row(object('reader', {}, { creationTimestamp: '2026-05-01T12:00:00.250+02:00' }), NOW).cells).toEqual(['reader', '2026-05-01T10:00:00Z']);
    expect(rfc3339(undefined)).toBe('0001-01-01T00:00:00Z');
  });

  it.each(['roles.rbac.authorization.k8s.io', 'clusterroles.rbac.authorization.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io', 'limitranges'])(
    '%s print with it',
    (id) => {
      expect(printerFor(id)).toBe(defaultPrinter);
    },
  );
});

describe('builtInPrinters', () => {
  const ids = [
    'pods',
    'deployments.apps',
    'replicasets.apps',
    'statefulsets.apps',
    'daemonsets.apps',
    'jobs.batch',
    'cronjobs.batch',
    'services',
    'endpoints',
    'configmaps',
    'secrets',
    'namespaces',
    'nodes',
    'events',
    'events.events.k8s.io',
    'leases.coordination.k8s.io',
    'serviceaccounts',
    'rolebindings.rbac.authorization.k8s.io',
    'clusterrolebindings.rbac.authorization.k8s.io',
    'persistentvolumeclaims',
    'ingresses.networking.k8s.io',
    'poddisruptionbudgets.policy',
    'horizontalpodautoscalers.autoscaling',
    'networkpolicies.networking.k8s.io',
  ];

  it.each(ids)('%s has kube’s own columns', (id) => {
    expect(builtInPrinters.has(id)).toBe(true);
    expect(printerFor(id)).not.toBe(defaultPrinter);
  });

  it.each([...builtInPrinters.keys()])('%s prints one cell per column, for an empty object and a bare named one', (id) => {
    const printer = printerFor(id);
    for (const o of [{}, object('x', { spec: {}, status: {} })]) {
      const cells = printer.row(o, NOW).cells;
      expect(cells).toHaveLength(printer.columns.length);
      for (const c of cells) expect(['string', 'number', 'boolean'].includes(typeof c) || c === null).toBe(true);
    }
  });
});

describe('tableWatch', () => {
  it('turns each event into a one-row Table, with column definitions in the first only; Statuses pass', () => {
    const toTable = tableWatch(printerFor('pods'), { includeObject: 'None', groupVersion: 'meta.k8s.io/v1', now: NOW });
    const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' };
    expect(toTable({ type: 'ERROR', object: status })).toEqual({ type: 'ERROR', object: status });
    const first = toTable({ type: 'ADDED', object: pods[0] });
    const second = toTable({ type: 'MODIFIED', object: pods[1] });
    const bookmark = toTable({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '9' } } });
    expect(first).toMatchObject({ type: 'ADDED', object: { kind: 'Table', metadata: { resourceVersion: '7' }, columnDefinitions: printerFor('pods').columns } });
    expect((first.object as Table).rows.map((r) => r.cells[0])).toEqual(['a']);
    expect(second).toMatchObject({ type: 'MODIFIED', object: { kind: 'Table', columnDefinitions: null, rows: [{ cells: expect.arrayContaining(['b']), object: null }] } });
    expect(bookmark).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Table', metadata: { resourceVersion: '9' }, columnDefinitions: null } });
  });
});
