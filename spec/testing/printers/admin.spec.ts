// kube's printers of pod templates, webhook configurations, validating admission policies, priority
// and runtime classes, CSRs, controller revisions and resource quotas.
import { describe, expect, it } from '@jest/globals';
import {
  controllerRevisionPrinter,
  csrPrinter,
  podTemplatePrinter,
  priorityClassPrinter,
  resourceQuotaPrinter,
  runtimeClassPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from '../../../lib/testing/fakeApiServer/printers/admin.js';
import type { TablePrinter } from '../../../lib/testing/fakeApiServer/printers/table.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { NOW, object } from './fixtures.js';

describe('administration printers', () => {
  it.each<[string, TablePrinter, string[]]>([
    ['podtemplates', podTemplatePrinter, ['Name', 'Containers', 'Images', 'Pod Labels']],
    ['webhook configurations', webhookConfigurationPrinter, ['Name', 'Webhooks', 'Age']],
    ['validatingadmissionpolicies', validatingAdmissionPolicyPrinter, ['Name', 'Validations', 'ParamKind', 'Age']],
    ['priorityclasses', priorityClassPrinter, ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy']],
    ['runtimeclasses', runtimeClassPrinter, ['Name', 'Handler', 'Age']],
    ['certificatesigningrequests', csrPrinter, ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']],
    ['controllerrevisions', controllerRevisionPrinter, ['Name', 'Controller', 'Revision', 'Age']],
    ['resourcequotas', resourceQuotaPrinter, ['Name', 'Age', 'Request', 'Limit']],
  ])('%s have kube columns', (_t, printer, names) => {
    expect(printer.columns.map((c) => c.name)).toEqual(names);
    expect(printer.columns.every((c) => c.priority === 0)).toBe(true);
  });

  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a pod template',
      podTemplatePrinter,
      object('web', { template: { metadata: { labels: { tier: 'fe', app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } }),
      ['web', 'app', 'nginx', 'app=web,tier=fe'],
    ],
    ['a webhook configuration', webhookConfigurationPrinter, object('policy', { webhooks: [{ name: 'a' }, { name: 'b' }] }), ['policy', 2, '5m']],
    ['an empty webhook configuration', webhookConfigurationPrinter, object('none', {}), ['none', 0, '5m']],
    [
      'a policy with a param kind',
      validatingAdmissionPolicyPrinter,
      object('max-replicas', { spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] } }),
      ['max-replicas', 1, 'v1/ConfigMap', '5m'],
    ],
    ['a policy without params', validatingAdmissionPolicyPrinter, object('p', { spec: {} }), ['p', 0, '<unset>', '5m']],
    ['a priority class', priorityClassPrinter, object('high', { value: 1000 }), ['high', 1000, false, '5m', 'PreemptLowerPriority']],
    ['the default priority class', priorityClassPrinter, object('low', { value: -5, globalDefault: true, preemptionPolicy: 'Never' }), ['low', -5, true, '5m', 'Never']],
    ['a runtime class', runtimeClassPrinter, object('gvisor', { handler: 'runsc' }), ['gvisor', 'runsc', '5m']],
    [
      'an issued CSR',
      csrPrinter,
      object('alice', {
        spec: { signerName: 'kubernetes.io/kube-apiserver-client', username: 'admin', expirationSeconds: 86400 },
        status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'LS0t' },
      }),
      ['alice', '5m', 'kubernetes.io/kube-apiserver-client', 'admin', '24h', 'Approved,Issued'],
    ],
    ['a pending CSR', csrPrinter, object('bob', { spec: { username: 'bob' } }), ['bob', '5m', '<none>', 'bob', '<none>', 'Pending']],
    ['a denied and failed CSR', csrPrinter, object('eve', { spec: {}, status: { conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }] } }), ['eve', '5m', '<none>', '', '<none>', 'Denied,Failed']],
    [
      'a controller revision',
      controllerRevisionPrinter,
      object('web-7c9f', { revision: 2 }, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u', controller: true }] }),
      ['web-7c9f', 'statefulset.apps/web', 2, '5m'],
    ],
    ['an orphaned controller revision', controllerRevisionPrinter, object('old', { revision: 1 }), ['old', '<none>', 1, '5m']],
    [
      'a resource quota',
      resourceQuotaPrinter,
      object('compute', {
        status: {
          hard: { pods: '10', 'requests.cpu': '4', 'limits.cpu': '8', 'limits.memory': '16Gi' },
          used: { pods: '2', 'requests.cpu': '500m', 'limits.cpu': '1' },
        },
      }),
      ['compute', '5m', 'pods: 2/10, requests.cpu: 500m/4', 'limits.cpu: 1/8, limits.memory: 0/16Gi'],
    ],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});
