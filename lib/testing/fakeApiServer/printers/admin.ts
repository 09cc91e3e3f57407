// Cluster administration types as `kubectl get` shows them (kube's printPodTemplate,
// printMutatingWebhook, printValidatingWebhook, printValidatingAdmissionPolicy, printPriorityClass,
// printRuntimeClass, printCertificateSigningRequest, printControllerRevision, printResourceQuota).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arr, at, createdOf, int, nameOf, obj, str } from './fields.js';
import { containerCells, formatLabels } from './formats.js';
import { ageSince, humanDuration } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

const age = (o: JsonObject, now: number): string => ageSince(createdOf(o), now);

/**
 * PodTemplates: Name, Containers, Images, Pod Labels.
 *
 * @example
 * ```ts
 * podTemplatePrinter.row(pt, Date.now()).cells; // ['web', 'app', 'nginx', 'app=web']
 * ```
 */
export const podTemplatePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  row(pt: JsonObject): PrintedRow {
    const [names, images] = containerCells(at(pt, 'template', 'spec', 'containers'));
    return { cells: [nameOf(pt), names, images, formatLabels(at(pt, 'template', 'metadata', 'labels'))] };
  },
};

/**
 * Mutating and validating webhook configurations: Name, Webhooks (how many), Age.
 *
 * @example
 * ```ts
 * webhookConfigurationPrinter.row(vwc, Date.now()).cells[1]; // 2
 * ```
 */
export const webhookConfigurationPrinter: TablePrinter = {
  columns: [nameColumn, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), ageColumn],
  row: (c: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(c), arr(c.webhooks).length, age(c, now)] }),
};

/**
 * ValidatingAdmissionPolicies: Name, Validations (how many), ParamKind (`apiVersion/Kind` or `<unset>`), Age.
 *
 * @example
 * ```ts
 * validatingAdmissionPolicyPrinter.row(vap, Date.now()).cells.slice(1, 3); // [1, '<unset>']
 * ```
 */
export const validatingAdmissionPolicyPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    ageColumn,
  ],
  row(p: JsonObject, now: number): PrintedRow {
    const kind = at(p, 'spec', 'paramKind');
    const paramKind = kind === undefined || kind === null ? '<unset>' : `${str(obj(kind).apiVersion)}/${str(obj(kind).kind)}`;
    return { cells: [nameOf(p), arr(at(p, 'spec', 'validations')).length, paramKind, age(p, now)] };
  },
};

/**
 * PriorityClasses: Name, Value, Global-Default, Age, PreemptionPolicy (`PreemptLowerPriority` when
 * unset, kube's default).
 *
 * @example
 * ```ts
 * priorityClassPrinter.row(pc, Date.now()).cells; // ['high', 1000, false, '5m', 'PreemptLowerPriority']
 * ```
 */
export const priorityClassPrinter: TablePrinter = {
  columns: [nameColumn, column('Value', 'integer'), column('Global-Default', 'boolean'), ageColumn, column('PreemptionPolicy')],
  row: (pc: JsonObject, now: number): PrintedRow => ({
    cells: [nameOf(pc), int(pc.value), pc.globalDefault === true, age(pc, now), str(pc.preemptionPolicy) || 'PreemptLowerPriority'],
  }),
};

/**
 * RuntimeClasses: Name, Handler, Age.
 *
 * @example
 * ```ts
 * runtimeClassPrinter.row(rc, Date.now()).cells; // ['gvisor', 'runsc', '5m']
 * ```
 */
export const runtimeClassPrinter: TablePrinter = {
  columns: [nameColumn, column('Handler'), ageColumn],
  row: (rc: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(rc), str(rc.handler), age(rc, now)] }),
};

// Denied, else Approved, else Pending; then ",Failed" and ",Issued" (kube's extractCSRStatus).
function csrCondition(csr: JsonObject): string {
  const types = new Set(arr(at(csr, 'status', 'conditions')).map((c) => obj(c).type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (str(at(csr, 'status', 'certificate')) !== '') status += ',Issued';
  return status;
}

/**
 * CertificateSigningRequests: Name, Age, SignerName, Requestor, RequestedDuration, Condition.
 *
 * @example
 * ```ts
 * csrPrinter.row(csr, Date.now()).cells.slice(2); // ['kubernetes.io/kube-apiserver-client', 'admin', '24h', 'Approved,Issued']
 * ```
 */
export const csrPrinter: TablePrinter = {
  columns: [nameColumn, ageColumn, column('SignerName'), column('Requestor'), column('RequestedDuration'), column('Condition')],
  row(csr: JsonObject, now: number): PrintedRow {
    const seconds = at(csr, 'spec', 'expirationSeconds');
    return {
      cells: [
        nameOf(csr),
        age(csr, now),
        str(at(csr, 'spec', 'signerName')) || '<none>',
        str(at(csr, 'spec', 'username')),
        typeof seconds === 'number' ? humanDuration(int(seconds) * 1000) : '<none>',
        csrCondition(csr),
      ],
    };
  },
};

// The controller owner as `kind.group/name` in lower case (kube's formatResourceName), or `<none>`.
function controllerOf(o: JsonObject): string {
  const ref = arr(at(o, 'metadata', 'ownerReferences')).map(obj).find((r) => r.controller === true);
  if (ref === undefined) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = group ? `${str(ref.kind)}.${group}` : str(ref.kind);
  return kind === '' ? str(ref.name) : `${kind.toLowerCase()}/${str(ref.name)}`;
}

/**
 * ControllerRevisions: Name, Controller (`statefulset.apps/web`), Revision, Age.
 *
 * @example
 * ```ts
 * controllerRevisionPrinter.row(cr, Date.now()).cells.slice(1, 3); // ['statefulset.apps/web', 2]
 * ```
 */
export const controllerRevisionPrinter: TablePrinter = {
  columns: [nameColumn, column('Controller', 'string', 'Controller of the object'), column('Revision'), ageColumn],
  row: (cr: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(cr), controllerOf(cr), int(cr.revision), age(cr, now)] }),
};

/**
 * ResourceQuotas: Name, Age, Request (`resource: used/hard, ...`), Limit (the `limits.*` resources).
 *
 * @example
 * ```ts
 * resourceQuotaPrinter.row(rq, Date.now()).cells.slice(2); // ['pods: 2/10, requests.cpu: 500m/4', 'limits.cpu: 1/8']
 * ```
 */
export const resourceQuotaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  row(rq: JsonObject, now: number): PrintedRow {
    const hard = obj(at(rq, 'status', 'hard'));
    const used = obj(at(rq, 'status', 'used'));
    const requests: string[] = [];
    const limits: string[] = [];
    for (const resource of Object.keys(hard).sort()) {
      const text = `${resource}: ${str(used[resource]) || '0'}/${str(hard[resource])}`;
      (resource.split('.').length > 1 && resource.split('.')[0] === 'limits' ? limits : requests).push(text);
    }
    return { cells: [nameOf(rq), age(rq, now), requests.join(', '), limits.join(', ')] };
  },
};
