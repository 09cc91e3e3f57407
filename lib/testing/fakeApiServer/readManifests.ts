import { readFile } from 'node:fs/promises';
import type { JsonObject } from './resources.js';
import { yamlDocuments } from './wire/yaml.js';

/**
 * The objects in a manifest file: JSON (one object, or a `List`), or YAML with one or more
 * documents. YAML is read with js-yaml, which @kubernetes/client-node depends on (rxkube adds no
 * YAML parser of its own).
 *
 * @example
 * ```ts
 * const crds = await readManifests('widgets-crd.yaml');
 * ```
 */
export async function readManifests(file: string): Promise<JsonObject[]> {
  const text = await readFile(file, 'utf8');
  let docs: unknown[];
  if (/^\s*[{[]/.test(text)) {
    docs = [JSON.parse(text) as unknown];
  } else {
    docs = await yamlDocuments(text);
  }
  const objects: JsonObject[] = [];
  for (const doc of docs) {
    if (doc === null || doc === undefined) continue; // an empty document (a trailing ---)
    if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: a document is not an object`);
    const items = (doc as JsonObject)['items'];
    if ((doc as JsonObject)['kind'] === 'List' && Array.isArray(items)) objects.push(...(items as JsonObject[]));
    else objects.push(doc as JsonObject);
  }
  return objects;
}
