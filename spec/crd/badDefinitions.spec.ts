// A definition kube would refuse fails when its CRD is generated, naming the field path and the
// rule (kube's words, from the fake API server's own CRD validation), never at `kubectl apply`.
import { describe, expect, it } from '@jest/globals';
import { Type, type TSchema } from '@sinclair/typebox';
import { CrdDefinitionError, defineCustomResource, KubeType, validations, type PrinterColumn } from '../../lib/crd/definition/index.js';

const SPEC = 'spec.validation.openAPIV3Schema.properties[spec]';

function problemsOf(spec: TSchema, printerColumns: PrinterColumn[] = []): string[] {
  const def = defineCustomResource({ group: 'example.com', kind: 'Gadget', version: 'v1', spec, printerColumns });
  try {
    def.crd();
  } catch (e) {
    if (!(e instanceof CrdDefinitionError)) throw e;
    expect(e.crdName).toBe('gadgets.example.com');
    for (const p of e.problems) expect(e.message).toContain(`  - ${p.field}: ${p.message}`);
    return e.problems.map((p) => `${p.field}: ${p.message}`);
  }
  throw new Error('the CRD was generated');
}

describe('bad definitions fail at generation, naming the field path and the rule', () => {
  it('a non-structural construct: a union of a string and a boolean', () => {
    expect(problemsOf(Type.Object({ flag: Type.Union([Type.String(), Type.Boolean()]) }))).toEqual(
      expect.arrayContaining([
        `${SPEC}.properties[flag].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${SPEC}.properties[flag].type: Required value: must not be empty for specified object fields`,
      ]),
    );
  });

  it('a $ref (a TypeBox Ref): kube supports none', () => {
    const Port = Type.Integer({ $id: 'Port' });
    expect(problemsOf(Type.Object({ port: Type.Ref(Port) }))).toContain(`${SPEC}.properties[port].$ref: Forbidden: $ref is not supported`);
  });

  it('a CEL rule that does not compile', () => {
    const spec = Type.Object({ size: Type.Integer() }, { ...validations({ rule: 'self.sise > 1' }) });
    expect(problemsOf(spec)).toEqual([
      `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: "self.sise > 1": compilation failed: ERROR: <input>:1:6: undefined field 'sise'`,
    ]);
  });

  it('a CEL rule over the cost limit (unbounded strings in an unbounded list)', () => {
    const spec = Type.Object({ names: Type.Array(Type.String(), { ...validations({ rule: "self.all(x, self.all(y, x.contains(y)))" }) }) });
    const problems = problemsOf(spec);
    expect(problems).toContain(`${SPEC}.properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x`);
  });

  it('a list-map key that is neither required nor defaulted', () => {
    const spec = Type.Object({ ports: KubeType.ListMap(Type.Object({ name: Type.Optional(Type.String()), port: Type.Integer() }), ['name']) });
    expect(problemsOf(spec)).toEqual([
      `${SPEC}.properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
  });

  it('a printer column whose path does not start with a dot (kube 422)', () => {
    expect(problemsOf(Type.Object({ size: Type.Integer() }), [{ name: 'Size', type: 'integer', jsonPath: 'spec.size' }])).toEqual([
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
    ]);
  });

  it('a printer column whose path client-go cannot parse (kube would silently print the default columns)', () => {
    expect(problemsOf(Type.Object({ size: Type.Integer() }), [{ name: 'Size', type: 'integer', jsonPath: '.spec.ports[0' }])).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].jsonPath: Invalid value: ".spec.ports[0": unrecognized column definition: unterminated array (kube accepts the CRD, then prints the default columns instead)',
    ]);
  });

  it('names and versions kube refuses: a kind with a dot, two storage versions', () => {
    const def = defineCustomResource({
      group: 'example.com',
      kind: 'Gad.get',
      plural: 'gadgets',
      version: 'v1',
      spec: Type.Object({ a: Type.String() }),
      otherVersions: { v2: { spec: Type.Object({ a: Type.String() }) } },
      storageVersion: 'v3',
    });
    expect(() => def.crd()).toThrow(CrdDefinitionError);
    expect(() => def.crd()).toThrow('spec.versions: Invalid value: must have exactly one version marked as storage version');
    expect(() => def.crd()).toThrow('spec.names.kind: Invalid value: "Gad.get": may have mixed case, but should otherwise match');
  });
});
