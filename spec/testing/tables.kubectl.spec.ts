// `kubectl get` against the fake API server reads as on a real cluster: kubectl asks for a
// meta.k8s.io Table and prints the server's columns (kube's printers for built-in types, a CRD
// version's additionalPrinterColumns for custom resources). The real kubectl ($KUBECTL, PATH, or
// scripts/ensure-kubectl.sh).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { findKubectl, runKubectl } from './kubectlRunner.js';

/** kubectl's output as rows of cells (columns are separated by at least two spaces; single spaces stay in a cell). */
const rows = (out: string): string[][] =>
  out
    .trimEnd()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));
const AGE = /^(\d+s|\d+m\d*s?)$/;

describe('kubectl get prints the server’s Table', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  const get = (...args: string[]) => runKubectl(kubectl, dir, 'get', ...args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-tables-'));
    api = await startFakeApiServer({ autoCreateNamespaces: true });
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl get pods -o wide: kube’s pod columns, wide ones included', async () => {
    api.create('pods', { metadata: { name: 'web-0', namespace: 'shop' }, spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] } });
    api.updateStatus('pods', {
      metadata: { name: 'web-0', namespace: 'shop' },
      status: {
        phase: 'Running',
        podIP: '10.0.0.5',
        podIPs: [{ ip: '10.0.0.5' }],
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 2, image: 'nginx', imageID: '', started: true, state: { running: { startedAt: new Date().toISOString() } } }],
      },
    });
    api.create('pods', { metadata: { name: 'job-1', namespace: 'shop' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
    const out = rows(await get('pods', '-n', 'shop', '-o', 'wide'));
    expect(out[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(out.slice(1).map((r) => r.filter((_c, i) => i !== 4))).toEqual([
      ['job-1', '0/1', 'Pending', '0', '<none>', '<none>', '<none>', '<none>'],
      ['web-0', '1/1', 'Running', '2', '10.0.0.5', 'node-1', '<none>', '<none>'],
    ]);
    expect(out[1][4]).toMatch(AGE);
    // Without -o wide kubectl shows the priority-0 columns only.
    expect(rows(await get('pods', '-n', 'shop'))[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  });

  it('kubectl get deployments: READY, UP-TO-DATE, AVAILABLE', async () => {
    api.create('deployments.apps', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    });
    api.updateStatus('deployments.apps', { metadata: { name: 'web', namespace: 'shop' }, status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } });
    const out = rows(await get('deployments', '-n', 'shop', '-o', 'wide'));
    expect(out[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(out[1].filter((_c, i) => i !== 4)).toEqual(['web', '2/3', '3', '2', 'app', 'nginx:1.27', 'app=web']);
  });

  it('kubectl get events: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE', async () => {
    const at = new Date(Date.now() - 120_000).toISOString().replace(/\.\d+Z$/, 'Z');
    api.create('events', {
      metadata: { name: 'web-0.1', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'shop' },
      reason: 'Pulled',
      message: 'Successfully pulled image "nginx"',
      type: 'Normal',
      source: { component: 'kubelet' },
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    });
    const out = rows(await get('events', '-n', 'shop'));
    expect(out[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(out[1]).toEqual([expect.stringMatching(/^2m(\d+s)?$/), 'Normal', 'Pulled', 'pod/web-0', 'Successfully pulled image "nginx"']);
  });

  it('kubectl get <custom resource>: the version’s printer columns, wide ones with -o wide', async () => {
    api.create('customresourcedefinitions.apiextensions.k8s.io', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            subresources: { status: {} },
            additionalPrinterColumns: [
              { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              { name: 'Size', type: 'string', jsonPath: '.spec.size', priority: 1 },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    });
    const established = () =>
      (api.get<{ status?: { conditions?: Array<{ type: string; status: string }> } }>('customresourcedefinitions.apiextensions.k8s.io', undefined, 'widgets.example.com')?.status?.conditions ?? []).some(
        (c) => c.type === 'Established' && c.status === 'True',
      );
    await waitFor(established, 'the CRD to be established');
    const created = api.create('widgets.example.com', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'shop' }, spec: { replicas: 3, size: 'L' } });
    api.updateStatus('widgets.example.com', { metadata: { name: 'w1', namespace: 'shop', resourceVersion: created.metadata.resourceVersion }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    const out = rows(await get('widgets', '-n', 'shop'));
    expect(out[0]).toEqual(['NAME', 'REPLICAS', 'READY', 'AGE']);
    expect(out[1].slice(0, 3)).toEqual(['w1', '3', 'True']);
    expect(out[1][3]).toMatch(AGE);
    expect(rows(await get('widgets', '-n', 'shop', '-o', 'wide'))[0]).toEqual(['NAME', 'REPLICAS', 'READY', 'SIZE', 'AGE']);
  });

  it('kubectl get roles: the default convertor’s NAME and CREATED AT', async () => {
    api.create('roles.rbac.authorization.k8s.io', { metadata: { name: 'reader', namespace: 'shop' }, rules: [] });
    const out = rows(await get('roles', '-n', 'shop'));
    expect(out[0]).toEqual(['NAME', 'CREATED AT']);
    expect(out[1]).toEqual(['reader', expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)]);
  });
});
