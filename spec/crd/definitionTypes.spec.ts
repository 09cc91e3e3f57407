// The object type comes from the definition: a wrong spec field does not compile (each
// `@ts-expect-error` below must meet an error, or `npm run typecheck` and ts-jest fail), and the
// factory's informer of a definition is typed with it, with no type argument.
import { describe, expect, it } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { defineCustomResource, KubeType, type ObjectOf } from '../../lib/crd/definition/index.js';
import type { Informer } from '../../lib/informer/informer.js';
import { sharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import type { Transport } from '../../lib/transport/transport.js';
import { backups, type Backup } from '../../examples/backup/backup.js';

describe('the type of a custom resource comes from its definition', () => {
  it('spec and status fields are typed; metadata is the whole ObjectMeta', () => {
    const b: Backup = backups.object({ metadata: { name: 'nightly', namespace: 'default', finalizers: ['example.com/cleanup'] }, spec: { schedule: '0 3 * * *' } });
    // @ts-expect-error: `cron` is no field of a Backup's spec (it is `schedule`)
    const wrongField: Backup['spec'] = { cron: '0 3 * * *' };
    // @ts-expect-error: `schedule` is a string
    const wrongType: Backup['spec'] = { schedule: 3 };
    // @ts-expect-error: a Backup's status has no `phase`
    const wrongStatus: NonNullable<Backup['status']> = { phase: 'Done' };
    const generation: number | undefined = b.metadata.generation;
    const observed: number | undefined = b.status?.observedGeneration;
    expect([b.apiVersion, b.kind, generation, observed, wrongField, wrongType, wrongStatus].slice(0, 2)).toEqual(['example.com/v1', 'Backup']);
  });

  it('KubeType constructs have their TypeScript types', () => {
    const things = defineCustomResource({
      group: 'example.com',
      kind: 'Thing',
      version: 'v1',
      spec: Type.Object({ mode: KubeType.Enum(['a', 'b']), size: KubeType.IntOrString(), note: KubeType.Nullable(Type.String()), labels: KubeType.Map(Type.Integer()) }),
    });
    type Thing = ObjectOf<typeof things>;
    const ok: Thing['spec'] = { mode: 'a', size: '10%', note: null, labels: { x: 1 } };
    // @ts-expect-error: 'c' is not one of the enum's values
    const badEnum: Thing['spec'] = { mode: 'c', size: 1, note: null, labels: {} };
    // @ts-expect-error: a map of integers
    const badMap: Thing['spec'] = { mode: 'a', size: 1, note: 'x', labels: { x: 'one' } };
    expect([ok, badEnum, badMap].length).toBe(3);
    expect(things.crd().metadata.name).toBe('things.example.com');
  });

  it('factory.informerFor(definition) is an Informer of its object type, with no type argument', async () => {
    const transport: Transport = { request: () => Promise.reject(new Error('not used')) } as unknown as Transport;
    const factory = sharedInformerFactory(transport);
    const informer: Informer<Backup> = factory.informerFor(backups);
    const first = informer.lister().list()[0];
    // @ts-expect-error: typed as a Backup, so an unknown spec field does not compile
    void first?.spec.cron;
    expect(informer.lister().list()).toEqual([]);
    await factory.shutdown();
  });
});
