import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer, type JsonObject, type TypeRules } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

// The one write path (PIPELINE.md §1): every verb (create, update, the three patch types, apply)
// runs the type's rules at kube's stages: defaults after decoding (and after a patch is applied),
// validation and immutability after the strategy, warnings, one 422 listing every cause. Small
// rules of this spec's own stand for the per-type rules (registry/rules/).

type Data = { [k: string]: string };
const dataOf = (obj: JsonObject): Data => (obj.data ?? {}) as Data;

const configMapRules: TypeRules = {
  defaults: (obj) => {
    obj.data = { defaulted: 'yes', ...dataOf(obj) };
  },
  validateCreate: (obj) => (dataOf(obj).bad ? [{ field: 'data.bad', type: 'FieldValueForbidden', body: 'Forbidden: no bad data' }] : []),
  validateUpdate: (obj, old) =>
    dataOf(obj).fixed !== dataOf(old).fixed ? [{ field: 'data.fixed', type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(dataOf(obj).fixed ?? null)}: field is immutable` }] : [],
  warnings: (obj) => (dataOf(obj).warn ? [`data.warn: ${dataOf(obj).warn}`] : []),
};

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const json = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

/** The client-node error's Status. */
async function failure(p: Promise<unknown>): Promise<{ code: number; message: string; causes: unknown }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const status = JSON.parse(String(e.body)) as { message: string; details?: { causes?: unknown } };
    return { code: e.code, message: status.message, causes: status.details?.causes };
  }
  throw new Error('the write succeeded');
}

describe('fake API server: one write path runs the type rules at kube\'s stages, for every verb', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true, typeRules: new Map([['configmaps', configMapRules]]) });
    core = api.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(() => api.close());

  const create = (data: Data, name = 'cm') => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name }, data } });

  it('create defaults the object, validates it with its metadata in one 422, and answers the warnings', async () => {
    const cm = await create({ fixed: 'a' });
    expect(cm.data).toEqual({ defaulted: 'yes', fixed: 'a' });
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'cm')?.data).toEqual({ defaulted: 'yes', fixed: 'a' });
    const bad = await failure(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'Bad', labels: { 'a b': 'c' } }, data: { bad: '1' } } }));
    expect(bad.code).toBe(422);
    expect(bad.message).toMatch(/^ConfigMap "Bad" is invalid: \[metadata\.name: Invalid value: "Bad": .*, metadata\.labels: Invalid value: "a b": .*, data\.bad: Forbidden: no bad data\]$/);
    expect(api.get('configmaps', 'default', 'Bad')).toBeUndefined();
    const warned = await raw(api, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: { metadata: { name: 'w' }, data: { warn: 'careful' } } });
    expect(warned.status).toBe(201);
    expect(warned.headers.warning).toBe('299 - "data.warn: careful"');
  });

  it.each([
    ['update', (c: CoreV1Api, cm: V1ConfigMap, data: Data) => c.replaceNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { ...cm, data } })],
    ['merge patch', (c: CoreV1Api, _cm: V1ConfigMap, data: Data) => c.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { ...data, defaulted: null } } }, merge)],
    ['strategic merge patch', (c: CoreV1Api, _cm: V1ConfigMap, data: Data) => c.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { ...data, defaulted: null } } }, strategic)],
    ['json patch', (c: CoreV1Api, _cm: V1ConfigMap, data: Data) => c.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: [{ op: 'replace', path: '/data', value: data }] }, json)],
    [
      'apply',
      (c: CoreV1Api, _cm: V1ConfigMap, data: Data) =>
        c.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', fieldManager: 'spec', force: true, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data } }, apply),
    ],
  ])('%s: defaulted again after the patch, immutability enforced (422), nothing stored on a refusal', async (_verb, write) => {
    const cm = await create({ fixed: 'a' });
    // The written data leaves `defaulted` out: the defaults put it back.
    const ok = await write(core, cm, { fixed: 'a', other: '1' });
    expect(ok.data).toEqual({ defaulted: 'yes', fixed: 'a', other: '1' });
    const rv = api.resourceVersion;
    const refused = await failure(write(core, ok, { fixed: 'b' }));
    expect(refused).toMatchObject({ code: 422, message: 'ConfigMap "cm" is invalid: data.fixed: Invalid value: "b": field is immutable' });
    expect(api.resourceVersion).toBe(rv);
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'cm')?.data?.fixed).toBe('a');
  });

  it('the same stages run in a dry run: defaults in the answer, the 422 for a bad value, nothing stored', async () => {
    const dry = await core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'd' }, data: { x: '1' } } });
    expect(dry.data).toEqual({ defaulted: 'yes', x: '1' });
    expect(api.get('configmaps', 'default', 'd')).toBeUndefined();
    const bad = await failure(core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'd' }, data: { bad: '1' } } }));
    expect(bad).toMatchObject({ code: 422, message: 'ConfigMap "d" is invalid: data.bad: Forbidden: no bad data' });
    const cm = await create({ fixed: 'a' });
    const immutable = await failure(core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'default', dryRun: 'All', body: { ...cm, data: { fixed: 'b' } } }));
    expect(immutable.code).toBe(422);
  });

  it('defaults run before mutating admission and again after it; validation sees what admission made', async () => {
    const seen: Data[] = [];
    api.admission.register({
      name: 'mutator',
      admit: (a) => {
        seen.push({ ...dataOf(a.object!) });
        const data = { ...dataOf(a.object!) };
        delete data.defaulted; // re-defaulted after this plugin
        if (data.poison) data.bad = 'from admission';
        a.object!.data = data;
      },
    });
    const cm = await create({ x: '1' });
    expect(seen[0]).toEqual({ defaulted: 'yes', x: '1' });
    expect(cm.data).toEqual({ defaulted: 'yes', x: '1' });
    const refused = await failure(create({ poison: '1' }, 'p'));
    expect(refused).toMatchObject({ code: 422, message: 'ConfigMap "p" is invalid: data.bad: Forbidden: no bad data' });
  });
});

describe('fake API server: preconditions on a PUT', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true });
  });
  afterEach(() => api.close());

  it('a PUT naming another uid is kube\'s 409 (a storage precondition), and changes nothing', async () => {
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' }, data: { a: '1' } } });
    const other = { ...cm, metadata: { ...cm.metadata, uid: '00000000-0000-4000-8000-000000000000' }, data: { a: '2' } };
    const r = await failure(core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'default', body: other }));
    expect(r.code).toBe(409);
    expect(r.message).toBe(
      `Operation cannot be fulfilled on configmaps "cm": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-4000-8000-000000000000, UID in object meta: ${cm.metadata?.uid}`,
    );
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'cm')?.data).toEqual({ a: '1' });
  });
});
