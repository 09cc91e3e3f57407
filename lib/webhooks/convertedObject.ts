import type { KubeObject, ObjectMeta } from '../meta/kubeObject.js';

/**
 * A converter's output made into what kube accepts, or why it cannot be (kube's words): its
 * `apiVersion` set to the desired one, its `kind` the input's when it has none; name, namespace,
 * uid and kind must not change (`must have the same name: a != b`); its metadata is the input's
 * with only its own labels and annotations kept, as kube restores it.
 *
 * @example
 * ```ts
 * finishConvertedObject(input, output, 'example.com/v1'); // the object to return, or 'must have the same name: a != b'
 * ```
 */
export function finishConvertedObject(input: KubeObject, output: KubeObject, desiredAPIVersion: string): KubeObject | string {
  const kind = output.kind ?? input.kind;
  if (kind !== input.kind) return `must have the same kind: ${input.kind ?? ''} != ${kind ?? ''}`;
  const inMeta: ObjectMeta = input.metadata ?? {};
  const outMeta: ObjectMeta | undefined = output.metadata;
  if (outMeta) {
    for (const [field, label] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
      if ((outMeta[field] ?? '') !== (inMeta[field] ?? '')) return `must have the same ${label}: ${inMeta[field] ?? ''} != ${outMeta[field] ?? ''}`;
    }
  }
  const { labels: _labels, annotations: _annotations, ...kept } = inMeta;
  const labels = outMeta ? outMeta.labels : inMeta.labels;
  const annotations = outMeta ? outMeta.annotations : inMeta.annotations;
  const metadata: ObjectMeta = { ...kept, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) };
  return { ...output, apiVersion: desiredAPIVersion, kind, metadata };
}
