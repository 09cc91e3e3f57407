import { RxkubeError } from '../errors.js';

/**
 * The kubeconfig's credentials could not be obtained or used: an exec plugin is missing, failed or
 * printed no ExecCredential, a token or certificate file cannot be read, a client certificate does
 * not match its key or has expired. The message names the kubeconfig user and the command or
 * file, and never contains a credential. The reflector retries after its backoff, so fixing the
 * cause (installing the plugin, renewing the certificate) recovers without a restart.
 *
 * @example
 * ```ts
 * informer.errors$.subscribe((e) => {
 *   if (e instanceof CredentialError) console.error(`fix the kubeconfig of ${e.user}: ${e.message}`);
 * });
 * ```
 */
export class CredentialError extends RxkubeError {
  /** The kubeconfig user (its `users[].name`). */
  readonly user: string;
  /** The exec plugin's command, when an exec plugin was involved. */
  readonly command: string | undefined;

  constructor(user: string, message: string, options?: { command?: string; cause?: unknown }) {
    super('CredentialError', message, { cause: options?.cause });
    this.user = user;
    this.command = options?.command;
  }
}
