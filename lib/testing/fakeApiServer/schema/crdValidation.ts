import { dns1035LabelProblem, subdomainProblem } from './dnsNames.js';
import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import { compileCrdSchemas, type CompiledSchema } from './crdSchemas.js';
import { duplicate, forbidden, index, invalidValue, notSupported, required, tooMany } from './fieldErrors.js';
import { statusRootErrors } from './openApiSchemaRules.js';
import { jsonEqual } from './schemaValidation.js';
import { validFieldPath } from './validFieldPath.js';

// apiextensions-apiserver's ValidateCustomResourceDefinition (pkg/apis/apiextensions/validation/
// validation.go) for a CRD create or update: names, group, scope, versions, subresources, printer
// columns, selectable fields, conversion, and (through compileCrdSchemas) the schemas. Paths are
// those of kube's internal form: a per-version field that every version sets alike is validated
// once, at the top level (`spec.additionalPrinterColumns[0]...`), as kube's v1 conversion moves it.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
/**
 * Kube's MaxSelectableFields: how many selectable fields a version may have.
 *
 * @example
 * ```ts
 * fields.length <= MAX_SELECTABLE_FIELDS;
 * ```
 */
export const MAX_SELECTABLE_FIELDS = 8;

/** validateSimpleJSONPath: kube only asks for a leading dot. */
function simpleJsonPathErrors(s: string, path: string): FieldError[] {
  if (s === '') return [invalidValue(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalidValue(path, s, 'must be a simple json path starting with .')];
  return [];
}

/**
 * A printer column as kube's ValidateCustomResourceColumnDefinition checks it (at `path`).
 *
 * @example
 * ```ts
 * columnErrors({ name: 'Age', type: 'date', jsonPath: 'metadata.creationTimestamp' }, 'spec.additionalPrinterColumns[0]');
 * // [{ field: 'spec.additionalPrinterColumns[0].JSONPath', body: 'Invalid value: "metadata.creationTimestamp": must be a simple json path starting with .', ... }]
 * ```
 */
export function columnErrors(col: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (str(col['name']) === '') errors.push(required(`${path}.name`));
  const type = str(col['type']);
  if (type === '') errors.push(required(`${path}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
  else if (!COLUMN_TYPES.includes(type)) errors.push(invalidValue(`${path}.type`, type, `must be one of ${COLUMN_TYPES.join(',')}`));
  const format = str(col['format']);
  if (format !== '' && !COLUMN_FORMATS.includes(format)) errors.push(invalidValue(`${path}.format`, format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  const jsonPath = str(col['jsonPath']);
  if (jsonPath === '') errors.push(required(`${path}.JSONPath`));
  else errors.push(...simpleJsonPathErrors(jsonPath, `${path}.JSONPath`));
  return errors;
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
function subresourceErrors(sub: unknown, path: string): FieldError[] {
  const scale = isObject(sub) ? sub['scale'] : undefined;
  if (!isObject(scale)) return [];
  const errors: FieldError[] = [];
  const under = (key: string, prefixes: string[], where: string, needed: boolean) => {
    const p = str(scale[key]);
    if (p === '') {
      if (needed) errors.push(required(`${path}.scale.${key}`));
      return;
    }
    const simple = simpleJsonPathErrors(p, `${path}.scale.${key}`);
    if (simple.length > 0) errors.push(...simple);
    else if (!prefixes.some((x) => p.startsWith(x))) errors.push(invalidValue(`${path}.scale.${key}`, p, `should be a json path under ${where}`));
  };
  under('specReplicasPath', ['.spec.'], '.spec', true);
  under('statusReplicasPath', ['.status.'], '.status', true);
  under('labelSelectorPath', ['.spec.', '.status.'], 'either .spec or .status', false);
  return errors;
}

/** ValidateCustomResourceSelectableFields, against the version's compiled schema. */
function selectableFieldErrors(fields: unknown[], schema: CompiledSchema | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = index(path, i);
    const jsonPath = isObject(f) ? str(f['jsonPath']) : '';
    if (jsonPath === '') {
      errors.push(required(`${at}.jsonPath`));
      return;
    }
    if (!schema) return;
    const found = validFieldPath(jsonPath, schema.structural, false);
    if (found.error !== undefined || found.path === undefined) {
      errors.push(invalidValue(`${at}.jsonPath`, jsonPath, `is an invalid path: ${found.error ?? 'does not refer to a valid field'}`));
      return;
    }
    if (found.path.split(/[.[]/)[0] === 'metadata') errors.push(invalidValue(`${at}.jsonPath`, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(found.schema?.type ?? '')) {
      errors.push(invalidValue(`${at}.jsonPath`, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(found.path)) errors.push(duplicate(`${at}.jsonPath`, jsonPath));
    unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errors.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errors;
}

/** validateDeprecationWarning. */
function deprecationErrors(v: JsonObject, path: string): FieldError[] {
  const warning = v['deprecationWarning'];
  if (warning === undefined || warning === null) return [];
  if (v['deprecated'] !== true) return [invalidValue(path, warning, 'can only be set for deprecated versions')];
  const text = str(warning);
  const errors: FieldError[] = [];
  if (text.length > 256) errors.push(invalidValue(path, text, 'must be <= 256 characters long'));
  if (text.length === 0) errors.push(invalidValue(path, text, 'must not be an empty string'));
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(text);
  if (control) errors.push(invalidValue(path, text, `must only contain printable UTF-8 characters; control character found at index ${control.index}`));
  return errors;
}

/** validateCustomResourceConversion (v1's `conversion.webhook.*` is kube's internal `conversion.webhookClientConfig` / `conversionReviewVersions`). */
function conversionErrors(conversion: unknown, path: string): FieldError[] {
  if (!isObject(conversion)) return [];
  const errors: FieldError[] = [];
  const strategy = str(conversion['strategy']);
  if (strategy === '') errors.push(required(`${path}.strategy`));
  else if (strategy !== 'None' && strategy !== 'Webhook') errors.push(notSupported(`${path}.strategy`, strategy, ['None', 'Webhook']));
  const webhook = isObject(conversion['webhook']) ? conversion['webhook'] : undefined;
  const clientConfig = webhook && isObject(webhook['clientConfig']) ? webhook['clientConfig'] : undefined;
  const reviewVersions = webhook ? list(webhook['conversionReviewVersions']) : [];
  if (strategy === 'Webhook') {
    if (!clientConfig) errors.push(required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else if ((clientConfig['url'] === undefined) === (clientConfig['service'] === undefined)) {
      errors.push(required(`${path}.webhookClientConfig`, 'exactly one of url or service is required'));
    }
    if (reviewVersions.length === 0) errors.push(required(`${path}.conversionReviewVersions`));
    const seen = new Set<unknown>();
    reviewVersions.forEach((v, i) => {
      if (seen.has(v)) errors.push(invalidValue(index(`${path}.conversionReviewVersions`, i), v, 'duplicate version'));
      seen.add(v);
    });
    if (reviewVersions.length > 0 && !reviewVersions.some((v) => v === 'v1' || v === 'v1beta1')) {
      errors.push(invalidValue(`${path}.conversionReviewVersions`, reviewVersions, 'must include at least one of v1, v1beta1'));
    }
  } else {
    if (clientConfig) errors.push(forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errors.push(forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errors;
}

/** ValidateCustomResourceDefinitionNames, on names already defaulted. */
function namesErrors(names: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const k of ['plural', 'singular', 'kind', 'listKind']) if (str(names[k]) === '') errors.push(required(`${path}.${k}`));
  for (const k of ['plural', 'singular']) {
    const problem = str(names[k]) === '' ? undefined : dns1035LabelProblem(str(names[k]));
    if (problem) errors.push(invalidValue(`${path}.${k}`, names[k], problem));
  }
  for (const k of ['kind', 'listKind']) {
    const problem = str(names[k]) === '' ? undefined : dns1035LabelProblem(str(names[k]).toLowerCase());
    if (problem) errors.push(invalidValue(`${path}.${k}`, names[k], `may have mixed case, but should otherwise match: ${problem}`));
  }
  for (const k of ['shortNames', 'categories']) {
    list(names[k]).forEach((n, i) => {
      const problem = dns1035LabelProblem(str(n));
      if (problem) errors.push(invalidValue(index(`${path}.${k}`, i), n, problem));
    });
  }
  if (str(names['kind']) !== '' && names['kind'] === names['listKind']) errors.push(invalidValue(`${path}.listKind`, names['listKind'], 'kind and listKind may not be the same'));
  return errors;
}

/** Names as kube defaults them before validation (SetDefaults_CustomResourceDefinitionSpec). */
function defaultedNames(spec: JsonObject): JsonObject {
  const names = isObject(spec['names']) ? spec['names'] : {};
  const kind = str(names['kind']);
  return {
    ...names,
    ...(str(names['singular']) === '' ? { singular: kind.toLowerCase() } : {}),
    ...(str(names['listKind']) === '' && kind !== '' ? { listKind: `${kind}List` } : {}),
  };
}

/** A per-version field that every version sets alike: validated once, at the top level. */
const hoisted = (versions: JsonObject[], field: string): boolean => versions.length > 0 && versions.every((v) => jsonEqual(v[field], versions[0][field]));

/**
 * Every 422 cause kube gives for this CustomResourceDefinition (apiextensions.k8s.io/v1) on
 * create: its name, group, scope, names, versions (unique names, exactly one storage version,
 * deprecation warnings), schemas (structural, kube's node rules, CEL rules compiled within their
 * cost, defaults), subresources, printer columns, selectable fields and conversion. Empty when
 * kube accepts it.
 *
 * @example
 * ```ts
 * validateCustomResourceDefinition(crd).map((e) => `${e.field}: ${e.body}`);
 * // ['spec.versions: Invalid value: ...: must have exactly one version marked as storage version']
 * ```
 */
export function validateCustomResourceDefinition(crd: JsonObject): FieldError[] {
  const spec = isObject(crd['spec']) ? crd['spec'] : {};
  const errors: FieldError[] = [];
  const names = defaultedNames(spec);
  const name = str(isObject(crd['metadata']) ? crd['metadata']['name'] : undefined);
  if (name !== '' && name !== `${str(names['plural'])}.${str(spec['group'])}`) errors.push(invalidValue('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  const group = str(spec['group']);
  const groupProblem = group === '' ? undefined : subdomainProblem(group);
  if (group === '') errors.push(required('spec.group'));
  else if (groupProblem) errors.push(invalidValue('spec.group', group, groupProblem));
  else if (group.split('.').length < 2) errors.push(invalidValue('spec.group', group, 'should be a domain with at least one dot'));
  const scope = str(spec['scope']);
  if (scope === '') errors.push(required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errors.push(notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  const versions = list(spec['versions']).filter(isObject);
  const compiled = compileCrdSchemas(crd);
  const statusOn = (v: JsonObject) => isObject(v['subresources']) && isObject(v['subresources']['status']);
  const schemaOf = (v: JsonObject) => (isObject(v['schema']) && isObject(v['schema']['openAPIV3Schema']) ? v['schema']['openAPIV3Schema'] : undefined);
  const together = { schema: hoisted(versions, 'schema'), subresources: hoisted(versions, 'subresources'), columns: hoisted(versions, 'additionalPrinterColumns'), selectable: hoisted(versions, 'selectableFields') };
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    const vname = str(v['name']);
    const problem = dns1035LabelProblem(vname);
    if (problem) errors.push(invalidValue(`${at}.name`, vname, problem));
    errors.push(...deprecationErrors(v, `${at}.deprecationWarning`));
    const schema = schemaOf(v);
    if (!together.schema && schema && statusOn(v)) errors.push(...statusRootErrors(schema, `${at}.schema.openAPIV3Schema`));
    if (!together.subresources) errors.push(...subresourceErrors(v['subresources'], `${at}.subresources`));
    if (!together.columns) list(v['additionalPrinterColumns']).forEach((c, j) => isObject(c) && errors.push(...columnErrors(c, `${at}.additionalPrinterColumns[${j}]`)));
    if (!together.selectable) errors.push(...selectableFieldErrors(list(v['selectableFields']), compiled.versions.get(vname), `${at}.selectableFields`));
  });
  const first = versions[0];
  const firstSchema = first ? schemaOf(first) : undefined;
  if (together.schema && firstSchema && versions.some(statusOn)) errors.push(...statusRootErrors(firstSchema, 'spec.validation.openAPIV3Schema'));
  errors.push(...compiled.errors);
  const seen = new Set<string>();
  if (versions.some((v) => seen.size === seen.add(str(v['name'])).size)) errors.push(invalidValue('spec.versions', versions, 'must contain unique version names', true));
  if (versions.filter((v) => v['storage'] === true).length !== 1) errors.push(invalidValue('spec.versions', versions, 'must have exactly one version marked as storage version', true));
  errors.push(...namesErrors(names, 'spec.names'));
  if (first && together.subresources) errors.push(...subresourceErrors(first['subresources'], 'spec.subresources'));
  if (first && together.columns) list(first['additionalPrinterColumns']).forEach((c, j) => isObject(c) && errors.push(...columnErrors(c, `spec.additionalPrinterColumns[${j}]`)));
  if (first && together.selectable && list(first['selectableFields']).length > 0) {
    errors.push(...selectableFieldErrors(list(first['selectableFields']), compiled.versions.get(str(first['name'])), 'spec.selectableFields'));
  }
  errors.push(...conversionErrors(spec['conversion'], 'spec.conversion'));
  return errors;
}
