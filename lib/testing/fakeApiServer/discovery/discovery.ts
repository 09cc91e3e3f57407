import { compareKubeVersions } from '../registry/builtInStrategies.js';
import type { Strategy } from '../registry/strategy.js';

// Legacy discovery documents (APISERVER.md §1), built from the served types' strategies: verbs,
// short names, categories (`kubectl get all`) and the subresources each serves.

const versionsOf = (strategies: ReadonlyArray<Strategy>, group: string): string[] =>
  [...new Set(strategies.filter((s) => s.type.group === group).map((s) => s.type.version))].sort(compareKubeVersions);

function resourceList(strategies: ReadonlyArray<Strategy>, group: string, version: string): object | undefined {
  const served = strategies.filter((s) => s.type.group === group && s.type.version === version);
  if (served.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: served.flatMap((s) => {
      const t = s.type;
      const main = {
        name: t.plural,
        singularName: t.singular,
        namespaced: t.namespaced,
        kind: t.kind,
        verbs: s.verbs,
        ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
        ...(s.categories.length ? { categories: s.categories } : {}),
      };
      const subs = Object.entries(s.subresources).map(([name, sub]) => ({
        name: `${t.plural}/${name}`,
        singularName: '',
        namespaced: t.namespaced,
        ...(sub.kind ? { group: sub.kind.group, version: sub.kind.version } : {}),
        kind: sub.kind?.kind ?? t.kind,
        verbs: sub.verbs,
      }));
      return [main, ...subs];
    }),
  };
}

function groupDocument(strategies: ReadonlyArray<Strategy>, name: string): { name: string; versions: object[]; preferredVersion: object } | undefined {
  const versions = versionsOf(strategies, name).map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return versions.length ? { name, versions, preferredVersion: versions[0] } : undefined;
}

/**
 * The discovery document at `pathname` (`/api`, `/api/v1`, `/apis`, `/apis/{g}`, `/apis/{g}/{v}`,
 * `/version`), or undefined for another path. A group's preferred version is its highest by kube's
 * version priority.
 *
 * @example
 * ```ts
 * discoveryDocument('/apis/batch/v1', types.strategies(), '127.0.0.1:6443'); // { kind: 'APIResourceList', ... }
 * ```
 */
export function discoveryDocument(pathname: string, strategies: ReadonlyArray<Strategy>, serverAddress: string): object | undefined {
  const parts = pathname.split('/').filter((p) => p !== '');
  if (parts.length === 1 && parts[0] === 'api') {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
  }
  if (parts.length === 2 && parts[0] === 'api') return resourceList(strategies, '', parts[1]);
  if (parts.length === 1 && parts[0] === 'apis') {
    const groups = [...new Set(strategies.filter((s) => s.type.group).map((s) => s.type.group))].sort();
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => groupDocument(strategies, g)!) };
  }
  if (parts.length === 2 && parts[0] === 'apis') {
    const doc = groupDocument(strategies, parts[1]);
    return doc && { kind: 'APIGroup', apiVersion: 'v1', ...doc };
  }
  if (parts.length === 3 && parts[0] === 'apis') return resourceList(strategies, parts[1], parts[2]);
  if (parts.length === 1 && parts[0] === 'version') {
    return { major: '1', minor: '34', gitVersion: 'v1.34.0-rxkube-fake', gitCommit: '0000000000000000000000000000000000000000', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.24.0', compiler: 'gc', platform: 'linux/amd64' };
  }
  return undefined;
}
