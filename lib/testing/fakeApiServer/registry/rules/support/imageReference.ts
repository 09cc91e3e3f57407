// The part of kubelet's `parsers.ParseImageName` that defaulting needs: the tag of an image
// reference (`latest` when there is neither tag nor digest), or none when the reference does
// not parse (kube then ignores the error and defaults as for a tagged image).

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const PATH = new RegExp(`^${COMPONENT}(?:/${COMPONENT})*$`);
const DOMAIN = /^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[0-9a-fA-F:]+\])(?::[0-9]+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}$/;

/**
 * The tag of an image reference as kube's defaulting reads it: `'latest'` for `nginx`, `'1.27'`
 * for `nginx:1.27`, `''` for a digest-only or unparsable reference.
 *
 * @example
 * ```ts
 * imageTag('registry:5000/team/app'); // 'latest'
 * imageTag('app@sha256:' + 'a'.repeat(64)); // ''
 * ```
 */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const named = at >= 0 ? image.slice(0, at) : image;
  if (at >= 0 && !DIGEST.test(image.slice(at + 1))) return '';
  const slash = named.lastIndexOf('/');
  const lastColon = named.lastIndexOf(':');
  const hasTag = lastColon > slash;
  const name = hasTag ? named.slice(0, lastColon) : named;
  const tag = hasTag ? named.slice(lastColon + 1) : '';
  if (hasTag && !TAG.test(tag)) return '';
  const first = name.indexOf('/');
  const head = first >= 0 ? name.slice(0, first) : '';
  const hasDomain = first >= 0 && (head.includes('.') || head.includes(':') || head === 'localhost' || head !== head.toLowerCase());
  if (hasDomain && !DOMAIN.test(head)) return '';
  if (!PATH.test(hasDomain ? name.slice(first + 1) : name)) return '';
  if (tag === '' && at < 0) return 'latest';
  return tag;
}
