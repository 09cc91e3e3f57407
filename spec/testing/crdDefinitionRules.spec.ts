// What kube-apiserver refuses in a CustomResourceDefinition besides structurality and CEL
// (apiextensions' ValidateCustomResourceDefinition): names, versions, printer columns, scale paths,
// selectable fields, conversion, list types and map keys, rule entries. Table-driven on the pure
// function, then once over HTTP through client-node (the 422 a user sees).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { validateCustomResourceDefinition } from '../../lib/testing/fakeApiServer/schema/crdValidation.js';
import type { JsonObject } from '../../lib/testing/fakeApiServer/resources.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { kubeRequest } from './kubeRequest.js';

const specSchema = (spec: JsonObject): JsonObject => ({ type: 'object', properties: { spec, status: { type: 'object', properties: { n: { type: 'integer' } } } } });
const good: JsonObject = { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, tags: { type: 'object', additionalProperties: { type: 'string' } } } };

function crd(version: JsonObject = {}, spec: JsonObject = {}, versions?: JsonObject[]): JsonObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: versions ?? [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: specSchema(good) }, ...version }],
      ...spec,
    },
  };
}

const causes = (c: JsonObject): string[] => validateCustomResourceDefinition(c).map((e) => `${e.field}: ${e.body}`);

describe('validateCustomResourceDefinition: what kube refuses in a CRD', () => {
  it('accepts a complete CRD, singular and listKind defaulted as kube defaults them', () => {
    expect(causes(crd({ subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.n' } } }))).toEqual([]);
  });

  it.each<[string, JsonObject, string]>([
    ['the name is not plural.group', { ...crd(), metadata: { name: 'gadgets.example.com' } }, 'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group'],
    ['a group without a dot', crd({}, { group: 'example' }), 'spec.group: Invalid value: "example": should be a domain with at least one dot'],
    ['an unknown scope', crd({}, { scope: 'Global' }), 'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
    ['a kind with a dot', crd({}, { names: { plural: 'widgets', kind: 'Wid.get' } }), 'spec.names.kind: Invalid value: "Wid.get": may have mixed case, but should otherwise match: a DNS-1035 label'],
    ['a short name with capitals', crd({}, { names: { plural: 'widgets', kind: 'Widget', shortNames: ['WG'] } }), 'spec.names.shortNames[0]: Invalid value: "WG": a DNS-1035 label'],
    ['kind and listKind alike', crd({}, { names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' } }), 'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same'],
    ['a version name that is no label', crd({ name: 'V1' }), 'spec.versions[0].name: Invalid value: "V1": a DNS-1035 label'],
    ['no storage version', crd({ storage: false }), 'spec.versions: Invalid value: must have exactly one version marked as storage version'],
    ['a deprecation warning on a version not deprecated', crd({ deprecationWarning: 'old' }), 'spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions'],
    ['a printer column path without its dot', crd({ additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: 'spec.color' }] }), 'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.color": must be a simple json path starting with .'],
    ['a printer column of an unknown type', crd({ additionalPrinterColumns: [{ name: 'Color', type: 'text', jsonPath: '.spec.color' }] }), 'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string'],
    ['a scale path outside .spec', crd({ subresources: { scale: { specReplicasPath: '.status.n', statusReplicasPath: '.status.n' } } }), 'spec.subresources.scale.specReplicasPath: Invalid value: ".status.n": should be a json path under .spec'],
    ['a selectable field that names no field', crd({ selectableFields: [{ jsonPath: '.spec.shade' }] }), 'spec.selectableFields[0].jsonPath: Invalid value: ".spec.shade": is an invalid path: does not refer to a valid field'],
    ['a selectable field of a map', crd({ selectableFields: [{ jsonPath: '.spec.tags' }] }), 'spec.selectableFields[0].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'],
    ['a webhook conversion without its client config', crd({}, { conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } } }), 'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook'],
    ['a None conversion with review versions', crd({}, { conversion: { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } } }), 'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook'],
  ])('%s', (_name, c, expected) => {
    expect(causes(c).some((e) => e.startsWith(expected))).toBe(true);
  });

  it.each<[string, JsonObject, string]>([
    [
      'a list-map key neither required nor defaulted',
      { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
    ],
    [
      'a list-map key that is no property',
      { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].x-kubernetes-list-map-keys: Invalid value: ["id"]: entries must all be names of item properties',
    ],
    [
      'a set of objects that are not atomic',
      { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].items.x-kubernetes-map-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set',
    ],
    ['a list type on a string', { type: 'string', 'x-kubernetes-list-type': 'atomic' }, 'spec.validation.openAPIV3Schema.properties[spec].properties[x].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified'],
    ['a $ref', { type: 'object', $ref: '#/definitions/x' }, 'spec.validation.openAPIV3Schema.properties[spec].properties[x].$ref: Forbidden: $ref is not supported'],
    ['patternProperties', { type: 'object', patternProperties: { '^a': { type: 'string' } } }, 'spec.validation.openAPIV3Schema.properties[spec].properties[x].patternProperties: Forbidden: patternProperties is not supported'],
    [
      'properties and additionalProperties together',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
    ],
    [
      'a rule field path that names no field',
      { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.b' }] },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].x-kubernetes-validations[0].fieldPath: Invalid value: ".b": must be a valid path',
    ],
    [
      'a transition rule inside an atomic list',
      { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[x]',
    ],
    [
      'optionalOldSelf on a rule without oldSelf',
      { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""', optionalOldSelf: true }] },
      'spec.validation.openAPIV3Schema.properties[spec].properties[x].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule',
    ],
  ])('schema: %s', (_name, x, expected) => {
    expect(causes(crd({ schema: { openAPIV3Schema: specSchema({ type: 'object', properties: { x } }) } }))).toContain(expected);
  });
});

describe('the fake API server refuses such a CRD with kube 422', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer();
  });
  afterEach(() => api.close());

  it('a map list whose key is optional: 422 Invalid naming the key and the rule', async () => {
    const x = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } };
    const body = crd({ schema: { openAPIV3Schema: specSchema({ type: 'object', properties: { x } }) } });
    // Raw JSON through client-node's TLS setup: its model classes spell the x-kubernetes keys their own way.
    const res = await kubeRequest(api.kubeConfig(), '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.text).message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[x].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
    );
  });
});
