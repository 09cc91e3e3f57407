/**
 * rxkube: Kubernetes informers for TypeScript, built on RxJS.
 * @packageDocumentation
 */
export * from './errors.js';
export * from './meta/kubeObject.js';
export * from './meta/keys.js';
export * from './fifo/delta.js';
export * from './fifo/deletedFinalStateUnknown.js';
export * from './fifo/fifoOutput.js';
export * from './reflector/reflectorEvent.js';
export * from './listwatch/resource.js';
export * from './listwatch/watchEvent.js';
export * from './listwatch/listWatch.js';
export * from './labels/labelSelectorParseError.js';
export * from './labels/labelRequirement.js';
export * from './labels/labelSelector.js';
export * from './labels/parseLabelSelector.js';
export * from './fifo/knownObjects.js';
export * from './fifo/fifoQueue.js';
export * from './fifo/deltaFifoQueue.js';
export * from './fifo/orderedFifoQueue.js';
export * from './fifo/createFifoQueue.js';
export * from './fifo/deltaFifo.js';
export * from './lister/lister.js';
export * from './operators/ofType.js';
export * from './operators/applied.js';
export * from './operators/touched.js';
export * from './operators/predicateFilter.js';
export * from './operators/keyedView.js';
export * from './operators/listed.js';
export * from './store/deepFreeze.js';
export * from './store/indexers.js';
export * from './store/indexErrors.js';
export * from './store/storeChange.js';
export { Store, StoreMutator, createStore } from './store/store.js';
export type { StoreOptions } from './store/store.js';
export * from './store/storeWriter.js';
export * from './factory/builtInResources.js';
export * from './factory/informerWithLister.js';
export * from './factory/sharedInformerFactory.js';
export * from './reflector/backoff.js';
export * from './reflector/errorClassification.js';
export * from './reflector/listAll.js';
export * from './reflector/relistResourceVersion.js';
export * from './reflector/reflectorError.js';
export * from './reflector/reflectorStatus.js';
export * from './reflector/reflector.js';
