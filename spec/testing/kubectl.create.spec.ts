// kubectl's create subcommands send protobuf bodies (client-go's typed clients); the fake server
// decodes them. Real kubectl, read back through @kubernetes/client-node.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, BatchV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner, type KubectlResult } from './kubectlRunner.js';

describe('kubectl create <subcommand> (protobuf bodies)', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  let run: (...args: string[]) => Promise<KubectlResult>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-create-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
    run = kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'));
  });
  afterEach(() => api.close());

  const ok = async (...args: string[]): Promise<string> => {
    const r = await run(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout.trim();
  };

  it('kubectl create namespace: the Namespace is stored as sent', async () => {
    expect(await ok('create', 'namespace', 'team-a')).toBe('namespace/team-a created');
    const ns = await api.kubeConfig().makeApiClient(CoreV1Api).readNamespace({ name: 'team-a' });
    expect(ns.metadata?.uid).toBeDefined();
    expect(ns.status?.phase).toBe('Active');
    expect(api.requests.some((r) => r.path === '/api/v1/namespaces' && r.verb === 'create')).toBe(true);
  });

  it('kubectl create configmap and secret: data, binary data and the secret type', async () => {
    await ok('create', 'namespace', 'ns');
    expect(await ok('create', 'configmap', 'cm', '-n', 'ns', '--from-literal=a=1', '--from-literal=b=two words')).toBe('configmap/cm created');
    expect(await ok('create', 'secret', 'generic', 's', '-n', 'ns', '--from-literal=password=hunter2', '--type=Opaque')).toBe('secret/s created');
    expect(await ok('create', 'secret', 'docker-registry', 'reg', '-n', 'ns', '--docker-server=r.example', '--docker-username=u', '--docker-password=p')).toBe('secret/reg created');
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    expect((await core.readNamespacedConfigMap({ name: 'cm', namespace: 'ns' })).data).toEqual({ a: '1', b: 'two words' });
    const s = await core.readNamespacedSecret({ name: 's', namespace: 'ns' });
    expect(s.type).toBe('Opaque');
    expect(Buffer.from(s.data!.password, 'base64').toString()).toBe('hunter2');
    const reg = await core.readNamespacedSecret({ name: 'reg', namespace: 'ns' });
    expect(reg.type).toBe('kubernetes.io/dockerconfigjson');
    expect(JSON.parse(Buffer.from(reg.data!['.dockerconfigjson'], 'base64').toString()).auths['r.example'].username).toBe('u');
  });

  it('kubectl create deployment: replicas, selector, template and container ports', async () => {
    expect(await ok('create', 'deployment', 'web', '-n', 'default', '--image=nginx:1.27', '--replicas=3', '--port=8080')).toBe('deployment.apps/web created');
    const d = await api.kubeConfig().makeApiClient(AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: 'default' });
    expect(d.spec?.replicas).toBe(3);
    expect(d.spec?.selector.matchLabels).toEqual({ app: 'web' });
    expect(d.spec?.template.metadata?.labels).toEqual({ app: 'web' });
    // As sent, plus kube's container defaults (a tagged image other than :latest pulls IfNotPresent).
    expect(d.spec?.template.spec?.containers).toEqual([
      {
        name: 'nginx',
        image: 'nginx:1.27',
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        resources: {},
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ]);
    expect(d.metadata?.generation).toBe(1);
  });

  it('kubectl create deployment --replicas=0 keeps the explicit zero (a pointer field)', async () => {
    await ok('create', 'deployment', 'idle', '--image=nginx', '--replicas=0');
    expect(api.get<{ spec: { replicas?: number } }>('deployments.apps', 'default', 'idle')?.spec.replicas).toBe(0);
  });

  it('kubectl create serviceaccount and service: ports with an IntOrString target', async () => {
    expect(await ok('create', 'serviceaccount', 'bot', '-n', 'default')).toBe('serviceaccount/bot created');
    expect(await ok('create', 'service', 'clusterip', 'api', '--tcp=80:http', '--tcp=443:8443')).toBe('service/api created');
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    expect((await core.readNamespacedServiceAccount({ name: 'bot', namespace: 'default' })).metadata?.name).toBe('bot');
    const svc = await core.readNamespacedService({ name: 'api', namespace: 'default' });
    expect(svc.spec?.type).toBe('ClusterIP');
    expect(svc.spec?.selector).toEqual({ app: 'api' });
    expect(svc.spec?.ports?.map((p) => [p.port, p.targetPort, p.protocol])).toEqual([
      [80, 'http', 'TCP'],
      [443, 8443, 'TCP'],
    ]);
  });

  it('kubectl create role and rolebinding: rules, subjects and roleRef', async () => {
    expect(await ok('create', 'role', 'reader', '--verb=get,list', '--resource=pods,deployments.apps', '--resource-name=a')).toBe('role.rbac.authorization.k8s.io/reader created');
    expect(await ok('create', 'rolebinding', 'read', '--role=reader', '--user=alice', '--serviceaccount=default:bot')).toBe(
      'rolebinding.rbac.authorization.k8s.io/read created',
    );
    const rbac = api.kubeConfig().makeApiClient(RbacAuthorizationV1Api);
    const role = await rbac.readNamespacedRole({ name: 'reader', namespace: 'default' });
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'], verbs: ['get', 'list'] },
    ]);
    const rb = await rbac.readNamespacedRoleBinding({ name: 'read', namespace: 'default' });
    expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
    expect(rb.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
      { kind: 'ServiceAccount', name: 'bot', namespace: 'default' },
    ]);
  });

  it('kubectl create clusterrole and clusterrolebinding (cluster-scoped, protobuf too)', async () => {
    expect(await ok('create', 'clusterrole', 'node-reader', '--verb=get', '--resource=nodes')).toBe('clusterrole.rbac.authorization.k8s.io/node-reader created');
    expect(await ok('create', 'clusterrolebinding', 'read-nodes', '--clusterrole=node-reader', '--group=ops')).toBe('clusterrolebinding.rbac.authorization.k8s.io/read-nodes created');
    const rbac = api.kubeConfig().makeApiClient(RbacAuthorizationV1Api);
    expect((await rbac.readClusterRole({ name: 'node-reader' })).rules).toEqual([{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]);
    const crb = await rbac.readClusterRoleBinding({ name: 'read-nodes' });
    expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-reader' });
    expect(crb.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'ops' }]);
  });

  it('kubectl create job: the pod template with its command and restartPolicy Never', async () => {
    expect(await ok('create', 'job', 'once', '--image=busybox', '--', 'sh', '-c', 'echo hi')).toBe('job.batch/once created');
    const job = await api.kubeConfig().makeApiClient(BatchV1Api).readNamespacedJob({ name: 'once', namespace: 'default' });
    expect(job.spec?.template.spec?.restartPolicy).toBe('Never');
    expect(job.spec?.template.spec?.containers[0]).toMatchObject({ name: 'once', image: 'busybox', command: ['sh', '-c', 'echo hi'] });
  });

  it('kubectl create namespace twice: the second is the AlreadyExists of a real server', async () => {
    await ok('create', 'namespace', 'twice');
    const r = await run('create', 'namespace', 'twice');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (AlreadyExists): namespaces "twice" already exists');
  });
});
