// apimachinery's IsDNS1035Label and IsDNS1123Subdomain, with kube's texts: names of objects (the
// registry's ObjectMeta checks) and of CRD parts (versions, plural, kind, short names, group).

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const SUBDOMAIN_TEXT =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_1035_TEXT =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/**
 * Why `s` is not a DNS-1035 label (apimachinery's `IsDNS1035Label`, its texts), or undefined.
 *
 * @example
 * ```ts
 * dns1035LabelProblem('v1'); // undefined
 * dns1035LabelProblem('1v'); // 'a DNS-1035 label must consist of ...'
 * ```
 */
export function dns1035LabelProblem(s: string): string | undefined {
  if (s.length > 63) return 'must be no more than 63 characters';
  return LABEL_1035.test(s) ? undefined : LABEL_1035_TEXT;
}

/**
 * Why `s` is not a lowercase RFC 1123 subdomain (apimachinery's `IsDNS1123Subdomain`), or undefined.
 *
 * @example
 * ```ts
 * subdomainProblem('example.com'); // undefined
 * ```
 */
export function subdomainProblem(s: string): string | undefined {
  if (s.length > 253) return 'must be no more than 253 characters';
  return SUBDOMAIN.test(s) ? undefined : SUBDOMAIN_TEXT;
}
