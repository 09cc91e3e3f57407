// CRD validation on the fake API server as on a real one (TESTCLUSTER.md §5), through
// @kubernetes/client-node over HTTP: a CRD whose schema is not structural or whose CEL rules do not
// compile or cost too much is refused; custom resources are pruned, defaulted and validated
// against the schema of their version, CEL rules included, with every cause in the 422.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1CustomResourceDefinition,
  type V1JSONSchemaProps,
} from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const widgetSchema: V1JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        image: { type: 'string', maxLength: 20 },
        replicas: { type: 'integer', minimum: 1, maximum: 100, _default: 1 },
        mode: { type: 'string', _enum: ['fast', 'slow'] },
        name: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
        ports: { type: 'array', maxItems: 2, items: { type: 'integer', format: 'int32' } },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
        size: { x_kubernetes_int_or_string: true },
        extra: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
        email: { type: 'string', format: 'email' },
        address: { type: 'string', format: 'ipv4' },
        id: { type: 'string', format: 'uuid' },
        at: { type: 'string', format: 'date-time' },
        note: { type: 'string', nullable: true },
        nested: { type: 'object', _default: {}, properties: { depth: { type: 'integer', _default: 3 } } },
        template: { type: 'object', x_kubernetes_embedded_resource: true, x_kubernetes_preserve_unknown_fields: true },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

const crdWith = (schema: V1JSONSchemaProps, name = 'widgets'): V1CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${name}.example.com` },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: name, singular: name.slice(0, -1), kind: name === 'widgets' ? 'Widget' : 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {} } }],
  },
});

interface Failure {
  code: number;
  body: { message: string; reason: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } };
}

async function failureOf(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (e) {
    const err = e as { code: number; body: unknown };
    if (typeof err.body !== 'string') return { code: err.code, body: err.body as Failure['body'] };
    try {
      return { code: err.code, body: JSON.parse(err.body) as Failure['body'] };
    } catch {
      return { code: err.code, body: { message: err.body, reason: '' } };
    }
  }
  throw new Error('the request succeeded');
}

const widget = (name: string, spec: object) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });
const at = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' };

let api: FakeApiServer;
let kc: KubeConfig;
let crds: ApiextensionsV1Api;
let objects: CustomObjectsApi;
beforeEach(async () => {
  api = await startFakeApiServer();
  kc = api.kubeConfig();
  crds = kc.makeApiClient(ApiextensionsV1Api);
  objects = kc.makeApiClient(CustomObjectsApi);
});
afterEach(() => api.close());

describe('CRD writes: the schema must be structural and its rules compile within the cost limits', () => {
  it('a property without a type is the real 422, and nothing is served', async () => {
    const bad = crdWith({ type: 'object', properties: { spec: { properties: { x: { type: 'string' } } } } });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.code).toBe(422);
    expect(f.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    );
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value: must not be empty for specified object fields', field: 'spec.validation.openAPIV3Schema.properties[spec].type' },
    ]);
    expect((await failureOf(objects.listNamespacedCustomObject(at))).code).toBe(404);
  });

  it('versions with different schemas are checked each at its own path; a missing schema is required', async () => {
    const bad = crdWith({ type: 'object' });
    bad.spec.versions = [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', additionalProperties: { type: 'string' } } } },
      { name: 'v2', served: true, storage: false },
    ];
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.code).toBe(422);
    expect(f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root',
      'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
    ]);
  });

  it('value validations inside allOf/anyOf may not declare types; metadata may only restrict name and generateName', async () => {
    const bad = crdWith({
      type: 'object',
      properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } }, spec: { type: 'object', anyOf: [{ type: 'string' }] } },
    });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
      'spec.validation.openAPIV3Schema.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural',
    ]);
  });

  it('a pattern must be a regular expression Go\'s RE2 takes: no lookaround, no backreferences', async () => {
    const bad = crdWith({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string', pattern: '^(?!x)' }, b: { type: 'string', pattern: '(a)\\1' } } } } });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].properties[a].pattern: Invalid value: \"^(?!x)\": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?!`",
      "spec.validation.openAPIV3Schema.properties[spec].properties[b].pattern: Invalid value: \"(a)\\\\1\": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: `\\1`",
    ]);
  });

  it('a property restricted only inside allOf must be specified outside (completeness)', async () => {
    const bad = crdWith({ type: 'object', properties: { spec: { type: 'object' } }, allOf: [{ properties: { spec: { properties: { x: { minLength: 1 } } } } }] });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      // crdWith enables the status subresource, and then the root may not carry allOf either.
      'spec.validation.openAPIV3Schema: Invalid value: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
      'spec.validation.openAPIV3Schema.properties[spec].properties[x]: Required value: because it is defined in spec.validation.openAPIV3Schema.allOf[0].properties[spec].properties[x]',
    ]);
  });

  it('defaults must be valid for their field, pass its rules and have no unknown fields; top-level metadata takes none', async () => {
    const bad = crdWith({
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', _default: 'x' } } },
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', maximum: 5, _default: 10 },
            sub: { type: 'object', properties: { a: { type: 'string' } }, _default: { a: 'x', b: 1 } },
            level: { type: 'integer', _default: 7, x_kubernetes_validations: [{ rule: 'self % 2 == 0', message: 'must be even' }] },
          },
        },
      },
    });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata',
      'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 10:  in body should be less than or equal to 5',
      'spec.validation.openAPIV3Schema.properties[spec].properties[sub].default: Invalid value: {"a":"x","b":1}: must not have unknown fields',
      'spec.validation.openAPIV3Schema.properties[spec].properties[level].default: Invalid value: 7: must be even',
    ]);
  });

  it('a CEL rule that does not type-check against the schema is refused at CRD creation', async () => {
    const bad = crdWith({
      type: 'object',
      properties: { spec: { type: 'object', properties: { min: { type: 'integer' } }, x_kubernetes_validations: [{ rule: 'self.nope > 1' }, { rule: 'self.min', reason: 'Bogus' }] } },
    });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: bad }));
    expect(f.code).toBe(422);
    const causes = f.body.details?.causes?.map((c) => `${c.field}: ${c.message}`) ?? [];
    expect(causes[0]).toMatch(
      /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: "self\.nope > 1": compilation failed: ERROR: <input>:1:\d+: undefined field 'nope'$/,
    );
    expect(causes[1]).toMatch(/x-kubernetes-validations\[1\]\.rule: Invalid value: "self\.min": compilation failed: .*must evaluate to a bool/);
  });

  it('a rule over an unbounded list of unbounded strings exceeds the cost budget; bounding them makes it acceptable', async () => {
    const tags = (bounded: boolean): V1JSONSchemaProps => ({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            tags: {
              type: 'array',
              ...(bounded ? { maxItems: 10 } : {}),
              items: { type: 'string', ...(bounded ? { maxLength: 64 } : {}) },
              x_kubernetes_validations: [{ rule: "self.all(t, self.exists(u, u.matches('^' + t + '$')))" }],
            },
          },
        },
      },
    });
    const f = await failureOf(crds.createCustomResourceDefinition({ body: crdWith(tags(false)) }));
    expect(f.code).toBe(422);
    expect(f.body.details?.causes?.[0]).toEqual({
      reason: 'FieldValueForbidden',
      field: 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule',
      message: 'Forbidden: estimated rule cost exceeds budget by factor of more than 100x',
    });
    await crds.createCustomResourceDefinition({ body: crdWith(tags(true)) });
  });
});

describe('custom resource writes: the structural schema is enforced', () => {
  beforeEach(async () => {
    await crds.createCustomResourceDefinition({ body: crdWith(widgetSchema) });
  });

  it('every violation is a cause with its field path, worded as kube words it', async () => {
    const f = await failureOf(
      objects.createNamespacedCustomObject({
        ...at,
        body: widget('w1', { replicas: 200, mode: 'turbo', name: 'Ab1', ports: [1, 2, 3], ratio: 0, image: 'x'.repeat(21), labels: { a: 'x', b: 'y', c: 'z' } }),
      }),
    );
    expect(f.code).toBe(422);
    expect(f.body.reason).toBe('Invalid');
    const causes = f.body.details?.causes ?? [];
    expect(causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: 200: spec.replicas in body should be less than or equal to 100' },
        { reason: 'FieldValueNotSupported', field: 'spec.mode', message: 'Unsupported value: "turbo": supported values: "fast", "slow"' },
        { reason: 'FieldValueInvalid', field: 'spec.name', message: 'Invalid value: "Ab1": spec.name in body should match \'^[a-z]+$\'' },
        { reason: 'FieldValueTooMany', field: 'spec.ports', message: 'Too many: 3: must have at most 2 items' },
        { reason: 'FieldValueInvalid', field: 'spec.ratio', message: 'Invalid value: 0: spec.ratio in body should be greater than 0' },
        { reason: 'FieldValueTooLong', field: 'spec.image', message: 'Too long: may not be more than 20 bytes' },
        { reason: 'FieldValueTooMany', field: 'spec.labels', message: 'Too many: 3: must have at most 2 items' },
      ]),
    );
    expect(causes).toHaveLength(7);
    expect(f.body.message).toMatch(/^Widget\.example\.com "w1" is invalid: \[spec\..*\]$/);
    expect(f.body.message).toContain('spec.image: Too long: may not be more than 20 bytes');
    expect(f.body.message).toContain('spec.replicas: Invalid value: 200: spec.replicas in body should be less than or equal to 100');
  });

  it('types, required fields and nulls: the wrong JSON type names the type it got', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...at, body: widget('w1', { replicas: 'three', labels: { a: 1 }, note: null, size: true }) }));
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.image', message: 'Required value' },
      { reason: 'FieldValueTypeInvalid', field: 'spec.replicas', message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"' },
      { reason: 'FieldValueTypeInvalid', field: 'spec.labels.a', message: 'Invalid value: "integer": spec.labels.a in body must be of type string: "integer"' },
      { reason: 'FieldValueTypeInvalid', field: 'spec.size', message: 'Invalid value: "boolean": spec.size in body must be of type integer,string: "boolean"' },
    ]);
  });

  it('formats: email, ipv4, uuid, date-time are checked; valid values pass', async () => {
    const f = await failureOf(
      objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'i', email: 'nope', address: '300.1.1.1', id: 'x-y', at: '2024-13-01T00:00:00Z' }) }),
    );
    expect(f.body.details?.causes?.map((c) => `${c.reason} ${c.field}: ${c.message}`)).toEqual([
      'FieldValueTypeInvalid spec.email: Invalid value: "nope": spec.email in body must be of type email: "nope"',
      'FieldValueTypeInvalid spec.address: Invalid value: "300.1.1.1": spec.address in body must be of type ipv4: "300.1.1.1"',
      'FieldValueTypeInvalid spec.id: Invalid value: "x-y": spec.id in body must be of type uuid: "x-y"',
      'FieldValueTypeInvalid spec.at: Invalid value: "2024-13-01T00:00:00Z": spec.at in body must be of type date-time: "2024-13-01T00:00:00Z"',
    ]);
    const ok = widget('w2', { image: 'i', email: 'a@b.io', address: '10.0.0.1', id: '0d4f8f5e-7b1a-4c1e-9a8e-1f2d3c4b5a69', at: '2024-02-29T10:00:00Z', size: '50%', note: null });
    await objects.createNamespacedCustomObject({ ...at, body: ok });
  });

  it('defaults are applied on create, top down (a defaulted object gets its own defaults)', async () => {
    const w = (await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'i' }) })) as { spec: object };
    expect(w.spec).toEqual({ image: 'i', replicas: 1, nested: { depth: 3 } });
    const got = (await objects.getNamespacedCustomObject({ ...at, name: 'w1' })) as { spec: object };
    expect(got.spec).toEqual(w.spec);
  });

  it('unknown fields are pruned, with a Warning by default; preserve-unknown-fields and embedded resources keep theirs', async () => {
    const res = await objects.createNamespacedCustomObjectWithHttpInfo({
      ...at,
      body: { ...widget('w1', { image: 'i', foo: 1, extra: { any: { thing: 1 } }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } }), bar: true },
    });
    expect(res.headers['warning']).toBe('299 - "unknown field \\"spec.foo\\"", 299 - "unknown field \\"bar\\""');
    const w = res.data as { spec: Record<string, unknown>; bar?: unknown };
    expect(w.spec['foo']).toBeUndefined();
    expect(w.bar).toBeUndefined();
    expect(w.spec['extra']).toEqual({ any: { thing: 1 } });
    expect(w.spec['template']).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} });
  });

  it('metadata keeps only what ObjectMeta has; a finalizer without a domain gets kube\'s warning', async () => {
    const body = { ...widget('w1', { image: 'i' }), metadata: { name: 'w1', finalizers: ['cleanup', 'example.com/ok'], color: 'red' } };
    const res = await objects.createNamespacedCustomObjectWithHttpInfo({ ...at, body });
    expect(res.headers['warning']).toBe(
      '299 - "unknown field \\"metadata.color\\"", 299 - "metadata.finalizers: \\"cleanup\\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"',
    );
    expect((res.data as { metadata: object }).metadata).not.toHaveProperty('color');
  });

  it('fieldValidation=Strict: POST is a 400, a merge patch a 422 on `patch`; Ignore is silent', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...at, fieldValidation: 'Strict', body: widget('w1', { image: 'i', foo: 1, bar: 2 }) }));
    expect(f.code).toBe(400);
    expect(f.body.message).toBe('Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.foo", unknown field "spec.bar"');
    await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'i' }) });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const p = await failureOf(objects.patchNamespacedCustomObject({ ...at, name: 'w1', fieldValidation: 'Strict', body: { spec: { foo: 1 } } }, merge));
    expect(p.code).toBe(422);
    expect(p.body.details?.causes?.[0].field).toBe('patch');
    expect(p.body.details?.causes?.[0].message).toMatch(/^Invalid value: ".*": strict decoding error: unknown field "spec\.foo"$/);
    const ignored = await objects.patchNamespacedCustomObjectWithHttpInfo({ ...at, name: 'w1', fieldValidation: 'Ignore', body: { spec: { foo: 1 } } }, merge);
    expect(ignored.headers['warning']).toBeUndefined();
    expect((ignored.data as { spec: object }).spec).not.toHaveProperty('foo');
    const bad = await failureOf(objects.createNamespacedCustomObject({ ...at, fieldValidation: 'Sometimes', body: widget('w2', { image: 'i' }) }));
    expect(bad.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Sometimes": supported values: "", "Ignore", "Strict", "Warn"');
  });

  it('updates, patches and /status writes are validated too', async () => {
    await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'i' }) });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const p = await failureOf(objects.patchNamespacedCustomObject({ ...at, name: 'w1', body: { spec: { replicas: 0 } } }, merge));
    expect(p.body.message).toBe('Widget.example.com "w1" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
    const s = await failureOf(objects.patchNamespacedCustomObjectStatus({ ...at, name: 'w1', body: { status: { ready: 'yes' } } }, merge));
    expect(s.body.details?.causes?.[0]).toEqual({
      reason: 'FieldValueTypeInvalid',
      field: 'status.ready',
      message: 'Invalid value: "string": status.ready in body must be of type boolean: "string"',
    });
    const current = (await objects.getNamespacedCustomObject({ ...at, name: 'w1' })) as { spec: Record<string, unknown> };
    const u = await failureOf(objects.replaceNamespacedCustomObject({ ...at, name: 'w1', body: { ...current, spec: { ...current.spec, mode: 'x' } } }));
    expect(u.code).toBe(422);
  });

  it('a schema change reaches stored objects as kube decodes them on read: new defaults, removed fields pruned, same resourceVersion', async () => {
    const w = (await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'i', mode: 'fast' }) })) as { metadata: { resourceVersion: string } };
    const crd = await crds.readCustomResourceDefinition({ name: 'widgets.example.com' });
    const spec = crd.spec.versions[0].schema!.openAPIV3Schema!.properties!['spec'];
    spec.properties!['tier'] = { type: 'string', _default: 'gold' };
    delete spec.properties!['mode'];
    await crds.replaceCustomResourceDefinition({ name: 'widgets.example.com', body: crd });
    const got = (await objects.getNamespacedCustomObject({ ...at, name: 'w1' })) as { metadata: { resourceVersion: string }; spec: object };
    expect(got.spec).toEqual({ image: 'i', replicas: 1, nested: { depth: 3 }, tier: 'gold' });
    expect(got.metadata.resourceVersion).toBe(w.metadata.resourceVersion);
    const list = (await objects.listNamespacedCustomObject(at)) as { items: Array<{ spec: object }> };
    expect(list.items[0].spec).toEqual(got.spec);
  });

  it('ratcheting: an invalid value stored before the schema tightened may stay while other fields change', async () => {
    await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { image: 'a-long-image-name' }) });
    const crd = await crds.readCustomResourceDefinition({ name: 'widgets.example.com' });
    crd.spec.versions[0].schema!.openAPIV3Schema!.properties!['spec'].properties!['image'].maxLength = 5;
    await crds.replaceCustomResourceDefinition({ name: 'widgets.example.com', body: crd });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await objects.patchNamespacedCustomObject({ ...at, name: 'w1', body: { spec: { replicas: 2 } } }, merge);
    const f = await failureOf(objects.patchNamespacedCustomObject({ ...at, name: 'w1', body: { spec: { image: 'another-long-one' } } }, merge));
    expect(f.body.details?.causes?.[0].message).toBe('Too long: may not be more than 5 bytes');
  });
});

describe('x-kubernetes-validations: CEL rules on every write', () => {
  const ruled: V1JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        x_kubernetes_validations: [
          { rule: 'self.min <= self.max', message: 'min must not exceed max' },
          { rule: 'self.max < 100', messageExpression: "'max is ' + string(self.max) + ', over the limit'", reason: 'FieldValueForbidden', fieldPath: '.max' },
        ],
        properties: {
          min: { type: 'integer' },
          max: { type: 'integer' },
          mode: { type: 'string', _enum: ['a', 'b'] },
          owner: { type: 'string', x_kubernetes_validations: [{ rule: 'self == oldSelf', message: 'owner is immutable' }] },
          count: { type: 'integer', x_kubernetes_validations: [{ rule: 'self >= oldSelf', message: 'count may only grow' }] },
          since: { type: 'integer', x_kubernetes_validations: [{ rule: '!oldSelf.hasValue() || self >= oldSelf.value()', optionalOldSelf: true, message: 'no going back' }] },
          tags: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 10 }, x_kubernetes_validations: [{ rule: "self.all(t, t.startsWith('x-'))" }] },
        },
      },
    },
  };
  beforeEach(async () => {
    await crds.createCustomResourceDefinition({ body: crdWith(ruled) });
  });

  it('a failing rule: its message, its reason and fieldPath; failed rule: <rule> without a message; scalars show their value', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...at, body: widget('w1', { min: 250, max: 200, tags: ['x-a', 'b'] }) }));
    expect(f.code).toBe(422);
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: min must not exceed max' },
      { reason: 'FieldValueForbidden', field: 'spec.max', message: 'Forbidden: max is 200, over the limit' },
      { reason: 'FieldValueInvalid', field: 'spec.tags', message: "Invalid value: failed rule: self.all(t, t.startsWith('x-'))" },
    ]);
    expect(f.body.message).toBe(
      "Widget.example.com \"w1\" is invalid: [spec: Invalid value: min must not exceed max, spec.max: Forbidden: max is 200, over the limit, spec.tags: Invalid value: failed rule: self.all(t, t.startsWith('x-'))]",
    );
  });

  it('transition rules run only on update, where the old value exists; optionalOldSelf also on create', async () => {
    await objects.createNamespacedCustomObject({ ...at, body: widget('w1', { min: 1, max: 2, owner: 'ann', count: 5, since: 10 }) });
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const f = await failureOf(objects.patchNamespacedCustomObject({ ...at, name: 'w1', body: { spec: { owner: 'bob', count: 4, since: 9 } } }, merge));
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.owner', message: 'Invalid value: "bob": owner is immutable' },
      { reason: 'FieldValueInvalid', field: 'spec.count', message: 'Invalid value: 4: count may only grow' },
      { reason: 'FieldValueInvalid', field: 'spec.since', message: 'Invalid value: 9: no going back' },
    ]);
    await objects.patchNamespacedCustomObject({ ...at, name: 'w1', body: { spec: { count: 6 } } }, merge);
    // A field set for the first time has no old value: its transition rule does not run.
    await objects.createNamespacedCustomObject({ ...at, body: widget('w2', { min: 1, max: 2 }) });
    await objects.patchNamespacedCustomObject({ ...at, name: 'w2', body: { spec: { owner: 'x', count: 1 } } }, merge);
  });

  it('a blocking schema error skips the rules and says so with the <nil> cause', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...at, body: widget('w1', { min: 5, max: 1, mode: 'c' }) }));
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueNotSupported', field: 'spec.mode', message: 'Unsupported value: "c": supported values: "a", "b"' },
      {
        reason: 'FieldValueInvalid',
        field: '<nil>',
        message: 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      },
    ]);
  });

  it('strings with format date-time and duration are timestamps and durations to rules, as kube types them', async () => {
    const timed = crdWith(
      {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            x_kubernetes_validations: [
              { rule: 'self.end > self.start', message: 'end must follow start' },
              { rule: "self.every <= duration('24h')", message: 'at least daily' },
            ],
            properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, every: { type: 'string', format: 'duration' } },
          },
        },
      },
      'gadgets',
    );
    await crds.createCustomResourceDefinition({ body: timed });
    const gadgets = { ...at, plural: 'gadgets' };
    const body = (spec: object) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec });
    const f = await failureOf(objects.createNamespacedCustomObject({ ...gadgets, body: body({ start: '2024-05-01T10:00:00Z', end: '2024-04-01T10:00:00Z', every: '48h' }) }));
    expect(f.body.details?.causes?.map((c) => c.message)).toEqual(['Invalid value: end must follow start', 'Invalid value: at least daily']);
    await objects.createNamespacedCustomObject({ ...gadgets, body: body({ start: '2024-05-01T10:00:00Z', end: '2024-05-01T10:00:01Z', every: '90m' }) });
  });

  it('a rule that errors while evaluating (a missing field) is a cause naming the error', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...at, body: widget('w1', { min: 1 }) }));
    expect(f.body.details?.causes?.[0]).toEqual({
      reason: 'FieldValueInvalid',
      field: 'spec',
      message: 'Invalid value: "object": no such key: max evaluating rule: min must not exceed max',
    });
  });
});

describe('list types, embedded resources, metadata and apply', () => {
  const gadgets = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'gadgets' };
  const gadget = (name: string, spec: object) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name }, spec });
  beforeEach(async () => {
    const schema: V1JSONSchemaProps = {
      type: 'object',
      x_kubernetes_validations: [{ rule: "self.metadata.name.startsWith('g')", message: 'gadget names start with g' }],
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } },
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              x_kubernetes_list_type: 'map',
              x_kubernetes_list_map_keys: ['name'],
              // `items` is untyped in client-node's model: it is sent as written, with the JSON names.
              items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 } } },
            },
            tags: { type: 'array', x_kubernetes_list_type: 'set', items: { type: 'string' } },
            template: { type: 'object', x_kubernetes_embedded_resource: true, x_kubernetes_preserve_unknown_fields: true },
          },
        },
      },
    };
    await crds.createCustomResourceDefinition({ body: crdWith(schema, 'gadgets') });
  });

  it('duplicates in set and map lists, an embedded resource without kind, a name over the schema\'s maxLength', async () => {
    const f = await failureOf(
      objects.createNamespacedCustomObject({
        ...gadgets,
        body: gadget('gadget', { ports: [{ name: 'a' }, { name: 'a', port: 1 }], tags: ['x', 'x'], template: { apiVersion: 'v1', metadata: { name: 'p' } } }),
      }),
    );
    expect(f.body.details?.causes).toEqual([
      { reason: 'FieldValueTooLong', field: 'metadata.name', message: 'Too long: may not be more than 5 bytes' },
      { reason: 'FieldValueDuplicate', field: 'spec.ports[1]', message: 'Duplicate value: {"name":"a"}' },
      { reason: 'FieldValueDuplicate', field: 'spec.tags[1]', message: 'Duplicate value: "x"' },
      { reason: 'FieldValueRequired', field: 'spec.template.kind', message: 'Required value: must not be empty' },
      {
        reason: 'FieldValueInvalid',
        field: '<nil>',
        message: 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      },
    ]);
  });

  it('a rule on the root sees metadata.name and reports on <nil>; list items get their defaults', async () => {
    const f = await failureOf(objects.createNamespacedCustomObject({ ...gadgets, body: gadget('h1', {}) }));
    expect(f.body.message).toBe('Gadget.example.com "h1" is invalid: <nil>: Invalid value: gadget names start with g');
    const g = (await objects.createNamespacedCustomObject({ ...gadgets, body: gadget('g1', { ports: [{ name: 'a' }] }) })) as { spec: object };
    expect(g.spec).toEqual({ ports: [{ name: 'a', port: 80 }] });
  });

  it('server-side apply is validated and defaulted; with fieldValidation=Strict an unknown field is the 500 kube gives', async () => {
    const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
    const created = (await objects.patchNamespacedCustomObject({ ...gadgets, name: 'g2', fieldManager: 'me', body: gadget('g2', { ports: [{ name: 'b' }] }) }, apply)) as {
      spec: object;
    };
    expect(created.spec).toEqual({ ports: [{ name: 'b', port: 80 }] });
    const bad = await failureOf(objects.patchNamespacedCustomObject({ ...gadgets, name: 'g2', fieldManager: 'me', body: gadget('g2', { tags: ['y', 'y'] }) }, apply));
    expect(bad.code).toBe(422);
    expect(bad.body.details?.causes?.[0].message).toBe('Duplicate value: "y"');
    const strict = await failureOf(
      objects.patchNamespacedCustomObject({ ...gadgets, name: 'g2', fieldManager: 'me', fieldValidation: 'Strict', body: gadget('g2', { foo: 1 }) }, apply),
    );
    expect(strict.code).toBe(500);
    expect(strict.body.message).toBe('failed to create typed patch object (default/g2; example.com/v1, Kind=Gadget): .spec.foo: field not declared in schema');
  });
});
