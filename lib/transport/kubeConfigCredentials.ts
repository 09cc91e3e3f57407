import type { KubeConfig } from '@kubernetes/client-node';
import type * as NodeHttps from 'node:https';
import { CredentialError } from './credentialError.js';

/**
 * The request options (headers, TLS material, agent) of a kubeconfig's current credentials, and
 * the generation of the credential cache they came from.
 */
export interface AppliedCredentials {
  readonly options: NodeHttps.RequestOptions;
  readonly generation: number;
}

/**
 * A kubeconfig's credentials as client-node computes them, with the refresh client-go does on a
 * 401 (`ResetTokenOlderThan`): client-node caches an exec plugin's credential until its
 * `expirationTimestamp` and a token file for 60 s, so a token revoked or rotated early would
 * otherwise fail until then. A refresh starts a fresh credential cache (a copy of the
 * KubeConfig: client-node keeps its caches per KubeConfig object), at most once per generation,
 * however many requests failed with the old credentials.
 */
export interface KubeConfigCredentials {
  apply(): Promise<AppliedCredentials>;
  /** After a 401 with `used`: the new credentials if they differ (worth one retry), else undefined. */
  refreshAfter401(used: AppliedCredentials): Promise<AppliedCredentials | undefined>;
}

interface ExecConfig {
  readonly command?: string;
}

/** The exec plugin of the current user, in either place a kubeconfig can put it. */
function execOf(kc: KubeConfig): ExecConfig | undefined {
  const user = kc.getCurrentUser();
  const provider = user?.authProvider as { name?: string; config?: { exec?: ExecConfig } } | undefined;
  return (user?.exec as ExecConfig | undefined) ?? provider?.config?.exec;
}

/** Whether the current user's credentials come from something that can change: an exec plugin or a token file. */
function refreshable(kc: KubeConfig): boolean {
  const provider = kc.getCurrentUser()?.authProvider as { config?: { tokenFile?: string } } | undefined;
  return execOf(kc) !== undefined || provider?.config?.tokenFile !== undefined;
}

const authorization = (o: NodeHttps.RequestOptions): unknown =>
  o.headers && !Array.isArray(o.headers) ? (o.headers as Record<string, unknown>).Authorization : undefined;

const codeOf = (e: unknown): unknown => (typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined);

/**
 * An error's message; by shape, not `instanceof`: Node's own errors may come from another realm.
 *
 * @example
 * ```ts
 * messageOf(new Error('ENOENT: no such file')); // 'ENOENT: no such file'
 * ```
 */
export const messageOf = (e: unknown): string => {
  const m = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof m === 'string' ? m : String(e);
};

/** client-node's error, as a {@link CredentialError} naming the user and the command or file, and no credential. */
export function credentialError(kc: KubeConfig, err: unknown): unknown {
  const user = kc.getCurrentUser()?.name ?? '';
  const who = `kubeconfig user "${user}"`;
  const exec = execOf(kc);
  if (exec) {
    const command = exec.command ?? '';
    if (codeOf(err) === 'ENOENT')
      return new CredentialError(user, `${who}: the exec credential plugin "${command}" was not found; install it or fix users[].user.exec.command`, { command, cause: err });
    // A JSON.parse message quotes what the plugin printed, a credential perhaps: neither it nor the cause is kept.
    if (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'SyntaxError')
      return new CredentialError(user, `${who}: the exec credential plugin "${command}" printed something that is not an ExecCredential (JSON expected on stdout)`, { command });
    const stderr = messageOf(err).trim().slice(0, 500);
    return new CredentialError(user, `${who}: the exec credential plugin "${command}" failed${stderr ? `: ${stderr}` : ' (no output on stderr)'}`, { command, cause: err });
  }
  const code = codeOf(err);
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    // A token, certificate, key or CA file named in the kubeconfig could not be read (fs errors name the path).
    return new CredentialError(user, `${who}: a credential file could not be read: ${messageOf(err)}`, { cause: err });
  }
  return err;
}

/**
 * The credentials of `kubeConfig`, refreshed after a 401 as client-go does.
 *
 * @example
 * ```ts
 * const credentials = kubeConfigCredentials(kc);
 * const { options } = await credentials.apply(); // headers.Authorization, cert, key, ca, ...
 * ```
 */
export function kubeConfigCredentials(kubeConfig: KubeConfig): KubeConfigCredentials {
  let current = kubeConfig;
  let generation = 0;
  // Requests that ask at the same time share one answer: client-node would run an exec plugin
  // once per request until the first run fills its cache (client-go runs it once).
  let inFlight: { readonly promise: Promise<AppliedCredentials>; readonly generation: number } | undefined;
  const applyNow = async (): Promise<AppliedCredentials> => {
    const at = generation;
    const source = current;
    // The copy shares the user's cluster, user and context lists; follow a context switch.
    source.currentContext = kubeConfig.currentContext;
    const options: NodeHttps.RequestOptions = {};
    try {
      await source.applyToHTTPSOptions(options);
    } catch (e) {
      throw credentialError(source, e);
    }
    return { options, generation: at };
  };
  const apply = (): Promise<AppliedCredentials> => {
    const pending = inFlight?.generation === generation ? inFlight.promise : undefined;
    if (pending) return pending;
    const promise = applyNow().finally(() => {
      if (inFlight?.promise === promise) inFlight = undefined;
    });
    inFlight = { promise, generation };
    return promise;
  };
  return {
    apply,
    async refreshAfter401(used) {
      if (!refreshable(kubeConfig)) return undefined;
      if (used.generation === generation) {
        const fresh = new (kubeConfig.constructor as new () => KubeConfig)();
        fresh.loadFromOptions({ clusters: kubeConfig.clusters, users: kubeConfig.users, contexts: kubeConfig.contexts, currentContext: kubeConfig.currentContext });
        current = fresh;
        generation += 1;
      }
      const next = await apply();
      const same = authorization(next.options) === authorization(used.options) && String(next.options.cert) === String(used.options.cert);
      return same ? undefined : next;
    },
  };
}
