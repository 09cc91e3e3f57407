import { validateCustomResourceDefinition } from '../../testing/fakeApiServer/schema/crdValidation.js';
import type { JsonObject } from '../../testing/fakeApiServer/resources.js';
import { jsonPathProblem } from './columnJsonPath.js';
import { CrdDefinitionError, type CrdProblem } from './crdDefinitionError.js';
import type { Conversion, CustomResourceDefinitionObject, PrinterColumn, VersionDefinition } from './definitionTypes.js';
import { toJsonSchemaProps, type JsonSchemaProps } from './toJsonSchemaProps.js';

/**
 * A definition with its defaults resolved: what the CRD is generated from.
 *
 * @example
 * ```ts
 * const r: ResolvedDefinition = { group: 'example.com', kind: 'Backup', plural: 'backups', singular: 'backup',
 *   listKind: 'BackupList', shortNames: [], categories: [], scope: 'Namespaced', storageVersion: 'v1',
 *   versions: [['v1', { spec }]] };
 * ```
 */
export interface ResolvedDefinition {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly listKind: string;
  readonly shortNames: ReadonlyArray<string>;
  readonly categories: ReadonlyArray<string>;
  readonly scope: 'Namespaced' | 'Cluster';
  readonly storageVersion: string;
  /** In the order they are written: the main version first. */
  readonly versions: ReadonlyArray<readonly [string, VersionDefinition]>;
  readonly conversion?: Conversion;
  readonly labels?: { readonly [key: string]: string };
  readonly annotations?: { readonly [key: string]: string };
}

const compact = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
const nonEmpty = <T>(a: ReadonlyArray<T> | undefined): ReadonlyArray<T> | undefined => (a && a.length > 0 ? a : undefined);

/** The root of a version's schema: apiVersion, kind and metadata as kube describes them, then spec and status. */
function rootSchema(v: VersionDefinition): JsonSchemaProps {
  const spec = toJsonSchemaProps(v.spec);
  const status = v.status ? toJsonSchemaProps(v.status) : undefined;
  return compact({
    description: v.description,
    type: 'object',
    required: ['spec'],
    properties: compact({
      apiVersion: {
        description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
        type: 'string',
      },
      kind: {
        description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
        type: 'string',
      },
      metadata: { type: 'object' },
      spec,
      status,
    }),
    'x-kubernetes-validations': nonEmpty(v.validations?.map((r) => compact({ ...r }))),
  });
}

const column = (c: PrinterColumn) => compact({ name: c.name, type: c.type, format: c.format, description: c.description, priority: c.priority, jsonPath: c.jsonPath });

function versionObject(name: string, v: VersionDefinition, storage: boolean): JsonObject {
  const statusOn = v.statusSubresource ?? v.status !== undefined;
  const subresources = statusOn || v.scale ? compact({ status: statusOn ? {} : undefined, scale: v.scale ? compact({ ...v.scale }) : undefined }) : undefined;
  return compact({
    name,
    served: v.served ?? true,
    storage,
    deprecated: v.deprecated,
    deprecationWarning: v.deprecationWarning,
    schema: { openAPIV3Schema: rootSchema(v) },
    subresources,
    additionalPrinterColumns: nonEmpty(v.printerColumns?.map(column)),
    selectableFields: nonEmpty(v.selectableFields?.map((jsonPath) => ({ jsonPath }))),
  });
}

function conversionObject(c: Conversion | undefined): JsonObject | undefined {
  if (!c) return undefined;
  if (c.strategy === 'None') return { strategy: 'None' };
  return { strategy: 'Webhook', webhook: { clientConfig: compact({ ...c.clientConfig }), conversionReviewVersions: [...c.conversionReviewVersions] } };
}

/**
 * The CustomResourceDefinition of a resolved definition, unchecked: keys in a fixed order, so
 * the same definition writes the same bytes.
 *
 * @example
 * ```ts
 * const crd = buildCrd(resolved);
 * ```
 */
export function buildCrd(d: ResolvedDefinition): CustomResourceDefinitionObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: compact({ name: `${d.plural}.${d.group}`, labels: d.labels, annotations: d.annotations }),
    spec: compact({
      group: d.group,
      names: compact({ kind: d.kind, listKind: d.listKind, plural: d.plural, singular: d.singular, shortNames: nonEmpty(d.shortNames), categories: nonEmpty(d.categories) }),
      scope: d.scope,
      versions: d.versions.map(([name, v]) => versionObject(name, v, name === d.storageVersion)),
      conversion: conversionObject(d.conversion),
    }),
  };
}

/** What kube accepts but then misprints: a column path client-go's jsonpath cannot parse. */
function columnParseProblems(crd: CustomResourceDefinitionObject): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const versions = (crd.spec['versions'] ?? []) as ReadonlyArray<{ additionalPrinterColumns?: ReadonlyArray<{ jsonPath?: string }> }>;
  versions.forEach((v, i) =>
    (v.additionalPrinterColumns ?? []).forEach((c, j) => {
      const problem = typeof c.jsonPath === 'string' && c.jsonPath.startsWith('.') ? jsonPathProblem(c.jsonPath) : undefined;
      if (problem) {
        problems.push({
          field: `spec.versions[${i}].additionalPrinterColumns[${j}].jsonPath`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(c.jsonPath)}: unrecognized column definition: ${problem} (kube accepts the CRD, then prints the default columns instead)`,
        });
      }
    }),
  );
  return problems;
}

/**
 * Every reason kube-apiserver would refuse `crd` (the fake API server's own CRD validation:
 * structural schema, CEL compilation and cost, list-map keys, names, versions, columns...), plus
 * printer columns it would accept but not print.
 *
 * @example
 * ```ts
 * crdProblems(buildCrd(resolved)); // [] when kube accepts it
 * ```
 */
export function crdProblems(crd: CustomResourceDefinitionObject): ReadonlyArray<CrdProblem> {
  const fromServer = validateCustomResourceDefinition(crd as unknown as JsonObject).map((e) => ({ field: e.field, reason: e.type, message: e.body }));
  return [...fromServer, ...columnParseProblems(crd)];
}

/**
 * {@link buildCrd}, then {@link crdProblems}: the CRD, or a {@link CrdDefinitionError} naming every problem.
 *
 * @example
 * ```ts
 * const crd = generateCrd(resolved);
 * ```
 */
export function generateCrd(d: ResolvedDefinition): CustomResourceDefinitionObject {
  const crd = buildCrd(d);
  const problems = crdProblems(crd);
  if (problems.length > 0) throw new CrdDefinitionError(crd.metadata.name, problems);
  return crd;
}
