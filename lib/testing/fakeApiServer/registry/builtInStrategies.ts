import type { BuiltInResource } from './builtInResource.js';
import { builtInResourceTable } from './builtInTypes.generated.js';
import { workloadEntries } from './strategies/apps.js';
import { coreEntries } from './strategies/core.js';
import { otherEntries } from './strategies/others.js';
import { builtInStrategy, type StrategyEntry } from './strategies/strategyEntry.js';
import type { Strategy } from './strategy.js';
import type { TypeRules } from './typeRules.js';

// Every built-in type the server serves: each row of the generated table (client-node's models)
// that can be listed (types that cannot be stored, such as reviews, TokenReview, Eviction, Scale
// and Binding, are not served as collections), with its entry and its rules.

const ENTRIES: ReadonlyMap<string, StrategyEntry> = new Map([...coreEntries, ...workloadEntries, ...otherEntries]);

const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * kube's version priority (apimachinery `CompareKubeAwareVersionStrings`): GA before beta before
 * alpha, higher major then higher minor first, anything else last in name order. Negative when
 * `a` comes first.
 *
 * @example
 * ```ts
 * ['v1beta1', 'v1', 'v2'].sort(compareKubeVersions); // ['v2', 'v1', 'v1beta1']
 * ```
 */
export function compareKubeVersions(a: string, b: string): number {
  const ma = VERSION.exec(a);
  const mb = VERSION.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const stability = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  return stability(mb) - stability(ma) || Number(mb[1]) - Number(ma[1]) || Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

const idOf = (r: BuiltInResource): string => (r.group ? `${r.plural}.${r.group}` : r.plural);

/**
 * The built-in strategies, storage version first within each resource (the highest-priority
 * version client-node knows).
 *
 * @example
 * ```ts
 * const types = new ResourceTypes(builtInStrategies(builtInTypeRules));
 * ```
 */
export function builtInStrategies(rules: ReadonlyMap<string, TypeRules>): Strategy[] {
  const rows = builtInResourceTable.filter((r) => r.verbs.includes('list'));
  const sorted = [...rows].sort((a, b) => (idOf(a) === idOf(b) ? compareKubeVersions(a.version, b.version) : idOf(a) < idOf(b) ? -1 : 1));
  return sorted.map((row) => builtInStrategy(row, ENTRIES.get(idOf(row)) ?? {}, rules.get(idOf(row)) ?? {}));
}
