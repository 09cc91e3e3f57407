import type { ServerResponse } from 'node:http';
import type { JsonObject, ResourceType } from '../resources.js';
import { failure, StatusError } from '../status.js';
import { attributesOf, modelClassOf, type ClientNodeModels } from '../discovery/openapi/modelSchemas.js';
import { loadClientNode } from '../../../transport/clientNodeLoad.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The paths of the fields of `value` that model type `type` does not have (`spec.foo`, `spec.containers[0].bar`). */
function unknownFields(models: ClientNodeModels, type: string, value: unknown, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((v, i) => unknownFields(models, array[1], v, `${path}[${i}]`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (isObject(value)) for (const [k, v] of Object.entries(value)) unknownFields(models, map[1], v, `${path}[${k}]`, out);
    return;
  }
  const attrs = attributesOf(models, type);
  if (!attrs || !isObject(value)) return; // a scalar, any, or a type mismatch (not this check's business)
  for (const [k, v] of Object.entries(value)) {
    const attr = attrs.find((a) => a.baseName === k);
    const p = path ? `${path}.${k}` : k;
    if (!attr) out.push(p);
    else unknownFields(models, attr.type, v, p, out);
  }
}

/**
 * The fieldValidation of a create or update of a built-in type, as kube-apiserver's decoder does
 * it: fields the type does not have are, with `Strict`, a 400 `strict decoding error: unknown field
 * "spec.foo"`; with `Warn` (the default) a `Warning` header each; with `Ignore` nothing. The types
 * come from client-node's models. Custom resources are left to their CRD's schema.
 */
export async function checkFieldValidation(type: ResourceType, body: unknown, query: URLSearchParams, res: ServerResponse): Promise<void> {
  const mode = query.get('fieldValidation') ?? 'Warn';
  if (!type.builtIn || mode === 'Ignore' || !isObject(body)) return;
  // An unknown mode was refused before (schema/writeQuery.ts: the 422 of ValidateCreateOptions).
  if (mode !== 'Strict' && mode !== 'Warn') return;
  const models = (await loadClientNode()) as unknown as ClientNodeModels;
  const cls = modelClassOf(models, type.group, type.version, type.kind);
  if (!cls) return;
  const unknown: string[] = [];
  unknownFields(models, cls, body, '', unknown);
  if (unknown.length === 0) return;
  const each = unknown.map((f) => `unknown field "${f}"`);
  if (mode === 'Strict') {
    throw new StatusError(failure(400, 'BadRequest', `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${each.join(', ')}`));
  }
  res.setHeader('Warning', each.map((w) => `299 - ${JSON.stringify(w)}`));
}
