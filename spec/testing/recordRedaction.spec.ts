// recordTraffic's redaction as a pure function: every copy of a Secret's values blanked, keys kept,
// other kinds untouched.
import { describe, expect, it } from '@jest/globals';
import { LAST_APPLIED, redactSecret } from '../../lib/testing/record/redaction.js';

const lastApplied = (o: object): string => `${JSON.stringify(o)}\n`;

describe('redactSecret', () => {
  it('blanks data, stringData and both inside the last-applied annotation, keeping keys and everything else', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/basic-auth',
      metadata: {
        name: 's',
        labels: { app: 'db' },
        annotations: {
          other: 'kept',
          [LAST_APPLIED]: lastApplied({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: 'cGFzcw==' }, stringData: { username: 'admin' }, type: 'kubernetes.io/basic-auth' }),
        },
        managedFields: [{ manager: 'kubectl-client-side-apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:password': {} } } }],
      },
      data: { password: 'cGFzcw==' },
      stringData: { username: 'admin' },
    };
    const out = redactSecret(secret);
    expect(out).toEqual({
      ...secret,
      metadata: {
        ...secret.metadata,
        annotations: {
          other: 'kept',
          [LAST_APPLIED]: lastApplied({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { password: '' }, stringData: { username: '' }, type: 'kubernetes.io/basic-auth' }),
        },
      },
      data: { password: '' },
      stringData: { username: '' },
    });
    expect(secret.data.password).toBe('cGFzcw=='); // the input is not changed
  });

  it.each([['not json {"password":"x"'], ['"a JSON string"'], ['[1,2]']])('blanks an annotation that is not a JSON object (%s) whole', (text) => {
    const out = redactSecret({ kind: 'Secret', metadata: { annotations: { [LAST_APPLIED]: text } } });
    expect(out).toEqual({ kind: 'Secret', metadata: { annotations: { [LAST_APPLIED]: '' } } });
  });

  it('leaves a Secret without values or annotations as it is, and any other kind untouched', () => {
    expect(redactSecret({ kind: 'Secret', metadata: { name: 'empty' } })).toEqual({ kind: 'Secret', metadata: { name: 'empty' } });
    const cm = { kind: 'ConfigMap', data: { a: '1' }, metadata: { annotations: { [LAST_APPLIED]: lastApplied({ data: { a: '1' } }) } } };
    expect(redactSecret(cm)).toBe(cm);
  });
});
