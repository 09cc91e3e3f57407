import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, index, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { validateEndpointIP, validateLegacyIP } from '../support/ips.js';
import { listAt, objectsAt, semanticEqual, setDefaultString, stringAt } from '../support/json.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../support/names.js';

// Endpoints (core/v1): SetDefaults_Endpoints (port protocol TCP) and validateEndpointSubsets
// (an update that leaves the subsets as they were is not re-validated, as in kube).

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function defaultEndpoints(ep: JsonObject): void {
  for (const [subset] of objectsAt(ep, 'subsets')) for (const [port] of objectsAt(subset, 'ports')) setDefaultString(port, 'protocol', 'TCP');
}

function validateAddress(address: JsonObject, path: string): FieldError[] {
  const ip = stringAt(address, 'ip');
  const errs = validateLegacyIP(child(path, 'ip'), ip);
  const hostname = stringAt(address, 'hostname');
  if (hostname !== '') errs.push(...invalidEach(child(path, 'hostname'), hostname, isDNS1123Label(hostname)));
  if (typeof address.nodeName === 'string') errs.push(...invalidEach(child(path, 'nodeName'), address.nodeName, isDNS1123Subdomain(address.nodeName)));
  return [...errs, ...validateEndpointIP(ip, child(path, 'ip'))];
}

function validateSubsets(ep: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [subset, i] of objectsAt(ep, 'subsets')) {
    const p = index('subsets', i);
    if (listAt(subset, 'addresses').length === 0 && listAt(subset, 'notReadyAddresses').length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    for (const key of ['addresses', 'notReadyAddresses']) for (const [a, j] of objectsAt(subset, key)) errs.push(...validateAddress(a, index(child(p, key), j)));
    const requireName = listAt(subset, 'ports').length > 1;
    for (const [port, j] of objectsAt(subset, 'ports')) {
      const pp = index(child(p, 'ports'), j);
      const name = stringAt(port, 'name');
      if (requireName && name === '') errs.push(required(child(pp, 'name')));
      else if (name !== '') errs.push(...invalidEach(child(pp, 'name'), name, isDNS1123Label(name)));
      const n = typeof port.port === 'number' ? port.port : 0;
      errs.push(...invalidEach(child(pp, 'port'), n, isValidPortNum(n)));
      const protocol = stringAt(port, 'protocol');
      if (protocol === '') errs.push(required(child(pp, 'protocol')));
      else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(child(pp, 'protocol'), protocol, PROTOCOLS));
      if (typeof port.appProtocol === 'string') errs.push(...invalidEach(child(pp, 'appProtocol'), port.appProtocol, isQualifiedName(port.appProtocol)));
    }
  }
  return errs;
}

/**
 * The Endpoints' rules.
 *
 * @example
 * ```ts
 * endpointsRules.validateCreate?.({ subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] });
 * // [subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)]
 * ```
 */
export const endpointsRules: TypeRules = {
  defaults: defaultEndpoints,
  validateCreate: validateSubsets,
  validateUpdate: (ep, old) => (semanticEqual(ep.subsets, old.subsets) ? [] : validateSubsets(ep)),
};
