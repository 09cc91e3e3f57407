// Helpers for the TypeRules specs: run a type's rules as the pipeline would, and print causes as
// a 422 lists them (`<field>: <body>`).
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import type { FieldError } from '../../../lib/testing/fakeApiServer/status.js';
import type { Allocators, TypeRules } from '../../../lib/testing/fakeApiServer/registry/typeRules.js';
import { builtInTypeRules } from '../../../lib/testing/fakeApiServer/registry/rules/index.js';

export const rulesOf = (id: string): TypeRules => {
  const rules = builtInTypeRules.get(id);
  if (!rules) throw new Error(`no rules for ${id}`);
  return rules;
};

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The object after the type's defaulting (a copy). */
export function defaulted(id: string, obj: JsonObject): JsonObject {
  const copy = clone(obj);
  rulesOf(id).defaults?.(copy);
  return copy;
}

/** Causes as kube's message lists them. */
export const render = (errors: ReadonlyArray<FieldError>): string[] => errors.map((e) => `${e.field}: ${e.body}`);

/** The causes of a create (after defaulting, as the pipeline runs it). */
export function createCauses(id: string, obj: JsonObject): string[] {
  return render(rulesOf(id).validateCreate?.(defaulted(id, obj)) ?? []);
}

/** The causes of an update (both defaulted). */
export function updateCauses(id: string, obj: JsonObject, old: JsonObject): string[] {
  return render(rulesOf(id).validateUpdate?.(defaulted(id, obj), defaulted(id, old)) ?? []);
}

/** An in-memory allocator: cluster IPs from 10.0.0.0/24 (from .10 on), node ports from 30000. */
export function fakeAllocators(): Allocators & { readonly ips: Set<string>; readonly ports: Set<number> } {
  const ips = new Set<string>(['10.0.0.1']);
  const ports = new Set<number>();
  let nextIP = 10;
  let nextPort = 30000;
  return {
    ips,
    ports,
    clusterIP: (family) => {
      if (family !== 'IPv4') return undefined;
      while (ips.has(`10.0.0.${nextIP}`) && nextIP < 255) nextIP++;
      if (nextIP >= 255) return undefined;
      const ip = `10.0.0.${nextIP}`;
      ips.add(ip);
      return ip;
    },
    reserveClusterIP: (ip) => {
      if (ips.has(ip) || !/^10\.0\.0\.\d+$/.test(ip)) return false;
      ips.add(ip);
      return true;
    },
    nodePort: () => {
      while (ports.has(nextPort) && nextPort <= 32767) nextPort++;
      if (nextPort > 32767) return undefined;
      ports.add(nextPort);
      return nextPort;
    },
    reserveNodePort: (port) => {
      if (ports.has(port) || port < 30000 || port > 32767) return false;
      ports.add(port);
      return true;
    },
  };
}
