// Services, Endpoints, EndpointSlices, Ingresses, IngressClasses and NetworkPolicies as `kubectl get`
// shows them (kube's printService, printEndpoints, printEndpointSlice, printIngress,
// printIngressClass, printNetworkPolicy).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, wide } from './columns.js';
import { arr, at, createdOf, int, nameOf, obj, str } from './fields.js';
import { formatLabels, formatLabelSelector } from './formats.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

const strings = (v: unknown): string[] => arr(v).map(str);

// The load balancer's IPs (else hostnames), sorted and unique (kube's sets.String.List()).
function loadBalancerAddresses(ingress: unknown): string[] {
  const found = new Set<string>();
  for (const i of arr(ingress).map(obj)) {
    if (str(i.ip)) found.add(str(i.ip));
    else if (str(i.hostname)) found.add(str(i.hostname));
  }
  return [...found].sort();
}

function externalIP(svc: JsonObject): string {
  const external = strings(at(svc, 'spec', 'externalIPs'));
  switch (str(at(svc, 'spec', 'type')) || 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(at(svc, 'status', 'loadBalancer', 'ingress')), ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(at(svc, 'spec', 'externalName'));
    default:
      return '<unknown>';
  }
}

function ports(svc: JsonObject): string {
  const pieces = arr(at(svc, 'spec', 'ports')).map(obj).map((p) => {
    const protocol = str(p.protocol) || 'TCP';
    return int(p.nodePort) > 0 ? `${int(p.port)}:${int(p.nodePort)}/${protocol}` : `${int(p.port)}/${protocol}`;
  });
  return pieces.length > 0 ? pieces.join(',') : '<none>';
}

/**
 * Services: Name, Type, Cluster-IP, External-IP, Port(s), Age | Selector.
 *
 * @example
 * ```ts
 * servicePrinter.row(svc, Date.now()).cells.slice(1, 5); // ['ClusterIP', '10.0.0.12', '<none>', '80/TCP']
 * ```
 */
export const servicePrinter: TablePrinter = {
  columns: [nameColumn, column('Type'), column('Cluster-IP'), column('External-IP'), column('Port(s)'), ageColumn, wide('Selector')],
  row(svc: JsonObject, now: number): PrintedRow {
    // v1's clusterIP wins over clusterIPs[0] (kube's v1 -> internal conversion); type defaults to ClusterIP.
    const clusterIP = str(at(svc, 'spec', 'clusterIP')) || strings(at(svc, 'spec', 'clusterIPs'))[0] || '<none>';
    return {
      cells: [
        nameOf(svc),
        str(at(svc, 'spec', 'type')) || 'ClusterIP',
        clusterIP,
        externalIP(svc),
        ports(svc),
        ageSince(createdOf(svc), now),
        formatLabels(at(svc, 'spec', 'selector')),
      ],
    };
  },
};

// The first three addresses (`ip:port` for each port of a subset), then `+ N more...`.
function formatEndpoints(ep: JsonObject): string {
  const subsets = arr(ep.subsets).map(obj);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map((a) => str(obj(a).ip));
    const subsetPorts = arr(ss.ports).map(obj);
    const targets = subsetPorts.length === 0 ? [undefined] : subsetPorts.map((p) => int(p.port));
    for (const port of targets) {
      count += addresses.length;
      for (const ip of addresses) {
        if (list.length === 3) break;
        list.push(port === undefined ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
      }
    }
  }
  const joined = list.join(',');
  return count > 3 ? `${joined} + ${count - 3} more...` : joined;
}

/**
 * Endpoints: Name, Endpoints (`10.0.0.5:8080,...` then `+ N more...`), Age.
 *
 * @example
 * ```ts
 * endpointsPrinter.row(ep, Date.now()).cells[1]; // '10.0.0.5:8080'
 * ```
 */
export const endpointsPrinter: TablePrinter = {
  columns: [nameColumn, column('Endpoints'), ageColumn],
  row: (ep: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(ep), formatEndpoints(ep), ageSince(createdOf(ep), now)] }),
};

const listWithMore = (all: string[]): string =>
  all.length > 3 ? `${all.slice(0, 3).join(',')} + ${all.length - 3} more...` : all.length === 0 ? '<unset>' : all.join(',');

/**
 * EndpointSlices: Name, AddressType, Ports, Endpoints, Age.
 *
 * @example
 * ```ts
 * endpointSlicePrinter.row(slice, Date.now()).cells.slice(1, 4); // ['IPv4', '8080', '10.0.0.5']
 * ```
 */
export const endpointSlicePrinter: TablePrinter = {
  columns: [nameColumn, column('AddressType'), column('Ports'), column('Endpoints'), ageColumn],
  row(slice: JsonObject, now: number): PrintedRow {
    const slicePorts = arr(slice.ports).map(obj).map((p) => (typeof p.port === 'number' ? String(int(p.port)) : typeof p.name === 'string' ? p.name : '*'));
    const addresses = arr(slice.endpoints).flatMap((e) => strings(obj(e).addresses));
    return { cells: [nameOf(slice), str(slice.addressType), listWithMore(slicePorts), listWithMore(addresses), ageSince(createdOf(slice), now)] };
  },
};

// Up to three non-empty hosts; once three are listed, any further rule makes `+ N more...` (N counts rules).
function hosts(rules: unknown): string {
  const all = arr(rules).map(obj);
  const list: string[] = [];
  let more = false;
  for (const rule of all) {
    if (list.length === 3) more = true;
    if (!more && str(rule.host) !== '') list.push(str(rule.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${all.length - 3} more...` : list.join(',');
}

/**
 * Ingresses: Name, Class, Hosts, Address, Ports (`80` or `80, 443` with TLS), Age.
 *
 * @example
 * ```ts
 * ingressPrinter.row(ing, Date.now()).cells.slice(1, 5); // ['nginx', 'shop.example.com', '', '80, 443']
 * ```
 */
export const ingressPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  row(ing: JsonObject, now: number): PrintedRow {
    return {
      cells: [
        nameOf(ing),
        typeof at(ing, 'spec', 'ingressClassName') === 'string' ? str(at(ing, 'spec', 'ingressClassName')) : '<none>',
        hosts(at(ing, 'spec', 'rules')),
        loadBalancerAddresses(at(ing, 'status', 'loadBalancer', 'ingress')).join(','),
        arr(at(ing, 'spec', 'tls')).length > 0 ? '80, 443' : '80',
        ageSince(createdOf(ing), now),
      ],
    };
  },
};

/**
 * IngressClasses: Name, Controller, Parameters (`Kind.group/name`), Age.
 *
 * @example
 * ```ts
 * ingressClassPrinter.row(ic, Date.now()).cells.slice(1, 3); // ['k8s.io/ingress-nginx', '<none>']
 * ```
 */
export const ingressClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  row(ic: JsonObject, now: number): PrintedRow {
    const p = at(ic, 'spec', 'parameters');
    const group = obj(p).apiGroup;
    const parameters = p === undefined || p === null ? '<none>' : `${str(obj(p).kind)}${typeof group === 'string' ? `.${group}` : ''}/${str(obj(p).name)}`;
    return { cells: [nameOf(ic), str(at(ic, 'spec', 'controller')), parameters, ageSince(createdOf(ic), now)] };
  },
};

/**
 * NetworkPolicies: Name, Pod-Selector, Age.
 *
 * @example
 * ```ts
 * networkPolicyPrinter.row(np, Date.now()).cells[1]; // 'app=web'
 * ```
 */
export const networkPolicyPrinter: TablePrinter = {
  columns: [nameColumn, column('Pod-Selector'), ageColumn],
  row: (np: JsonObject, now: number): PrintedRow => ({
    cells: [nameOf(np), formatLabelSelector(at(np, 'spec', 'podSelector') ?? {}), ageSince(createdOf(np), now)],
  }),
};
