// Validating and mutating webhooks as pure functions: an AdmissionReview in, one out (what the
// server and a test cluster call), decisions, patches, failures and the time budget.
import { describe, expect, it } from '@jest/globals';
import { NEVER, Observable, of, delay } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError } from '../../lib/configError.js';
import { allowed, denied, patched, replaced } from '../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../lib/webhooks/admissionWebhook.js';
import type { AdmissionReview } from '../../lib/webhooks/admissionReview.js';
import { BadReviewError, MutationPatchError, WebhookHandlerError, WebhookTimeoutError, type WebhookError } from '../../lib/webhooks/webhookErrors.js';
import { WebhookConfigurationError } from '../../lib/webhooks/validateWebhookConfiguration.js';
import { backup, backups, decodePatch, request, review, type Backup } from './support.js';

const collect = (errors$: Observable<WebhookError>): WebhookError[] => {
  const out: WebhookError[] = [];
  errors$.subscribe((e) => out.push(e));
  return out;
};

describe('validatingWebhook', () => {
  const requireSchedule = validatingWebhook<Backup>({
    name: 'backups.validate.example.com',
    resource: backups,
    validate: (req) =>
      req.object?.spec?.schedule
        ? allowed({ warnings: ['spec.retention unset: 7 days'], auditAnnotations: { checked: 'schedule' } })
        : denied('spec.schedule is required', { code: 422, reason: 'Invalid' }),
  });

  it('answers in the request version, echoing the uid: allowed with warnings and audit annotations, or denied with code, reason and message', async () => {
    const ok = await requireSchedule.review(review(request(backup({ schedule: '@daily' }))));
    expect(ok).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: '705ab4f5-6393-11e8-b7cc-42010a800002', allowed: true, status: { code: 200 }, warnings: ['spec.retention unset: 7 days'], auditAnnotations: { checked: 'schedule' } },
    });
    const no = await requireSchedule.review(review(request(backup({})), 'admission.k8s.io/v1beta1'));
    expect(no).toEqual({
      apiVersion: 'admission.k8s.io/v1beta1',
      kind: 'AdmissionReview',
      response: { uid: '705ab4f5-6393-11e8-b7cc-42010a800002', allowed: false, status: { code: 422, reason: 'Invalid', message: 'spec.schedule is required' } },
    });
  });

  it('denies with 403 Forbidden by default (controller-runtime Denied), and a handler returning nothing allows', async () => {
    const w = validatingWebhook<Backup>({ name: 'a.b.example.com', resource: backups, validate: (req) => (req.operation === 'DELETE' ? denied('kept forever') : undefined) });
    const del = await w.review(review(request(null, { operation: 'DELETE', oldObject: backup({}) })));
    expect(del.response).toMatchObject({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'kept forever' } });
    expect((await w.review(review(request(backup({}))))).response).toMatchObject({ allowed: true });
  });

  it('gives the handler the typed request whole: operation, userInfo, dryRun, options, old object', async () => {
    const seen: unknown[] = [];
    const w = validatingWebhook<Backup>({ name: 'a.b.example.com', resource: backups, validate: (req) => void seen.push(req) });
    const req = request(backup({ schedule: 'b' }), { operation: 'UPDATE', oldObject: backup({ schedule: 'a' }), dryRun: true, subResource: undefined });
    await w.review(review(req));
    expect(seen).toEqual([req]);
  });

  it('a handler that throws, or whose promise rejects, is a denial with its message (500), reported on errors$, never a crash', async () => {
    const w = validatingWebhook<Backup>({
      name: 'a.b.example.com',
      resource: backups,
      validate: (req) => {
        if (req.name === 'sync') throw new Error('quota lookup failed');
        return Promise.reject(new TypeError('cannot read spec of undefined'));
      },
    });
    const errors = collect(w.errors$);
    const a = await w.review(review(request(backup({}, 'sync'))));
    const b = await w.review(review(request(backup({}, 'async'))));
    expect(a.response).toMatchObject({ allowed: false, status: { code: 500, reason: 'InternalError', message: 'quota lookup failed' } });
    expect(b.response).toMatchObject({ allowed: false, status: { code: 500, message: 'cannot read spec of undefined' } });
    expect(errors.map((e) => [e.constructor, (e as WebhookHandlerError).webhook])).toEqual([
      [WebhookHandlerError, 'a.b.example.com'],
      [WebhookHandlerError, 'a.b.example.com'],
    ]);
  });

  it('a request for another resource than declared is denied (400) naming the drift', async () => {
    const answer = await requireSchedule.review(review(request(backup({}), { resource: { group: 'apps', version: 'v1', resource: 'deployments' } })));
    expect(answer.response?.allowed).toBe(false);
    expect(answer.response?.status?.code).toBe(400);
    expect(answer.response?.status?.message).toContain('handles example.com/v1 backups, not apps/v1 deployments');
  });

  it('rejects what is not an AdmissionReview with BadReviewError (400), saying what is wrong', async () => {
    const bad = async (body: unknown) => requireSchedule.review(body as AdmissionReview).catch((e: unknown) => e);
    const notObject = await bad([1]);
    expect(notObject).toBeInstanceOf(BadReviewError);
    expect((notObject as BadReviewError).statusCode).toBe(400);
    expect(((await bad({ apiVersion: 'admission.k8s.io/v2', kind: 'AdmissionReview', request: request(null) })) as Error).message).toBe(
      'unknown AdmissionReview version "admission.k8s.io/v2": this webhook answers admission.k8s.io/v1 and admission.k8s.io/v1beta1',
    );
    expect(((await bad({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' })) as Error).message).toBe('the AdmissionReview has no request');
    expect(((await bad({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { ...request(null), uid: '' } })) as Error).message).toBe('the AdmissionReview request has no uid');
    expect(((await bad({ apiVersion: 'v1', kind: 'ConfigMap' })) as Error).message).toBe('expected kind AdmissionReview, got "ConfigMap"');
  });

  it('refuses at construction a declaration kube would refuse (its 422 texts), and a missing handler', () => {
    const make = (o: object) => () => validatingWebhook<Backup>({ name: 'a.b.example.com', resource: backups, validate: () => undefined, ...o });
    expect(make({ name: 'short' })).toThrow(WebhookConfigurationError);
    expect(make({ name: 'short' })).toThrow('webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots');
    expect(make({ timeoutSeconds: 31 })).toThrow('webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds');
    expect(make({ operations: ['GET'] })).toThrow('webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"');
    expect(make({ budgetMs: 20_000 })).toThrow(ConfigError);
    expect(() => validatingWebhook<Backup>({ name: 'a.b.example.com', resource: backups } as never)).toThrow('validatingWebhook needs a validate function');
  });
});

describe('mutatingWebhook', () => {
  it('a recipe becomes an RFC 6902 patch, base64, with patchType JSONPatch; nothing changed means neither', async () => {
    const w = mutatingWebhook<Backup>({
      name: 'backups.default.example.com',
      resource: backups,
      mutate: (req) =>
        patched((b) => {
          if (b.spec?.retention === undefined) b.spec = { ...b.spec, retention: 7 };
          b.metadata!.labels!['example.com/managed'] = 'true';
          if (req.name === 'same') delete b.metadata!.labels!['example.com/managed'];
        }),
    });
    const answer = await w.review(review(request(backup({ schedule: '@daily' }))));
    expect(answer.response).toMatchObject({ uid: '705ab4f5-6393-11e8-b7cc-42010a800002', allowed: true, patchType: 'JSONPatch' });
    expect(decodePatch(answer.response?.patch)).toEqual([
      { op: 'add', path: '/metadata/labels/example.com~1managed', value: 'true' },
      { op: 'replace', path: '/spec', value: { schedule: '@daily', retention: 7 } },
    ]);
    const unchanged = await w.review(review(request(backup({ retention: 1 }, 'same'))));
    expect(unchanged.response).toEqual({ uid: '705ab4f5-6393-11e8-b7cc-42010a800002', allowed: true, status: { code: 200 } });
  });

  it('a replacement object becomes the smallest patch from the old one (controller-runtime PatchResponseFromRaw)', async () => {
    const w = mutatingWebhook<Backup>({
      name: 'backups.default.example.com',
      resource: backups,
      mutate: (req) => {
        const b = req.object!;
        return replaced({ ...b, metadata: { ...b.metadata, labels: {} }, spec: { ...b.spec, targets: ['s3', 'gcs'] } });
      },
    });
    const answer = await w.review(review(request(backup({ schedule: '@daily', targets: ['s3'] }))));
    expect(decodePatch(answer.response?.patch)).toEqual([
      { op: 'replace', path: '/spec/targets', value: ['s3', 'gcs'] },
      { op: 'remove', path: '/metadata/labels/team' },
    ]);
  });

  it('a change that cannot become a patch is a denial naming the webhook and the reason, reported as MutationPatchError', async () => {
    const w = mutatingWebhook<Backup>({
      name: 'backups.default.example.com',
      resource: backups,
      mutate: (req) => {
        if (req.name === 'throws') return patched(() => { throw new Error('no spec'); });
        if (req.name === 'async') return patched((async () => undefined) as never);
        if (req.name === 'array') return replaced([] as never);
        return patched((b) => { b.spec = {}; });
      },
    });
    const errors = collect(w.errors$);
    const answer = async (name: string, over = {}) => (await w.review(review(request(backup({}, name), over)))).response!;
    expect((await answer('throws')).status?.message).toBe('mutating webhook "backups.default.example.com" could not patch the object: the patch could not be computed: no spec');
    expect((await answer('async')).status?.message).toContain('the patch recipe returned a promise');
    expect((await answer('array')).status?.message).toContain('the replacement object is not a JSON object (got an array)');
    const del = await answer('delete', { operation: 'DELETE', object: null, oldObject: backup({}) });
    expect(del).toMatchObject({ allowed: false, status: { code: 500, reason: 'InternalError' } });
    expect(del.status?.message).toContain('a DELETE request has no object to modify');
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e instanceof MutationPatchError)).toBe(true);
  });

  it('may also allow or deny without a change', async () => {
    const w = mutatingWebhook<Backup>({ name: 'a.b.example.com', resource: backups, mutate: (req) => (req.dryRun ? denied('no dry runs') : allowed()) });
    expect((await w.review(review(request(backup({}), { dryRun: true })))).response).toMatchObject({ allowed: false, status: { message: 'no dry runs' } });
    expect((await w.review(review(request(backup({}))))).response?.patch).toBeUndefined();
  });
});

describe('the time budget', () => {
  const scheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

  it('defaults to 80% of timeoutSeconds, answers a denial (504 Timeout) when it runs out, and aborts the handler', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      let signal: AbortSignal | undefined;
      const w = validatingWebhook<Backup>({
        name: 'slow.validate.example.com',
        resource: backups,
        timeoutSeconds: 5,
        scheduler: ts,
        validate: (_req, ctx) => {
          signal = ctx.signal;
          return NEVER;
        },
      });
      const errors = collect(w.errors$);
      expect(w.budgetMs).toBe(4000);
      const uid = '705ab4f5-6393-11e8-b7cc-42010a800002';
      const message = 'webhook "slow.validate.example.com" did not decide within 4000ms (its budget, below kube\'s timeoutSeconds of 5)';
      expectObservable(w.review$(review(request(backup({}))))).toBe('4000ms (a|)', {
        a: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: false, status: { code: 504, reason: 'Timeout', message } } },
      });
      ts.flush();
      expect(signal?.aborted).toBe(true);
      expect(errors).toEqual([expect.any(WebhookTimeoutError)]);
    });
  });

  it('answers allowed when it runs out under failurePolicy Ignore (or onTimeout: allow); a decision in time is the decision', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const w = validatingWebhook<Backup>({
        name: 'slow.validate.example.com',
        resource: backups,
        failurePolicy: 'Ignore',
        budgetMs: 300,
        scheduler: ts,
        validate: (req) => of(denied('late')).pipe(delay(req.name === 'fast' ? 299 : 301, ts)),
      });
      const uid = '705ab4f5-6393-11e8-b7cc-42010a800002';
      expectObservable(w.review$(review(request(backup({}, 'fast'))))).toBe('299ms (a|)', {
        a: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'late' } } },
      });
      expectObservable(w.review$(review(request(backup({}, 'slow'))))).toBe('300ms (a|)', {
        a: {
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: { uid, allowed: true, status: { code: 200 }, warnings: ['webhook slow.validate.example.com did not decide within 300ms; allowed without its decision'] },
        },
      });
    });
  });

  it('the abandoned work failing later cannot crash the process (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      let rejectLater: (e: Error) => void = () => undefined;
      const w = validatingWebhook<Backup>({
        name: 'slow.validate.example.com',
        resource: backups,
        timeoutSeconds: 1,
        budgetMs: 1,
        validate: () => new Promise<undefined>((_, reject) => (rejectLater = reject)),
      });
      const answer = await w.review(review(request(backup({}))));
      expect(answer.response?.status?.code).toBe(504);
      rejectLater(new Error('too late'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
