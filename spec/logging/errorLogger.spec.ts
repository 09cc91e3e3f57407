import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { SchedulerLike } from 'rxjs';
import { ApiStatusError, HandlerError, RxkubeError } from '../../lib/errors.js';
import { errorLogger, type Logger } from '../../lib/logging/errorLogger.js';
import { explainError } from '../../lib/logging/explainError.js';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import { ApiServerUnreachableError } from '../../lib/transport/unreachableError.js';

const notFound = () =>
  new ReflectorError(
    'widgets.example.com',
    'list',
    'relist',
    new ApiStatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' }),
  );

// A clock the test moves by hand; the logger arms no timer, it only reads now().
function clock(): { scheduler: SchedulerLike; advance(ms: number): void } {
  let t = 0;
  const scheduler = {
    now: () => t,
    schedule: () => {
      throw new Error('the logger must not schedule anything');
    },
  } as unknown as SchedulerLike;
  return { scheduler, advance: (ms) => (t += ms) };
}

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, error: (message: string) => void lines.push(message) };
}

describe('explainError', () => {
  it('names the resource and asks about the CRD on a 404', () => {
    expect(explainError(notFound(), 'widgets.example.com')).toMatch(
      /^widgets\.example\.com: the server does not serve this resource \(404\); is the CustomResourceDefinition installed/,
    );
  });

  it('points at the credentials on a 401 and at RBAC on a 403', () => {
    const err = (code: number, reason: string) =>
      new ReflectorError('pods', 'watch', 'relist', new ApiStatusError({ code, reason, message: reason }));
    expect(explainError(err(401, 'Unauthorized'), 'pods')).toContain("check the kubeconfig's user");
    expect(explainError(err(403, 'Forbidden'), 'pods')).toContain('needs list and watch on pods (RBAC)');
  });

  it('leads with an unreachable server, or with "no kubeconfig found"', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8080'), { code: 'ECONNREFUSED' });
    const target = { server: 'http://localhost:8080', context: 'loaded-context', isFallback: true };
    const e = new ReflectorError('pods', 'list', 'relist', new ApiServerUnreachableError('/api/v1/pods', target, refused));
    expect(explainError(e, 'pods')).toMatch(/^pods: no kubeconfig found: /);
    expect(explainError(e, 'pods')).toMatch(/\(the informer keeps retrying\)$/);
  });

  it('keeps other messages, prefixed with the resource once', () => {
    const e = new HandlerError({ type: 'add' }, 'reconcile', new Error('boom'));
    expect(explainError(e, 'pods')).toBe(`pods: ${e.message}`);
    const named = new RxkubeError('X', 'pods: already named');
    expect(explainError(named, 'pods')).toBe('pods: already named');
  });
});

describe('errorLogger (the informer`s default error log)', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('logs the same line at most once per interval and then says how many it held back', () => {
    const { scheduler, advance } = clock();
    const logger = recorder();
    const log = errorLogger(logger, { resource: 'widgets.example.com', scheduler, intervalMs: 30_000 });
    log(notFound());
    advance(1_000);
    log(notFound());
    log(notFound());
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^rxkube: widgets\.example\.com: the server does not serve this resource \(404\)/);
    advance(30_000);
    log(notFound());
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[1]).toMatch(/\(and 2 more like it in the last 30 s\)$/);
  });

  it('logs different lines independently', () => {
    const { scheduler } = clock();
    const logger = recorder();
    const log = errorLogger(logger, { resource: 'pods', scheduler });
    log(notFound());
    log(new HandlerError({ type: 'add' }, 'h', new Error('boom')));
    expect(logger.lines).toHaveLength(2);
  });

  it('logs nothing with logger: false; a throwing logger is contained', () => {
    const { scheduler } = clock();
    expect(() => errorLogger(false, { scheduler })(notFound())).not.toThrow();
    const throwing: Logger = {
      error: () => {
        throw new Error('logger down');
      },
    };
    expect(() => errorLogger(throwing, { scheduler })(notFound())).not.toThrow();
  });

  it('defaults to console.error, one line, unless RXKUBE_LOG=off', () => {
    const { scheduler } = clock();
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const saved = process.env.RXKUBE_LOG;
    try {
      process.env.RXKUBE_LOG = 'off';
      errorLogger(undefined, { resource: 'widgets.example.com', scheduler })(notFound());
      expect(spy).not.toHaveBeenCalled();
      delete process.env.RXKUBE_LOG;
      errorLogger(undefined, { resource: 'widgets.example.com', scheduler })(notFound());
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]).toHaveLength(1);
      expect(String(spy.mock.calls[0][0])).toContain('is the CustomResourceDefinition installed');
    } finally {
      process.env.RXKUBE_LOG = saved;
    }
  });
});
