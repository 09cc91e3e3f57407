import {
  CoreV1Api,
  CustomObjectsApi,
  EventsV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import {
  builtInResources,
  can,
  clientNodeEventSink,
  controller,
  controllerReference,
  eventRecorder,
  finalizer,
  jsonPatch,
  objectReference,
  owned,
  permissionsOf,
  sharedInformerFactory,
  type ControllerError,
  type Permission,
  type ReconcileContext,
} from 'rxkube';
import type { Observable } from 'rxjs';
import { backups, type Backup } from './backup.js';

export const FINALIZER = 'example.com/backup-cleanup';

/** Where backups are kept, outside the cluster. */
export interface BackupStore {
  /** Deletes every backup taken for this Backup ("namespace/name"). */
  deleteAll(backup: string): Promise<void>;
}

export interface BackupController {
  start(): void;
  stop(): Promise<void>;
  /** What it needs of the API server, for its RBAC role (declared, not found by running it). */
  readonly permissions: ReadonlyArray<Permission>;
  /** Failed reconciles (a 403 when its role lacks a verb) and the controller's other errors. */
  readonly errors$: Observable<ControllerError>;
}

export const configMapName = (backup: Backup) => `${backup.metadata.name}-backup`;

export function backupController(kubeConfig: KubeConfig, store: BackupStore): BackupController {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const factory = sharedInformerFactory(kubeConfig);
  const backupInformer = factory.informerFor(backups); // an Informer<Backup>: the type comes with the definition
  const configMaps = factory.configMaps();
  const recorder = eventRecorder({
    sink: clientNodeEventSink(kubeConfig.makeApiClient(EventsV1Api)),
    reportingController: 'example.com/backup-controller',
    reportingInstance: 'backup-controller-0',
  });
  recorder.errors$.subscribe((e) => console.warn(e.message));

  const where = (backup: Backup) => ({
    group: backups.group,
    version: backups.version,
    plural: backups.plural,
    namespace: backup.metadata.namespace!,
    name: backup.metadata.name!,
  });

  /** Makes the cluster match a live Backup: its ConfigMap, then its status. */
  async function ensure(backup: Backup, ctx: ReconcileContext<Backup>): Promise<void> {
    const namespace = backup.metadata.namespace!;
    const name = configMapName(backup);
    const data = { schedule: backup.spec.schedule };
    const existing = configMaps.lister().byNamespace(namespace).get(name);
    if (!existing) {
      const configMap: V1ConfigMap = {
        metadata: { name, namespace, ownerReferences: [controllerReference(backup, backups)] },
        data,
      };
      // A 409 (someone else made one meanwhile) throws: the key is retried.
      await ctx.track(core.createNamespacedConfigMap({ namespace, body: configMap }));
      recorder.publish({
        type: 'Normal',
        reason: 'ConfigMapCreated',
        action: 'Create',
        note: `created ConfigMap ${name} for schedule ${backup.spec.schedule}`,
        regarding: objectReference(backup, backups),
      });
    } else if (existing.data?.schedule !== data.schedule) {
      // A JSON patch tested on the resourceVersion: a 422 if it changed meanwhile (retried).
      const body = jsonPatch(existing, (draft) => {
        draft.data = data;
      });
      await ctx.track(core.patchNamespacedConfigMap({ namespace, name, body }));
    }

    const status = { configMap: name, observedGeneration: backup.metadata.generation };
    if (backup.status?.configMap === status.configMap && backup.status?.observedGeneration === status.observedGeneration) return;
    await ctx.track(
      custom.patchNamespacedCustomObjectStatus(
        { ...where(backup), body: { status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
  }

  const ctl = controller({
    name: 'backup',
    for: backupInformer,
    forKind: backups,
    owns: [owned(configMaps)],
    // What the reconcile writes through client-node, which rxkube cannot see: its RBAC role needs these.
    permissions: [
      can.create(builtInResources.configMaps),
      can.patch(builtInResources.configMaps),
      can.patchStatus(backups), // the status is a merge patch, never an update
      can.finalize(backups),
      recorder,
    ],
    reconcile: async (_key, ctx) => {
      const backup = ctx.object;
      if (!backup) return; // gone: the finalizer already ran its cleanup
      await finalizer({
        name: FINALIZER,
        object: backup,
        tracker: ctx, // its writes are tracked too
        patch: (b, body) => custom.patchNamespacedCustomObject({ ...where(b), body }),
        reconcile: async (event) => {
          if (event.type === 'apply') await ensure(event.object, ctx);
          else await store.deleteAll(`${event.object.metadata.namespace}/${event.object.metadata.name}`);
        },
      });
    },
  });

  return {
    permissions: permissionsOf(ctl), // the reads of for and owns, and the writes above
    errors$: ctl.errors$,
    start: () => ctl.start(),
    stop: async () => {
      await ctl.stop(); // waits for reconciles in flight
      recorder.close();
      await factory.shutdown(); // closes the informers' watches
    },
  };
}
