import { invalid } from '../status.js';
import { notSupported } from './fieldErrors.js';
import type { FieldValidation, WriteOptions } from './customResourceSchemas.js';

const MODES = ['', 'Ignore', 'Strict', 'Warn'];
const OPTIONS_KIND: { readonly [verb: string]: string } = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions' };

/**
 * The write options of a request's query: `fieldValidation` (`Ignore`, `Warn`, `Strict`; missing
 * or empty is `Warn`, the server's default), and a sink for the response's warnings. An unknown
 * value, on any type, is the 422 apimachinery's ValidateCreateOptions (Update-, Patch-) gives.
 *
 * @example
 * ```ts
 * writeOptionsOf(new URLSearchParams('fieldValidation=Strict'), 'create').fieldValidation; // 'Strict'
 * ```
 */
export function writeOptionsOf(query: URLSearchParams, verb: string): WriteOptions & { readonly warnings: string[] } {
  const raw = query.get('fieldValidation') ?? '';
  if (!MODES.includes(raw) && OPTIONS_KIND[verb]) {
    throw invalid(OPTIONS_KIND[verb], 'meta.k8s.io', '', [notSupported('fieldValidation', raw, MODES)]);
  }
  return { fieldValidation: (raw || 'Warn') as FieldValidation, warnings: [] };
}

/**
 * The `Warning` headers (RFC 7234, code 299, agent `-`) for the warnings a write collected.
 *
 * @example
 * ```ts
 * warningHeaders({ warnings: ['unknown field "spec.foo"'] }); // { Warning: ['299 - "unknown field \\"spec.foo\\""'] }
 * ```
 */
export function warningHeaders(options: WriteOptions): { [h: string]: string[] } {
  const w = options.warnings ?? [];
  return w.length === 0 ? {} : { Warning: w.map((t) => `299 - ${JSON.stringify(t)}`) };
}
