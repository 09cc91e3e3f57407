import type { JsonObject, ResourceType } from '../resources.js';
import type { Storage } from '../storage/storage.js';
import { parseStored } from '../storage/storedObject.js';
import type { Allocators } from './typeRules.js';

// The Service registry's allocators (KK pkg/registry/core/service/ipallocator and portallocator;
// PIPELINE.md §4): cluster IPs from --service-cluster-ip-range (envtest's default, 10.0.0.0/24;
// 10.0.0.1 is the `kubernetes` Service's) and node ports from 30000-32767. What is taken is read
// from the stored Services, so a dry run (nothing stored) reserves nothing and a deleted Service
// frees its addresses; within one write, what it reserved is taken too.

const NET = [10, 0, 0];
const FIRST_HOST = 2; // .0 is the network, .1 the kubernetes Service
const LAST_HOST = 254; // .255 is the broadcast address
const PORT_BASE = 30000;
const PORT_SIZE = 2768;

const ipOf = (host: number): string => [...NET, host].join('.');
const hostOf = (ip: string): number | undefined => {
  const m = /^10\.0\.0\.(\d{1,3})$/.exec(ip);
  const host = m ? Number(m[1]) : undefined;
  return host !== undefined && host >= FIRST_HOST && host <= LAST_HOST ? host : undefined;
};

/** The cluster IPs and node ports the stored Services hold. */
function taken(storage: Storage, services: ResourceType | undefined, except: string | undefined): { ips: Set<string>; ports: Set<number> } {
  const ips = new Set<string>(['10.0.0.1']);
  const ports = new Set<number>();
  if (!services) return { ips, ports };
  for (const s of storage.snapshot(services, storage.resourceVersion)) {
    if (s.key === except) continue;
    const spec = (parseStored(s).spec ?? {}) as { clusterIP?: unknown; clusterIPs?: unknown; ports?: unknown; healthCheckNodePort?: unknown };
    for (const ip of [spec.clusterIP, ...(Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [])]) if (typeof ip === 'string') ips.add(ip);
    for (const p of Array.isArray(spec.ports) ? (spec.ports as JsonObject[]) : []) if (typeof p.nodePort === 'number') ports.add(p.nodePort);
    if (typeof spec.healthCheckNodePort === 'number') ports.add(spec.healthCheckNodePort);
  }
  return { ips, ports };
}

/**
 * The allocators of the server: `begin()` gives one write its view (what is stored plus what it
 * reserves itself; an updated Service's own addresses are its to keep); nothing else is kept,
 * the stored Services are the record.
 *
 * @example
 * ```ts
 * const allocators = new Allocations(storage, () => types.find('', 'v1', 'services')).begin();
 * allocators.clusterIP('IPv4'); // '10.0.0.2'
 * ```
 */
export class Allocations {
  constructor(
    private readonly storage: Storage,
    private readonly services: () => ResourceType | undefined,
  ) {}

  /** One write's allocators; `updating` is the key of the Service it updates, whose own addresses are free to it. */
  begin(updating?: string): Allocators {
    let view: { ips: Set<string>; ports: Set<number> } | undefined;
    const state = () => (view ??= taken(this.storage, this.services(), updating));
    return {
      clusterIP: (family) => {
        if (family !== 'IPv4') return undefined;
        const { ips } = state();
        for (let host = FIRST_HOST; host <= LAST_HOST; host++) {
          if (!ips.has(ipOf(host))) {
            ips.add(ipOf(host));
            return ipOf(host);
          }
        }
        return undefined;
      },
      reserveClusterIP: (ip) => {
        const { ips } = state();
        if (hostOf(ip) === undefined || ips.has(ip)) return false;
        ips.add(ip);
        return true;
      },
      nodePort: () => {
        const { ports } = state();
        for (let p = PORT_BASE; p < PORT_BASE + PORT_SIZE; p++) {
          if (!ports.has(p)) {
            ports.add(p);
            return p;
          }
        }
        return undefined;
      },
      reserveNodePort: (port) => {
        const { ports } = state();
        if (port < PORT_BASE || port >= PORT_BASE + PORT_SIZE || ports.has(port)) return false;
        ports.add(port);
        return true;
      },
    };
  }
}
