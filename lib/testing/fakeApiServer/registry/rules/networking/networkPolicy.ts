import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { ensureObject, isObject, listAt, objectAt, objectsAt, setDefault, stringAt } from '../support/json.js';
import { validateLabelSelector } from '../support/labels.js';
import { isValidPortName, isValidPortNum } from '../support/names.js';

// NetworkPolicy (networking.k8s.io/v1): SetDefaults_NetworkPolicy (policyTypes from the rules
// present), port protocol TCP; ValidateNetworkPolicySpec.

function defaultNetworkPolicy(np: JsonObject): void {
  const spec = ensureObject(np, 'spec');
  for (const dir of ['ingress', 'egress']) {
    for (const [rule] of objectsAt(spec, dir)) for (const [port] of objectsAt(rule, 'ports')) setDefault(port, 'protocol', 'TCP');
  }
  if (listAt(spec, 'policyTypes').length === 0) {
    spec.policyTypes = listAt(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

function validatePort(port: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port.protocol;
  if (typeof protocol === 'string' && !['TCP', 'UDP', 'SCTP'].includes(protocol)) errs.push(notSupported(child(path, 'protocol'), protocol, ['TCP', 'UDP', 'SCTP']));
  const p = port.port;
  const endPort = port.endPort;
  if (typeof p === 'number') {
    errs.push(...invalidEach(child(path, 'port'), p, isValidPortNum(p)));
    if (typeof endPort === 'number') {
      if (endPort < p) errs.push(invalidValue(child(path, 'endPort'), p, 'must be greater than or equal to `port`'));
      errs.push(...invalidEach(child(path, 'endPort'), endPort, isValidPortNum(endPort)));
    }
  } else if (typeof p === 'string') {
    if (typeof endPort === 'number') errs.push(invalidValue(child(path, 'endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...invalidEach(child(path, 'port'), p, isValidPortName(p)));
  } else if (typeof endPort === 'number') errs.push(invalidValue(child(path, 'endPort'), endPort, 'may not be specified when `port` is not specified'));
  return errs;
}

function validatePeer(peer: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    if (peer[key] === undefined || peer[key] === null) continue;
    peers++;
    errs.push(...validateLabelSelector(peer[key], child(path, key)));
  }
  const ipBlock = objectAt(peer, 'ipBlock');
  if (ipBlock) {
    peers++;
    if (stringAt(ipBlock, 'cidr') === '') errs.push(required(child(child(path, 'ipBlock'), 'cidr')));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && ipBlock) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateNetworkPolicy(np: JsonObject): FieldError[] {
  const spec = objectAt(np, 'spec') ?? {};
  const errs = validateLabelSelector(isObject(spec.podSelector) ? spec.podSelector : {}, 'spec.podSelector');
  for (const [dir, peerKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    for (const [rule, i] of objectsAt(spec, dir)) {
      const p = index(child('spec', dir), i);
      for (const [port, j] of objectsAt(rule, 'ports')) errs.push(...validatePort(port, index(child(p, 'ports'), j)));
      for (const [peer, j] of objectsAt(rule, peerKey)) errs.push(...validatePeer(peer, index(child(p, peerKey), j)));
    }
  }
  const types = listAt(spec, 'policyTypes');
  if (types.length > 2) return [...errs, invalidValue('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(index('spec.policyTypes', i), t, ['Ingress', 'Egress']));
  });
  return errs;
}

/**
 * The NetworkPolicy's rules.
 *
 * @example
 * ```ts
 * const np = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', spec: { podSelector: {}, egress: [{}] } };
 * networkPolicyRules.defaults?.(np); // np.spec.policyTypes = ['Ingress', 'Egress']
 * ```
 */
export const networkPolicyRules: TypeRules = {
  defaults: defaultNetworkPolicy,
  validateCreate: validateNetworkPolicy,
  validateUpdate: (np) => validateNetworkPolicy(np),
};
