// W3C traceparent as KEP-5915 stores it, and which writes carry it.
import { describe, expect, it } from '@jest/globals';
import { TRACEPARENT_ANNOTATION, annotatedTraceContext, formatTraceparent, parseTraceparent } from '../../lib/tracing/traceContext.js';
import { injects, withTraceparent, writeOperation } from '../../lib/tracing/writeSpans.js';

const W3C_EXAMPLE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const context = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };

describe('traceparent', () => {
  it('parses and formats the W3C example both ways', () => {
    expect(parseTraceparent(W3C_EXAMPLE)).toEqual(context);
    expect(formatTraceparent(context)).toBe(W3C_EXAMPLE);
    expect(formatTraceparent({ ...context, traceFlags: 0 })).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
  });

  it.each([
    ['all-zero trace ID', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero span ID', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['upper case', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'],
    ['a short trace ID', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
    ['version 00 with a fifth field', `${W3C_EXAMPLE}-extra`],
    ['not one', 'hello'],
  ])('rejects %s', (_what, text) => {
    expect(parseTraceparent(text)).toBeUndefined();
  });

  it('takes the first four fields of a later version', () => {
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future')).toEqual(context);
  });

  it("reads KEP-5915's annotation from an object", () => {
    expect(annotatedTraceContext({ metadata: { name: 'a', annotations: { [TRACEPARENT_ANNOTATION]: W3C_EXAMPLE } } })).toEqual(context);
    expect(annotatedTraceContext({ metadata: { name: 'a', annotations: { [TRACEPARENT_ANNOTATION]: 'garbage' } } })).toBeUndefined();
    expect(annotatedTraceContext({ metadata: { name: 'a' } })).toBeUndefined();
    expect(TRACEPARENT_ANNOTATION).toBe('tracing.k8s.io/traceparent');
  });
});

describe('which writes carry the trace context (KEP-5915: spec writes, not status)', () => {
  it.each([
    ['POST', '/api/v1/namespaces/ns/configmaps', true],
    ['PUT', '/api/v1/namespaces/ns/configmaps/a', true],
    ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/web', true],
    ['PATCH', '/apis/example.com/v1/widgets/w', true],
    ['POST', '/api/v1/namespaces', true],
    ['PUT', '/api/v1/namespaces/ns/pods/a/status', false],
    ['PATCH', '/apis/example.com/v1/widgets/w/status', false],
    ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/web/scale', false],
    ['POST', '/apis/events.k8s.io/v1/namespaces/ns/events', false],
    ['POST', '/api/v1/namespaces/ns/events', false],
    ['DELETE', '/api/v1/namespaces/ns/configmaps/a', false],
    ['GET', '/api/v1/namespaces/ns/configmaps/a', false],
  ])('%s %s: %s', (method, path, expected) => {
    expect(injects(method, path)).toBe(expected);
  });

  it("adds the annotation to a copy, keeping the object's other annotations; leaves JSON patches alone", () => {
    const cm = { metadata: { name: 'a', annotations: { keep: 'me' } }, data: { x: '1' } };
    const sent = withTraceparent('PUT', '/api/v1/namespaces/ns/configmaps/a', cm, context);
    expect(sent).toEqual({ metadata: { name: 'a', annotations: { keep: 'me', [TRACEPARENT_ANNOTATION]: W3C_EXAMPLE } }, data: { x: '1' } });
    expect(cm.metadata.annotations).toEqual({ keep: 'me' });
    const ops = [{ op: 'add', path: '/metadata/finalizers/-', value: 'f' }];
    expect(withTraceparent('PATCH', '/api/v1/namespaces/ns/configmaps/a', ops, context)).toBe(ops);
    expect(withTraceparent('PATCH', '/api/v1/namespaces/ns/configmaps/a/status', cm, context)).toBe(cm);
    expect(withTraceparent('PATCH', '/api/v1/namespaces/ns/configmaps/a', { data: { y: '2' } }, context)).toEqual({
      data: { y: '2' },
      metadata: { annotations: { [TRACEPARENT_ANNOTATION]: W3C_EXAMPLE } },
    });
    expect(withTraceparent('PUT', '/api/v1/namespaces/ns/configmaps/a', cm, undefined)).toBe(cm);
  });

  it('names a write by its verb and subresource', () => {
    expect(writeOperation('POST', '/api/v1/namespaces/ns/configmaps', 'application/json')).toBe('create');
    expect(writeOperation('PATCH', '/apis/apps/v1/namespaces/ns/deployments/web', 'application/apply-patch+yaml')).toBe('apply');
    expect(writeOperation('PATCH', '/apis/apps/v1/namespaces/ns/deployments/web/status', 'application/merge-patch+json')).toBe('patch status');
    expect(writeOperation('PUT', '/apis/example.com/v1/widgets/w/status', undefined)).toBe('update status');
    expect(writeOperation('DELETE', '/api/v1/namespaces/ns/pods/a', undefined)).toBe('delete');
    expect(writeOperation('POST', '/apis/events.k8s.io/v1/namespaces/ns/events', undefined)).toBe('event');
  });
});
