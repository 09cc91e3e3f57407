// A definition that uses every construct a CRD version carries (CEL rules on several nodes with
// message, messageExpression, reason, fieldPath and optionalOldSelf; list types and map keys;
// printer columns; selectable fields; status and scale subresources; short names, categories,
// scope; three versions with served/storage/deprecated flags and a webhook conversion) round-trips:
// generated, installed on the fake API server through its CRD path, and each rule refuses the
// object that breaks it with the rule's message, as `validate` says beforehand.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { Type } from '@sinclair/typebox';
import { defineCustomResource, KubeType, validations, type ObjectOf } from '../../lib/crd/definition/index.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const widgets = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  version: 'v2',
  shortNames: ['wg'],
  categories: ['all', 'toys'],
  scope: 'Namespaced',
  description: 'A widget.',
  spec: Type.Object(
    {
      color: KubeType.Enum(['red', 'green', 'blue']),
      size: Type.Integer({ minimum: 1, maximum: 10, format: 'int32' }),
      replicas: Type.Integer({
        minimum: 0,
        ...validations({ rule: '!oldSelf.hasValue() || self >= oldSelf.value()', message: 'replicas may not decrease', optionalOldSelf: true }),
      }),
      range: Type.Object(
        { min: Type.Integer(), max: Type.Integer() },
        { ...validations({ rule: 'self.min <= self.max', messageExpression: "'min ' + string(self.min) + ' exceeds max ' + string(self.max)" }) },
      ),
      mode: Type.String({ maxLength: 20 }),
      ports: KubeType.ListMap(
        Type.Object({ name: Type.String({ maxLength: 15 }), port: Type.Integer({ ...validations({ rule: 'self > 0 && self < 65536', message: 'port must be 1-65535' }) }) }),
        ['name'],
        { maxItems: 16 },
      ),
      tags: KubeType.ListSet(Type.String({ maxLength: 20 }), { maxItems: 10 }),
      args: KubeType.AtomicList(Type.String()),
      threshold: KubeType.IntOrString(),
      note: Type.Optional(KubeType.Nullable(Type.String())),
      labels: Type.Optional(KubeType.Map(Type.String())),
      template: Type.Optional(KubeType.EmbeddedResource()),
      extra: Type.Optional(KubeType.PreserveUnknownFields()),
    },
    { ...validations({ rule: "self.mode != 'forbidden'", reason: 'FieldValueForbidden', fieldPath: '.mode', message: 'mode forbidden is not allowed' }) },
  ),
  status: Type.Object({ replicas: Type.Optional(Type.Integer()), selector: Type.Optional(Type.String()) }),
  validations: [{ rule: "self.metadata.name.startsWith('w-')", message: 'widget names start with w-' }],
  printerColumns: [
    { name: 'Color', type: 'string', jsonPath: '.spec.color' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
  ],
  selectableFields: ['.spec.color'],
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
  otherVersions: {
    v1: { spec: Type.Object({ colour: Type.String() }), deprecated: true, deprecationWarning: 'example.com/v1 Widget is deprecated; use example.com/v2 Widget' },
    v0: { spec: Type.Object({ colour: Type.String() }), served: false },
  },
  conversion: { strategy: 'Webhook', conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'ops', name: 'widget-conversion', path: '/convert' } } },
});
type Widget = ObjectOf<typeof widgets>;

const good = (name = 'w-1'): Widget =>
  widgets.object({
    metadata: { name, namespace: 'default' },
    spec: { color: 'red', size: 3, replicas: 2, range: { min: 1, max: 2 }, mode: 'fast', ports: [{ name: 'http', port: 80 }], tags: ['a'], args: ['x'], threshold: '50%' },
  });

describe('every construct of a CRD version, from one definition', () => {
  it('the generated CRD carries each of them', () => {
    const spec = widgets.crd().spec as { names: object; scope: string; versions: Array<Record<string, unknown>>; conversion: object };
    expect(spec.names).toEqual({ kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget', shortNames: ['wg'], categories: ['all', 'toys'] });
    expect(spec.scope).toBe('Namespaced');
    expect(spec.versions.map((v) => [v['name'], v['served'], v['storage'], v['deprecated'], v['deprecationWarning']])).toEqual([
      ['v2', true, true, undefined, undefined],
      ['v1', true, false, true, 'example.com/v1 Widget is deprecated; use example.com/v2 Widget'],
      ['v0', false, false, undefined, undefined],
    ]);
    const v2 = spec.versions[0];
    expect(v2['subresources']).toEqual({ status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } });
    expect(v2['additionalPrinterColumns']).toEqual([
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Replicas', type: 'integer', priority: 1, jsonPath: '.spec.replicas' },
    ]);
    expect(v2['selectableFields']).toEqual([{ jsonPath: '.spec.color' }]);
    expect(spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { namespace: 'ops', name: 'widget-conversion', path: '/convert' } }, conversionReviewVersions: ['v1'] },
    });
    const props = ((v2['schema'] as { openAPIV3Schema: { properties: { spec: { properties: Record<string, object> } } } }).openAPIV3Schema.properties.spec.properties);
    expect(props['color']).toEqual({ type: 'string', enum: ['red', 'green', 'blue'] });
    expect(props['ports']).toMatchObject({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { required: ['name', 'port'] } });
    expect(props['tags']).toMatchObject({ 'x-kubernetes-list-type': 'set' });
    expect(props['args']).toMatchObject({ 'x-kubernetes-list-type': 'atomic' });
    expect(props['threshold']).toEqual({ 'x-kubernetes-int-or-string': true });
    expect(props['note']).toEqual({ type: 'string', nullable: true });
    expect(props['template']).toEqual({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
  });

  describe('on the fake API server', () => {
    let api: FakeApiServer;
    let custom: CustomObjectsApi;
    const at = { group: 'example.com', version: 'v2', plural: 'widgets', namespace: 'default' };
    beforeEach(async () => {
      api = await startFakeApiServer({ crds: [widgets] });
      custom = api.kubeConfig().makeApiClient(CustomObjectsApi);
    });
    afterEach(() => api.close());

    const refusal = (p: Promise<unknown>): Promise<{ code?: number; message?: string }> =>
      p.then(
        () => ({}),
        (e: { code?: number; body?: string }) => ({ code: e.code, message: (JSON.parse(e.body ?? '{}') as { message?: string }).message }),
      );

    it('accepts a valid Widget, and a field selector on its selectable field finds it', async () => {
      expect(widgets.validate(good())).toEqual([]);
      await custom.createNamespacedCustomObject({ ...at, body: good() });
      await custom.createNamespacedCustomObject({ ...at, body: { ...good('w-2'), spec: { ...good().spec, color: 'blue' } } });
      const red = (await custom.listNamespacedCustomObject({ ...at, fieldSelector: 'spec.color=red' })) as { items: Widget[] };
      expect(red.items.map((w) => w.metadata.name)).toEqual(['w-1']);
    });

    const broken: Array<[string, (w: Widget) => Widget, string]> = [
      ['a rule on the root', (w) => ({ ...w, metadata: { ...w.metadata, name: 'x-1' } }), '<nil>: Invalid value: widget names start with w-'],
      ['a rule with a reason and a field path', (w) => ({ ...w, spec: { ...w.spec, mode: 'forbidden' } }), 'spec.mode: Forbidden: mode forbidden is not allowed'],
      ['a rule with a messageExpression', (w) => ({ ...w, spec: { ...w.spec, range: { min: 5, max: 2 } } }), 'spec.range: Invalid value: min 5 exceeds max 2'],
      ['a rule on the items of a map list', (w) => ({ ...w, spec: { ...w.spec, ports: [{ name: 'http', port: 0 }] } }), 'spec.ports[0].port: Invalid value: 0: port must be 1-65535'],
      ['the keys of a map list', (w) => ({ ...w, spec: { ...w.spec, ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] } }), 'spec.ports[1]: Duplicate value: {"name":"http"}'],
      ['a set', (w) => ({ ...w, spec: { ...w.spec, tags: ['a', 'a'] } }), 'spec.tags[1]: Duplicate value: "a"'],
      ['an enum', (w) => ({ ...w, spec: { ...w.spec, color: 'pink' as 'red' } }), 'spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"'],
      ['a maximum', (w) => ({ ...w, spec: { ...w.spec, size: 11 } }), 'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10'],
    ];
    it.each(broken)('%s: the server refuses with the rule, as validate() said', async (_name, breakIt, expected) => {
      const bad = breakIt(good());
      expect(widgets.validate(bad).map((p) => `${p.field}: ${p.message}`)).toContain(expected);
      const r = await refusal(custom.createNamespacedCustomObject({ ...at, body: bad }));
      expect(r.code).toBe(422);
      expect(r.message).toContain(expected);
    });

    it('a transition rule with optionalOldSelf: replicas may grow, never shrink', async () => {
      await custom.createNamespacedCustomObject({ ...at, body: good() });
      const patch = (replicas: number) =>
        custom.patchNamespacedCustomObject({ ...at, name: 'w-1', body: { spec: { replicas } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await patch(5);
      const r = await refusal(patch(4));
      expect(r.code).toBe(422);
      expect(r.message).toContain('spec.replicas: Invalid value: 4: replicas may not decrease');
      const stored = api.get<Widget>('widgets.example.com', 'default', 'w-1');
      expect(widgets.validate({ ...stored, spec: { ...stored!.spec, replicas: 4 } }, stored).map((p) => p.message)).toEqual(['Invalid value: 4: replicas may not decrease']);
    });
  });
});
