// kube's pod printer: READY, STATUS, RESTARTS and the -o wide columns for each pod state a
// controller's test meets (PIPELINE.md §6; kube's printPod).
import { describe, expect, it } from '@jest/globals';
import { podPrinter } from '../../../lib/testing/fakeApiServer/printers/pods.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { minutesAgo, NOW, object } from './fixtures.js';

const running = (name: string, ready = true, restartCount = 0): JsonObject => ({
  name,
  ready,
  restartCount,
  started: true,
  state: { running: { startedAt: minutesAgo(4) } },
});
const waiting = (name: string, reason: string, restartCount = 0, lastFinished?: number): JsonObject => ({
  name,
  ready: false,
  restartCount,
  state: { waiting: { reason } },
  ...(lastFinished !== undefined ? { lastState: { terminated: { exitCode: 1, finishedAt: minutesAgo(lastFinished) } } } : {}),
});
const terminated = (name: string, t: JsonObject): JsonObject => ({ name, ready: false, restartCount: 0, state: { terminated: t } });
const pod = (spec: JsonObject, status: JsonObject, meta: JsonObject = {}): JsonObject =>
  object('web-0', { spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec }, status }, meta);

describe('podPrinter', () => {
  it('has kube columns, the wide ones at priority 1', () => {
    expect(podPrinter.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
    expect(podPrinter.columns[0].format).toBe('name');
  });

  it.each<[string, JsonObject, ReadonlyArray<unknown>]>([
    ['a new pod, not scheduled', pod({}, { phase: 'Pending' }), ['web-0', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']],
    [
      'a running ready pod on a node',
      pod({ nodeName: 'node-1' }, { phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }], containerStatuses: [running('app')] }),
      ['web-0', '1/1', 'Running', '0', '5m', '10.0.0.5', 'node-1', '<none>', '<none>'],
    ],
    [
      'podIPs without podIP',
      pod({}, { phase: 'Running', podIPs: [{ ip: 'fd00::5' }, { ip: '10.0.0.5' }], containerStatuses: [running('app', false)] }),
      ['web-0', '0/1', 'Running', '0', '5m', 'fd00::5', '<none>', '<none>', '<none>'],
    ],
    [
      'a crash loop: the waiting reason, restarts and when the last one ended',
      pod({}, { phase: 'Running', containerStatuses: [waiting('app', 'CrashLoopBackOff', 4, 2)] }),
      ['web-0', '0/1', 'CrashLoopBackOff', '4 (2m ago)', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'an image that cannot be pulled',
      pod({}, { phase: 'Pending', containerStatuses: [waiting('app', 'ImagePullBackOff')] }),
      ['web-0', '0/1', 'ImagePullBackOff', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a container that exited without a reason',
      pod({}, { phase: 'Running', containerStatuses: [terminated('app', { exitCode: 137 })] }),
      ['web-0', '0/1', 'ExitCode:137', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a container killed by a signal',
      pod({}, { phase: 'Running', containerStatuses: [terminated('app', { exitCode: 0, signal: 9 })] }),
      ['web-0', '0/1', 'Signal:9', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'the second init container of two running',
      pod(
        { initContainers: [{ name: 'a' }, { name: 'b' }] },
        { phase: 'Pending', initContainerStatuses: [terminated('a', { exitCode: 0, reason: 'Completed' }), { name: 'b', restartCount: 0, state: { running: {} } }] },
      ),
      ['web-0', '0/1', 'Init:1/2', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'an init container crash-looping',
      pod({ initContainers: [{ name: 'a' }] }, { phase: 'Pending', initContainerStatuses: [waiting('a', 'CrashLoopBackOff', 3)] }),
      ['web-0', '0/1', 'Init:CrashLoopBackOff', '3', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'an init container that failed',
      pod({ initContainers: [{ name: 'a' }] }, { phase: 'Pending', initContainerStatuses: [terminated('a', { exitCode: 2 })] }),
      ['web-0', '0/1', 'Init:ExitCode:2', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a started, ready sidecar counts in READY',
      pod(
        { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }] },
        {
          phase: 'Running',
          conditions: [{ type: 'Initialized', status: 'True' }],
          initContainerStatuses: [{ ...running('proxy', true, 1), lastState: { terminated: { exitCode: 1, finishedAt: minutesAgo(3) } } }],
          containerStatuses: [running('app')],
        },
      ),
      ['web-0', '2/2', 'Running', '1 (3m ago)', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a completed container beside a running one in a ready pod',
      pod(
        { containers: [{ name: 'app' }, { name: 'job' }] },
        { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [running('app'), terminated('job', { exitCode: 0, reason: 'Completed' })] },
      ),
      ['web-0', '1/2', 'Running', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'the same in a pod that is not ready',
      pod(
        { containers: [{ name: 'app' }, { name: 'job' }] },
        { phase: 'Running', containerStatuses: [running('app'), terminated('job', { exitCode: 0, reason: 'Completed' })] },
      ),
      ['web-0', '1/2', 'NotReady', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a pod being deleted',
      pod({}, { phase: 'Running', containerStatuses: [running('app')] }, { deletionTimestamp: minutesAgo(1) }),
      ['web-0', '1/1', 'Terminating', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a pod being deleted from a lost node',
      pod({}, { phase: 'Running', reason: 'NodeLost' }, { deletionTimestamp: minutesAgo(1) }),
      ['web-0', '0/1', 'Unknown', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a pod held by scheduling gates',
      pod({}, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }),
      ['web-0', '0/1', 'SchedulingGated', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'an evicted pod keeps its status reason',
      pod({}, { phase: 'Failed', reason: 'Evicted' }),
      ['web-0', '0/1', 'Evicted', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'readiness gates, one of two passed, and a nominated node',
      pod(
        { readinessGates: [{ conditionType: 'example.com/a' }, { conditionType: 'example.com/b' }] },
        { phase: 'Pending', nominatedNodeName: 'node-2', conditions: [{ type: 'example.com/a', status: 'True' }, { type: 'example.com/b', status: 'False' }] },
      ),
      ['web-0', '0/1', 'Pending', '0', '5m', '<none>', '<none>', 'node-2', '1/2'],
    ],
  ])('%s', (_what, p, cells) => {
    expect(podPrinter.row(p, NOW).cells).toEqual(cells);
  });

  it('marks a finished pod Completed', () => {
    const done = podPrinter.row(pod({}, { phase: 'Succeeded', containerStatuses: [terminated('app', { exitCode: 0, reason: 'Completed' })] }), NOW);
    expect(done.cells[2]).toBe('Completed');
    expect(done.conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    expect(podPrinter.row(pod({}, { phase: 'Failed' }), NOW).conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
    expect(podPrinter.row(pod({}, { phase: 'Running' }), NOW).conditions).toBeUndefined();
  });
});
