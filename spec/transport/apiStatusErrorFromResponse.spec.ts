import { describe, expect, it } from '@jest/globals';
import { ApiStatusError } from '../../lib/errors.js';
import { apiStatusErrorFromResponse } from '../../lib/transport/apiStatusErrorFromResponse.js';

describe('apiStatusErrorFromResponse', () => {
  it('keeps the Status a JSON error body carries', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'The resourceVersion for the provided list is too old.',
      reason: 'Expired',
      code: 410,
    };
    const err = apiStatusErrorFromResponse(410, JSON.stringify(status), undefined, 'GET /api/v1/pods');
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.statusCode).toBe(410);
    expect(err.reason).toBe('Expired');
    expect(err.status).toEqual(status);
    expect(err.message).toMatch(/^GET \/api\/v1\/pods: 410 Expired: The resourceVersion/);
  });

  it('synthesises a Status from a plain-text body (404 page not found, the 429 of priority and fairness)', () => {
    const notFound = apiStatusErrorFromResponse(404, '404 page not found\n', undefined);
    expect(notFound.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '404 page not found',
      reason: 'NotFound',
      code: 404,
    });
    const tooMany = apiStatusErrorFromResponse(429, 'Too many requests, please try again later.\n', '3');
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.reason).toBe('TooManyRequests');
    expect(tooMany.retryAfterSeconds).toBe(3);
  });

  it('takes retryAfterSeconds from Retry-After (seconds or an HTTP date), else from the Status details', () => {
    const status = JSON.stringify({
      kind: 'Status',
      code: 504,
      reason: 'Timeout',
      details: { retryAfterSeconds: 1 },
    });
    expect(apiStatusErrorFromResponse(504, status, '7').retryAfterSeconds).toBe(7);
    expect(apiStatusErrorFromResponse(504, status, undefined).retryAfterSeconds).toBe(1);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(
      apiStatusErrorFromResponse(503, 'busy', 'Thu, 01 Jan 2026 00:00:10 GMT', undefined, () => now)
        .retryAfterSeconds,
    ).toBe(10);
    expect(apiStatusErrorFromResponse(503, 'busy', 'soon').retryAfterSeconds).toBeUndefined();
  });

  it('uses the HTTP status as the code when the body has none', () => {
    const err = apiStatusErrorFromResponse(
      403,
      JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'no' }),
      undefined,
    );
    expect(err.statusCode).toBe(403);
    expect(err.status.code).toBe(403);
  });

  it('describes an empty body by its HTTP status', () => {
    expect(apiStatusErrorFromResponse(502, '', undefined).status.message).toBe('HTTP 502');
  });
});
