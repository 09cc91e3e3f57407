import type { TypeRules } from '../typeRules.js';

// The built-in types' rules (defaults, validation, immutability, warnings, allocation), by type id
// (`pods`, `deployments.apps`), read from kubernetes/kubernetes by the per-type rules work
// (issue 33 parts 1-2). The write pipeline (registry/store.ts) runs them at kube's stages; a type
// without an entry is stored as its metadata checks allow.

/**
 * Every built-in type's rules, by type id.
 *
 * @example
 * ```ts
 * builtInTypeRules.get('configmaps')?.validateUpdate;
 * ```
 */
export const builtInTypeRules: ReadonlyMap<string, TypeRules> = new Map<string, TypeRules>();
