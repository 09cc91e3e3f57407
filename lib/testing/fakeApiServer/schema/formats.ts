import { isIP } from 'node:net';

// The string formats kube-openapi's strfmt registry checks on custom resources (a string that does
// not match is `... in body must be of type <format>: "<value>"`). Formats it does not know are
// ignored, as the real server ignores them.

const re = (r: RegExp) => (s: string) => r.test(s);

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const HOSTNAME = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d|w))+$|^\d+\s*(ns|us|µs|ms|s|sec|second|seconds|m|min|mins|minute|minutes|h|hr|hour|hours|d|day|days|w|wk|week|weeks)$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}([0-9a-fA-F]{2})$|^([0-9a-fA-F]{2}[:-]){7}([0-9a-fA-F]{2})$|^([0-9a-fA-F]{4}\.){2}([0-9a-fA-F]{4})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEXCOLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGBCOLOR = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/;
const BSON = /^[0-9a-f]{24}$/i;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[3]);
}

function validDateTime(s: string): boolean {
  return DATE_TIME.test(s) && validDate(s.slice(0, 10)) && !Number.isNaN(Date.parse(s.replace(' ', 'T')));
}

function validCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const v = isIP(ip);
  if (v === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v === 4 ? 32 : 128);
}

function validUri(s: string): boolean {
  try {
    return new URL(s).protocol.length > 1;
  } catch {
    return false;
  }
}

const CHECKS: { readonly [format: string]: (s: string) => boolean } = {
  byte: re(BASE64),
  date: validDate,
  'date-time': validDateTime,
  datetime: validDateTime,
  duration: re(DURATION),
  uuid: re(UUID),
  uuid3: (s) => UUID.test(s) && s.replace(/-/g, '')[12] === '3',
  uuid4: (s) => UUID.test(s) && s.replace(/-/g, '')[12] === '4',
  uuid5: (s) => UUID.test(s) && s.replace(/-/g, '')[12] === '5',
  email: re(EMAIL),
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4: (s) => isIP(s) === 4,
  ipv6: (s) => isIP(s) === 6,
  cidr: validCidr,
  mac: re(MAC),
  uri: validUri,
  hexcolor: re(HEXCOLOR),
  rgbcolor: (s) => {
    const m = RGBCOLOR.exec(s);
    return !!m && [m[1], m[2], m[3]].every((c) => Number(c) <= 255);
  },
  bsonobjectid: re(BSON),
};

/**
 * Whether `value` is a valid string of `format`; true for formats the server does not check.
 *
 * @example
 * ```ts
 * formatValid('email', 'a@b.c'); // true
 * formatValid('ipv4', '300.1.1.1'); // false
 * ```
 */
export function formatValid(format: string, value: string): boolean {
  const check = CHECKS[format];
  return check === undefined || check(value);
}
