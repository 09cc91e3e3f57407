import type { JsonObject } from '../../../resources.js';
import { child, index } from '../../../schema/fieldErrors.js';
import { isObject, objectAt, objectsAt, semanticEqual, stringAt } from '../support/json.js';
import { isDNS1123Label } from '../support/names.js';
import { isWholeQuantity, parseQuantity } from '../support/quantities.js';

// The Warning headers kube adds for Pods and pod templates (pkg/api/pod/warnings.go): the ones
// a controller's manifests hit most (fractional bytes, env hidden by a later entry, duplicate
// ports). Deprecated volume types and annotations are left out.

type Visit = (container: JsonObject, path: string) => void;

function visitContainers(spec: JsonObject, specPath: string, visit: Visit): void {
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const [c, i] of objectsAt(spec, key)) visit(c, index(child(specPath, key), i));
  }
}

function fractionalBytes(c: JsonObject, path: string): string[] {
  const warnings: string[] = [];
  for (const resource of ['memory', 'ephemeral-storage']) {
    for (const list of ['limits', 'requests']) {
      const v = objectAt(objectAt(c, 'resources'), list)?.[resource];
      const q = typeof v === 'string' ? parseQuantity(v) : undefined;
      if (q && !isWholeQuantity(q)) warnings.push(`${index(child(child(path, 'resources'), list), resource)}: fractional byte value "${v as string}" is invalid, must be an integer`);
    }
  }
  return warnings;
}

function hiddenEnv(c: JsonObject, path: string): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const [item, i] of objectsAt(c, 'env')) {
    const name = stringAt(item, 'name');
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    const ref = `$(${name})`;
    const value = stringAt(item, 'value');
    if (item.valueFrom !== undefined || value === ref || !value.includes(ref)) {
      warnings.push(`${index(child(path, 'env'), i)}: hides previous definition of "${name}", which may be dropped when using apply`);
    }
  }
  return warnings;
}

function portWarnings(spec: JsonObject, specPath: string): string[] {
  const warnings: string[] = [];
  const byPort = new Map<string, Array<{ field: string; hostIP: string; hostPort: number }>>();
  const names = new Map<string, string>();
  visitContainers(spec, specPath, (c, path) => {
    for (const [port, i] of objectsAt(c, 'ports')) {
      const field = index(child(path, 'ports'), i);
      const hostIP = stringAt(port, 'hostIP');
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      const key = `${String(port.containerPort ?? 0)}/${stringAt(port, 'protocol')}`;
      for (const other of byPort.get(key) ?? []) {
        if (hostIP === other.hostIP && hostPort === other.hostPort) warnings.push(`${field}: duplicate port definition with ${other.field}`);
        else if (hostPort === 0 || other.hostPort === 0) warnings.push(`${field}: overlapping port definition with ${other.field}`);
        else if (hostPort === other.hostPort && (hostIP === '') !== (other.hostIP === '')) warnings.push(`${field}: dangerously ambiguous port definition with ${other.field}`);
      }
      byPort.set(key, [...(byPort.get(key) ?? []), { field, hostIP, hostPort }]);
    }
  });
  visitContainers(spec, specPath, (c, path) => {
    for (const [port, i] of objectsAt(c, 'ports')) {
      const name = stringAt(port, 'name');
      if (name === '') continue;
      const field = index(child(path, 'ports'), i);
      const other = names.get(name);
      if (other) warnings.push(`${field}: duplicate port name "${name}" with ${other}, services and probes that select ports by name will use ${other}`);
      else names.set(name, field);
    }
  });
  return warnings;
}

/**
 * The warnings for a PodSpec at `specPath` (`spec` for a Pod, `spec.template.spec` for a template).
 *
 * @example
 * ```ts
 * podSpecWarnings({ containers: [{ env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] }] }, 'spec');
 * // ['spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply']
 * ```
 */
export function podSpecWarnings(spec: JsonObject | undefined, specPath: string): string[] {
  if (!spec) return [];
  const warnings: string[] = [];
  visitContainers(spec, specPath, (c, path) => warnings.push(...fractionalBytes(c, path), ...hiddenEnv(c, path)));
  return [...warnings, ...portWarnings(spec, specPath)];
}

/**
 * The warning for a workload whose name is not a DNS label (its pods take the name), as the
 * strategies of Pods, ReplicaSets, Deployments, Jobs, CronJobs and ReplicationControllers add it.
 *
 * @example
 * ```ts
 * dnsLabelNameWarning('web.v2', 'Pod names and hostnames');
 * // ['metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]']
 * ```
 */
export function dnsLabelNameWarning(name: unknown, usedIn: string): string[] {
  if (typeof name !== 'string' || name === '') return [];
  const msgs = isDNS1123Label(name);
  return msgs.length === 0 ? [] : [`metadata.name: this is used in ${usedIn}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/**
 * What {@link templateWorkloadWarnings} looks at: the object, its template, and the old ones on update.
 *
 * @example
 * ```ts
 * const input: TemplateWarningInput = { obj, old: undefined, template: obj.spec.template, oldTemplate: undefined, templatePath: 'spec.template', nameWarning: true };
 * ```
 */
export interface TemplateWarningInput {
  readonly obj: JsonObject;
  readonly old: JsonObject | undefined;
  readonly template: unknown;
  readonly oldTemplate: unknown;
  /** `spec.template` or `spec.jobTemplate.spec.template`. */
  readonly templatePath: string;
  /** Whether the strategy warns about a name that is not a DNS label (Deployment, ReplicaSet, Job, CronJob, RC). */
  readonly nameWarning: boolean;
}

/**
 * The warnings of a workload with a pod template: its name when not a DNS label (on create), and
 * the pod template's (on create, and on update when the template changed).
 *
 * @example
 * ```ts
 * templateWorkloadWarnings({ obj, old: undefined, template: obj.spec.template, oldTemplate: undefined, templatePath: 'spec.template', nameWarning: true });
 * ```
 */
export function templateWorkloadWarnings(input: TemplateWarningInput): string[] {
  const { obj, old, template, oldTemplate, templatePath } = input;
  const nameWarning = old || !input.nameWarning ? [] : dnsLabelNameWarning(objectAt(obj, 'metadata')?.name, 'Pod names and hostnames');
  if (old && semanticEqual(template, oldTemplate)) return nameWarning;
  return [...nameWarning, ...podSpecWarnings(objectAt(isObject(template) ? template : undefined, 'spec'), child(templatePath, 'spec'))];
}
