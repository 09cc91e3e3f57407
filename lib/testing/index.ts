/**
 * rxkube/testing: the fake Kubernetes API server and marble helpers for controller tests.
 * @packageDocumentation
 */
import { clientNodeTransport } from '../transport/clientNode.js';
import { provideKubeConfigTransport } from '../transport/kubeConfigTransport.js';

// Node-only, as `rxkube` on Node: a KubeConfig (the fake server's kubeConfig()) gets the client-node
// transport even where the runtime resolved rxkube's browser entry for `rxkube` itself.
provideKubeConfigTransport((kubeConfig) => clientNodeTransport(kubeConfig));

export {
  startFakeApiServer,
  DEFAULT_TOKEN,
  type FakeApiServer,
  type FakeApiServerOptions,
  type FakeList,
  type RecordedRequest,
  type Stored,
  type StoredObjectMeta,
  type AnyObject,
} from './fakeApiServer/server.js';
export type {
  FaultControl,
  FailNextOptions,
  WatchErrorSpec,
  DropEventsSpec,
  DroppableEvent,
} from './fakeApiServer/faults/faults.js';
export { remoteFaults, type RemoteFaultControl } from './fakeApiServer/faults/remoteFaults.js';
export type { FakeToken, DenyRule } from './fakeApiServer/auth/authenticator.js';
export type { Stoppable } from './fakeApiServer/serverLifetime.js';
export type { FakeKubeConfigOptions } from './fakeApiServer/server.js';
export type { TokenRequestSpec } from './fakeApiServer/rbac/tokenRequest.js';
export type { AuthorizationMode } from './fakeApiServer/rbac/accessControl.js';
export type { ClientCertificate, ClientCertificateOptions } from './fakeApiServer/auth/certificates.js';
export type { ResourceDefinition, ResourceRef, ResourceType, JsonObject } from './fakeApiServer/resources.js';
export type { PatchType } from './fakeApiServer/registry/patch.js';
export type { DeleteOptions } from './fakeApiServer/registry/store.js';
export type { AdmissionControl } from './fakeApiServer/fakeApiServer.js';
export type {
  AdmissionAttributes,
  AdmissionOperation,
  AdmissionPlugin,
  AdmissionResponse,
  GroupVersionKind,
  GroupVersionResource,
  MaybePromise,
  UserInfo,
} from './fakeApiServer/admission/attributes.js';
export { AsyncAdmissionError, type AdmissionStage } from './fakeApiServer/admission/chain.js';
export type { WebhookEndpoints, WebhookHandler } from './fakeApiServer/admission/admissionRegistration.js';
export type { InProcessWebhook } from './fakeApiServer/admission/webhookCall.js';
export type { TypeRules, Allocators } from './fakeApiServer/registry/typeRules.js';
export type { FieldError } from './fakeApiServer/status.js';
export { realisticPod } from './fakeApiServer/seedPods.js';
export { seededRandom, type Random } from './fakeApiServer/random.js';
export {
  fakeListWatch,
  listPage,
  describeNotification,
  applyNotifications,
  recordNotifications,
  type FakeListWatch,
  type FakeListWatchScript,
  type NotificationRecorder,
} from './marbles.js';
export { checkClientNode, installedVersions, ClientNodeVersionError } from '../transport/clientNodeCheck.js';
export {
  deploymentFixture,
  replicaSetFor,
  podsFor,
  controllerRef,
  createDeploymentChain,
  type DeploymentChainOptions,
  podFixture,
  type PodFixtureOptions,
} from './fixtures.js';
export { definitionFromCrd } from './fakeApiServer/registry/customResourceDefinitions.js';
export { neverEstablishAnnotation } from './fakeApiServer/controllers/crdEstablisher.js';
export type { PartitionSpec } from './fakeApiServer/faults/partitions.js';
export { memoryLeaseStore, MemoryLeasePartitionError, type MemoryLeaseStore, type MemoryLeaseWrite } from './memoryLeaseStore.js';
export { waitFor, WaitForTimeoutError, type WaitForOptions } from './waitFor.js';
export type { CreateOptions } from './fakeApiServer/registry/store.js';
export type { FieldOwner } from './fakeApiServer/fields/fieldManager.js';
export type { PropagationPolicy } from './fakeApiServer/registry/deletion.js';
export type { GarbageCollectionMode } from './fakeApiServer/controllers/controllers.js';
export { recordTraffic, type RecordTrafficOptions, type TrafficRecorder, type TrafficSpec } from './record/recordTraffic.js';
export {
  parseRecording,
  readRecording,
  RECORDING_FORMAT,
  type Recording,
  type RecordingEntry,
  type RecordedEvent,
  type RecordedObject,
  type RecordedStream,
  type RecordedTraffic,
  type Redaction,
} from './record/recording.js';
export { replayListWatch, type ReplayListWatchOptions } from './record/replayListWatch.js';
export { replaySettleTime, type ReplaySettleOptions } from './record/replaySettleTime.js';
export type { StreamRef } from './record/timeline.js';
export type { ServerReplay, ServerReplayOptions } from './record/replayIntoServer.js';
