import { RxkubeError } from '../../errors.js';

/**
 * One reason a generated CRD would be refused (or would misbehave once applied): the field path
 * in the CRD, kube's reason (`FieldValueRequired`, ...), and the rule in kube's words.
 *
 * @example
 * ```ts
 * const p: CrdProblem = {
 *   field: 'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].default',
 *   reason: 'FieldValueRequired',
 *   message: 'Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
 * };
 * ```
 */
export interface CrdProblem {
  readonly field: string;
  readonly reason: string;
  readonly message: string;
}

/**
 * A custom resource definition that kube-apiserver would refuse (a schema that is not structural,
 * a CEL rule that does not compile or costs too much, a list-map key that is neither required nor
 * defaulted, a bad printer column...), found when the CRD is generated rather than at
 * `kubectl apply`. `problems` lists every cause with its field path and rule; the message says them
 * all, one a line.
 *
 * @example
 * ```ts
 * try { backups.crd(); }
 * catch (e) { if (e instanceof CrdDefinitionError) for (const p of e.problems) console.error(p.field, p.message); }
 * ```
 */
export class CrdDefinitionError extends RxkubeError {
  /** The CRD's name (`backups.example.com`). */
  readonly crdName: string;
  readonly problems: ReadonlyArray<CrdProblem>;

  constructor(crdName: string, problems: ReadonlyArray<CrdProblem>) {
    const lines = problems.map((p) => `  - ${p.field}: ${p.message}`).join('\n');
    super(
      'CrdDefinitionError',
      `the CustomResourceDefinition ${crdName} would be refused by kube-apiserver (${problems.length} problem${problems.length === 1 ? '' : 's'}); fix the definition:\n${lines}`,
    );
    this.crdName = crdName;
    this.problems = problems;
  }
}
