/**
 * rxkube/testing: the fake Kubernetes API server and marble helpers for controller tests.
 * @packageDocumentation
 */
export {};
