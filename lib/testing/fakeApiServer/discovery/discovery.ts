import type { ResourceType } from '../resources.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Legacy discovery documents (APISERVER.md §1), built from the served types. */
export function discoveryDocument(pathname: string, types: ReadonlyArray<ResourceType>, serverAddress: string): object | undefined {
  const parts = pathname.split('/').filter((p) => p !== '');
  const resources = (group: string, version: string) => {
    const ts = types.filter((t) => t.group === group && t.version === version);
    if (ts.length === 0) return undefined;
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources: ts.flatMap((t) => [
        { name: t.plural, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: VERBS, ...(t.shortNames.length ? { shortNames: t.shortNames } : {}) },
        { name: `${t.plural}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] },
      ]),
    };
  };
  const groupDoc = (name: string) => {
    const versions = [...new Set(types.filter((t) => t.group === name).map((t) => t.version))].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return versions.length ? { kind: 'APIGroup', apiVersion: 'v1', name, versions, preferredVersion: versions[0] } : undefined;
  };
  if (parts.length === 1 && parts[0] === 'api') {
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
  }
  if (parts.length === 2 && parts[0] === 'api') return resources('', parts[1]);
  if (parts.length === 1 && parts[0] === 'apis') {
    const groups = [...new Set(types.filter((t) => t.group).map((t) => t.group))].sort();
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => { const d = groupDoc(g)!; return { name: d.name, versions: d.versions, preferredVersion: d.preferredVersion }; }) };
  }
  if (parts.length === 2 && parts[0] === 'apis') return groupDoc(parts[1]);
  if (parts.length === 3 && parts[0] === 'apis') return resources(parts[1], parts[2]);
  if (parts.length === 1 && parts[0] === 'version') {
    return { major: '1', minor: '34', gitVersion: 'v1.34.0-rxkube-fake', gitCommit: '0000000000000000000000000000000000000000', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.24.0', compiler: 'gc', platform: 'linux/amd64' };
  }
  return undefined;
}
