/**
 * rxkube/crd: custom resources defined once in TypeScript (TypeBox schemas), from which come the
 * object type, the CustomResourceDefinition (checked as kube-apiserver checks it), run-time checks
 * of objects, the YAML the `rxkube-crd` bin writes, and the RBAC a controller needs.
 * @packageDocumentation
 */
export { defineCustomResource, isCustomResourceDefinition } from './defineCustomResource.js';
export type {
  Conversion,
  CustomResource,
  CustomResourceDefinitionObject,
  CustomResourceOptions,
  DefinedCustomResource,
  ObjectOf,
  ObjectOfVersion,
  ObjectProblem,
  PrinterColumn,
  ScaleSubresource,
  VersionDefinition,
  VersionedResource,
} from './definitionTypes.js';
export { KubeType, validations, type ListOptions, type ValidationRule } from './kubeType.js';
export { CrdDefinitionError, type CrdProblem } from './crdDefinitionError.js';
export { crdProblems } from './generateCrd.js';
export { toJsonSchemaProps, type JsonSchemaProps } from './toJsonSchemaProps.js';
export { toYaml } from './toYaml.js';
export { crdFiles, definitionsOf, rbacFiles, type GeneratedFile } from './crdFiles.js';
export { controllerRbac, isRbacDeclaration, type RbacDeclaration } from './controllerRbac.js';
