import { isIP } from 'node:net';
import type { FieldError } from '../../../status.js';
import { invalidValue } from '../../../schema/fieldErrors.js';

// IP address checks of core validation (IsValidIPForLegacyField, ValidateEndpointIP) and the
// IPv4 arithmetic the Service rules need (is an address in the service CIDR).

/**
 * `IsValidIPForLegacyField`: a parsable IPv4 or IPv6 address (or one the old object already had).
 *
 * @example
 * ```ts
 * validateLegacyIP('spec.clusterIPs[0]', '10.0.0.300'); // [...: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)]
 * ```
 */
export function validateLegacyIP(field: string, value: string, oldValues: ReadonlyArray<string> = []): FieldError[] {
  if (oldValues.includes(value) || isIP(value) !== 0) return [];
  return [invalidValue(field, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

function ipv4Octets(ip: string): number[] | undefined {
  if (isIP(ip) !== 4) return undefined;
  return ip.split('.').map((o) => Number.parseInt(o, 10));
}

/**
 * `ValidateEndpointIP`: an address that can be a destination (not unspecified, loopback or
 * link-local).
 *
 * @example
 * ```ts
 * validateEndpointIP('127.0.0.1', 'spec.externalIPs[0]'); // [...: may not be in the loopback range (127.0.0.0/8, ::1/128)]
 * ```
 */
export function validateEndpointIP(ip: string, field: string): FieldError[] {
  const family = isIP(ip);
  if (family === 0) return [invalidValue(field, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const o = ipv4Octets(ip);
  const lower = ip.toLowerCase();
  const unspecified = o ? o.every((x) => x === 0) : /^[0:]+$/.test(lower);
  const loopback = o ? o[0] === 127 : lower === '::1' || /^(0+:){7}0*1$/.test(lower);
  const linkLocal = o ? o[0] === 169 && o[1] === 254 : /^fe[89ab][0-9a-f]?:/.test(lower);
  const linkLocalMulticast = o ? o[0] === 224 && o[1] === 0 && o[2] === 0 : /^ff02:/.test(lower);
  if (unspecified) errs.push(invalidValue(field, ip, `may not be unspecified (${ip})`));
  if (loopback) errs.push(invalidValue(field, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocal) errs.push(invalidValue(field, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) errs.push(invalidValue(field, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/**
 * The IP family of an address (`IPv6` when it has a colon), as kube's `familyOf`.
 *
 * @example
 * ```ts
 * ipFamilyOf('10.0.0.7'); // 'IPv4'
 * ```
 */
export const ipFamilyOf = (ip: string): 'IPv4' | 'IPv6' => (isIP(ip) === 6 ? 'IPv6' : 'IPv4');

/**
 * Whether an IPv4 address lies in an IPv4 CIDR.
 *
 * @example
 * ```ts
 * inIPv4Cidr('10.0.0.7', '10.0.0.0/24'); // true
 * ```
 */
export function inIPv4Cidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const a = ipv4Octets(ip);
  const b = ipv4Octets(base);
  if (!a || !b) return false;
  const bits = Number.parseInt(bitsText, 10);
  const toInt = (o: number[]): number => ((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (toInt(a) & mask) === (toInt(b) & mask);
}
