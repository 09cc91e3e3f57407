import type { JsonObject } from '../resources.js';
import { badRequest, failure, notFound, StatusError } from '../status.js';
import type { Subresource } from './strategy.js';
import type { SubresourceConnect, SubresourceHost } from './subresourceAction.js';

// The pods' connect subresources (KK `pkg/registry/core/pod/strategy.go` LogLocation,
// ExecLocation, AttachLocation, PortForwardLocation; `pkg/registry/core/pod/rest/subresources.go`),
// which on a cluster reach the pod's kubelet. The test cluster has no kubelet: kube's refusals
// that come before the kubelet are given as kube gives them (a missing pod 404, a container that
// is not the pod's 400, an unscheduled pod's 400, an exec without a stream upgrade 400); past them
// a log is empty and a stream or a proxied request is refused with a 400 or 503 that says why.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const TEXT = 'text/plain; charset=utf-8';

function podOf(host: SubresourceHost, namespace: string, name: string): JsonObject {
  const pod = host.stored('pods', namespace, name);
  if (!pod) throw notFound({ plural: 'pods', group: '' }, name);
  return pod;
}

const names = (list: unknown): string[] => (Array.isArray(list) ? list.map((c) => String(obj(c).name)) : []);

/** kube's `validateContainer`: the named container, or the only one. */
function containerOf(pod: JsonObject, name: string, wanted: string | null): string {
  const spec = obj(pod.spec);
  const all = [...names(spec.containers), ...names(spec.initContainers), ...names(spec.ephemeralContainers)];
  if (wanted) {
    if (!all.includes(wanted)) throw badRequest(`container ${wanted} is not valid for pod ${name}`);
    return wanted;
  }
  const main = names(spec.containers);
  if (main.length === 1) return main[0];
  throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${main.join(' ')}]`);
}

const log: SubresourceConnect = (host, namespace, name, { query }) => {
  const pod = podOf(host, namespace, name);
  containerOf(pod, name, query.get('container'));
  // No kubelet keeps any output: the log of every container is empty (kube: empty for an unscheduled pod).
  return { code: 200, contentType: TEXT, body: '' };
};

/** exec, attach and portforward: a stream to the kubelet, which the test cluster cannot give. */
const stream =
  (what: 'exec' | 'attach' | 'portforward'): SubresourceConnect =>
  (host, namespace, name, { query, upgrade }) => {
    const pod = podOf(host, namespace, name);
    if (what !== 'portforward') containerOf(pod, name, query.get('container'));
    const node = obj(pod.spec).nodeName;
    if (typeof node !== 'string' || node === '') throw badRequest(`pod ${name} does not have a host assigned`);
    if (!upgrade) throw badRequest('Upgrade request required');
    throw badRequest(`error dialing backend: the test cluster has no kubelet on node "${node}" to ${what === 'portforward' ? 'forward ports' : what} for pod ${name}`);
  };

const proxy: SubresourceConnect = (host, namespace, name) => {
  podOf(host, namespace, name);
  throw new StatusError(failure(503, 'ServiceUnavailable', `the test cluster has no network to proxy to pod ${name}`));
};

const connect = (verbs: Subresource['verbs'], c: SubresourceConnect): Subresource => Object.freeze({ verbs, writes: [], connect: c });

/**
 * The pods' connect subresources, by name.
 *
 * @example
 * ```ts
 * const pods = { subresources: { ...podConnectSubresources } };
 * ```
 */
export const podConnectSubresources: { readonly [name: string]: Subresource } = Object.freeze({
  log: connect(['get'], log),
  exec: connect(['create', 'get'], stream('exec')),
  attach: connect(['create', 'get'], stream('attach')),
  portforward: connect(['create', 'get'], stream('portforward')),
  proxy: connect(['create', 'delete', 'get', 'patch', 'update'], proxy),
});
