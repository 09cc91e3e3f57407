// What recordTraffic blanks so that a recording can travel: every copy of a Secret's values. A
// Secret holds them in `data` and `stringData`, and `kubectl apply` repeats the applied manifest,
// values included, in the `kubectl.kubernetes.io/last-applied-configuration` annotation. Keys stay
// (they say what the Secret holds, and a controller's test may read them). managedFields name fields
// only (FieldsV1 is a set of paths such as `f:data: {f:password: {}}`), so they hold no value.
import type { RecordedObject, Redaction } from './recording.js';

/** kubectl's annotation with the last applied manifest (client-side apply). */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The redactions recordTraffic applies unless `redactSecrets: false`.
 *
 * @example
 * ```ts
 * SECRET_REDACTIONS[0].fields; // ['data', 'stringData', "metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] (its data and stringData)"]
 * ```
 */
export const SECRET_REDACTIONS: ReadonlyArray<Redaction> = [
  { kind: 'Secret', fields: ['data', 'stringData', `metadata.annotations['${LAST_APPLIED}'] (its data and stringData)`] },
];

const isObject = (v: unknown): v is { readonly [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

// The same keys, every value "".
const blank = (v: unknown): unknown => (isObject(v) ? Object.fromEntries(Object.keys(v).map((k) => [k, ''])) : v);

function blankValues(o: { readonly [k: string]: unknown }): { [k: string]: unknown } {
  return { ...o, ...('data' in o ? { data: blank(o.data) } : {}), ...('stringData' in o ? { stringData: blank(o.stringData) } : {}) };
}

// The annotation's manifest with its values blanked, written back as kubectl writes it (JSON and a
// newline); text that is not a JSON object may hold values anywhere, so it is blanked whole.
function blankLastApplied(text: unknown): string {
  if (typeof text !== 'string') return '';
  try {
    const manifest: unknown = JSON.parse(text);
    return isObject(manifest) ? `${JSON.stringify(blankValues(manifest))}\n` : '';
  } catch {
    return '';
  }
}

/**
 * A Secret with every copy of its values blanked (see {@link SECRET_REDACTIONS}); any other object
 * as it is.
 *
 * @example
 * ```ts
 * redactSecret({ kind: 'Secret', data: { password: 'aHVudGVyMg==' } }); // { kind: 'Secret', data: { password: '' } }
 * ```
 */
export function redactSecret(obj: RecordedObject): RecordedObject {
  if (obj.kind !== 'Secret') return obj;
  const out = blankValues(obj);
  const meta = obj.metadata;
  if (isObject(meta) && isObject(meta.annotations) && LAST_APPLIED in meta.annotations) {
    out.metadata = { ...meta, annotations: { ...meta.annotations, [LAST_APPLIED]: blankLastApplied(meta.annotations[LAST_APPLIED]) } };
  }
  return out;
}
