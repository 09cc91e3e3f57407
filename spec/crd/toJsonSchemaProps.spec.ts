// TypeBox schemas as CRD schema nodes: unions rewritten as kube-rs's transforms rewrite them, what
// a CRD cannot carry dropped, keys in one fixed order; and the YAML writer reads back as the JSON.
import { describe, expect, it } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { KubeType, toJsonSchemaProps, toYaml } from '../../lib/crd/definition/index.js';
import { backups } from '../../examples/backup/backup.js';

describe('toJsonSchemaProps', () => {
  it.each<[string, object, object]>([
    ['literals of one type -> enum', Type.Union([Type.Literal('a'), Type.Literal('b')]), { type: 'string', enum: ['a', 'b'] }],
    ['integer literals -> integer enum', Type.Union([Type.Literal(1), Type.Literal(2)]), { type: 'integer', enum: [1, 2] }],
    ['one literal -> an enum of one', Type.Literal('only'), { type: 'string', enum: ['only'] }],
    ['T | null -> nullable', Type.Union([Type.String({ maxLength: 3 }), Type.Null()]), { type: 'string', nullable: true, maxLength: 3 }],
    ['integer | string -> int-or-string', Type.Union([Type.String(), Type.Integer()]), { 'x-kubernetes-int-or-string': true }],
    ['Record<string, V> -> additionalProperties', Type.Record(Type.String(), Type.Integer()), { type: 'object', additionalProperties: { type: 'integer' } }],
    ['additionalProperties: false dropped', Type.Object({ a: Type.String() }, { additionalProperties: false }), { type: 'object', required: ['a'], properties: { a: { type: 'string' } } }],
    ['$id dropped', Type.String({ $id: 'Name' }), { type: 'string' }],
    ['Unknown -> preserve unknown fields', Type.Unknown(), { 'x-kubernetes-preserve-unknown-fields': true }],
    ['no required list when every property is optional', Type.Object({ a: Type.Optional(Type.String()) }), { type: 'object', properties: { a: { type: 'string' } } }],
    ['KubeType.Nullable', KubeType.Nullable(Type.Integer()), { type: 'integer', nullable: true }],
  ])('%s', (_name, schema, expected) => {
    expect(toJsonSchemaProps(schema)).toEqual(expected);
  });

  it('writes keys in one order whatever order they were given in', () => {
    const a = toJsonSchemaProps({ maximum: 3, 'x-kubernetes-validations': [{ rule: 'true' }], type: 'integer', description: 'd', minimum: 1 });
    expect(Object.keys(a)).toEqual(['description', 'type', 'minimum', 'maximum', 'x-kubernetes-validations']);
    const props = toJsonSchemaProps(Type.Object({ zeta: Type.String(), alpha: Type.String() })) as { properties: object };
    expect(Object.keys(props.properties)).toEqual(['zeta', 'alpha']); // properties keep the definition's order
  });
});

describe('toYaml', () => {
  it('reads back (js-yaml, as kubectl-side tools) as the CRD object itself', async () => {
    const yaml = (await import('js-yaml')) as unknown as { load(text: string): unknown };
    expect(yaml.load(toYaml(backups.crd()))).toEqual(JSON.parse(JSON.stringify(backups.crd())));
  });

  it.each<[unknown, string]>([
    [{ a: 'yes', b: 'no', c: '0 3 * * *', d: '1.5', e: '', f: 'plain text', g: 'a: b', h: '.spec.x', i: '.inf' }, 'a: "yes"\nb: "no"\nc: "0 3 * * *"\nd: "1.5"\ne: ""\nf: plain text\ng: "a: b"\nh: .spec.x\ni: ".inf"\n'],
    [{ list: [{ a: 1, b: [true] }, 'x'], empty: {}, none: [] }, 'list:\n- a: 1\n  b:\n  - true\n- x\nempty: {}\nnone: []\n'],
  ])('quotes what would read back as something else: %j', (value, expected) => {
    expect(toYaml(value)).toBe(expected);
  });
});
