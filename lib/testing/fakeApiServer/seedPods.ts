/**
 * A realistic Pod (about 4 KB of JSON with managedFields), as a Deployment's pod looks when
 * kube-apiserver serves it; deterministic in `i`. The server sets uid, resourceVersion and
 * creationTimestamp when it is created.
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer();
 * for (let i = 0; i < 100; i++) api.create('pods', realisticPod(i));
 * ```
 */
export function realisticPod(i: number, namespace = `ns-${i % 50}`): { apiVersion: 'v1'; kind: 'Pod'; metadata: { name: string; namespace: string; [k: string]: unknown }; spec: object; status: object } {
  const name = `web-${((i * 2654435761) >>> 0).toString(36)}-${i}`;
  const ts = '2026-10-01T12:00:00Z';
  const ip = `10.244.${i % 250}.${(i >> 8) % 250}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      generateName: 'web-7d9f8b6c5-',
      labels: { app: 'web', tier: i % 3 ? 'frontend' : 'backend', 'pod-template-hash': '7d9f8b6c5', shard: String(i % 16) },
      annotations: { 'kubectl.kubernetes.io/restartedAt': ts, 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9102' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8b6c5', uid: '0a1b2c3d-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }],
      managedFields: [
        {
          manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: ts, fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {}, 'f:tier': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"0a1b2c3d-0000-4000-8000-000000000001"}': {} } },
            'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:ports': { '.': {}, 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } }, 'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:cpu': {}, 'f:memory': {} }, 'f:requests': { '.': {}, 'f:cpu': {}, 'f:memory': {} } } } }, 'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:terminationGracePeriodSeconds': {} },
          },
        },
        {
          manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: ts, fieldsType: 'FieldsV1', subresource: 'status',
          fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} } }, 'f:containerStatuses': {}, 'f:hostIP': {}, 'f:phase': {}, 'f:podIP': {}, 'f:podIPs': { '.': {}, [`k:{"ip":"${ip}"}`]: { '.': {}, 'f:ip': {} } }, 'f:startTime': {} } },
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web', image: 'registry.example/web:1.27.3', imagePullPolicy: 'IfNotPresent',
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          env: [{ name: 'LOG_LEVEL', value: 'info' }, { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
          resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
          volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
          terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        },
      ],
      volumes: [{ name: 'kube-api-access', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }] } }],
      nodeName: `node-${i % 20}`, restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler',
      serviceAccountName: 'default', terminationGracePeriodSeconds: 30, priority: 0, enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
    status: {
      phase: 'Running', hostIP: `10.0.0.${i % 20}`, podIP: ip, podIPs: [{ ip }], startTime: ts, qosClass: 'Burstable',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: ts })),
      containerStatuses: [
        {
          name: 'web', ready: true, started: true, restartCount: 0, image: 'registry.example/web:1.27.3',
          imageID: `registry.example/web@sha256:${'ab'.repeat(32)}`, containerID: `containerd://${'cd'.repeat(32)}`, state: { running: { startedAt: ts } },
        },
      ],
    },
  };
}
