import type { SchedulerLike } from 'rxjs';
import type { Authorizer } from '../auth/authorizer.js';
import type { AccessControl } from '../rbac/accessControl.js';
import type { TokenObjectLookup } from '../rbac/serviceAccountToken.js';
import type { Random } from '../random.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { ResourceTypes } from '../registry/resourceTypes.js';
import type { CustomResourceSchemas } from '../schema/customResourceSchemas.js';
import type { Registry } from '../registry/store.js';
import type { Conversion } from '../registry/conversion.js';
import type { Storage } from '../storage/storage.js';
import type { WatchHub } from '../watch/watchHub.js';

/**
 * Everything a request handler needs; one per server (built by context.ts).
 *
 * @example
 * ```ts
 * const { ctx } = createServerContext({});
 * ctx.storage.resourceVersion; // 4 (the default namespaces)
 * ```
 */
export interface ServerContext {
  readonly storage: Storage;
  readonly registry: Registry;
  /** The read and write paths' conversion between a custom resource's versions (None, or its webhook). */
  readonly conversion: Conversion;
  readonly types: ResourceTypes;
  /** The compiled schemas of the stored CRDs (structural schema and CEL rules per served version). */
  readonly schemas: CustomResourceSchemas;
  /** The admission chain (NamespaceLifecycle, then what users register). */
  readonly admission: AdmissionChain;
  readonly hub: WatchHub;
  readonly scheduler: SchedulerLike;
  readonly rng: Random;
  readonly bookmarkIntervalMs: number;
  readonly initialBookmark: boolean;
  readonly watchList: boolean;
  /** KEP-5866 shard selectors honoured (see shardSelector.ts). */
  readonly shardedListAndWatch: boolean;
  readonly tooLargeResourceVersionWaitMs: number;
  /** Current slowEvents delay for new watches. */
  slowMs: number;
  /** The authorization step's chain (auth/authorizer.ts): the tokens' deny lists, then `access`'s. */
  readonly authorizers: Authorizer[];
  /** The server's authorization: its mode, RBAC objects, rules and ServiceAccount token issuer. */
  readonly access: AccessControl;
  /** The objects ServiceAccount tokens name (for TokenRequests and token checks). */
  readonly tokenObjects: TokenObjectLookup;
  /** Resolves true once the global revision reaches `rv`, false after the wait (or on close). */
  waitForRv(rv: number): Promise<boolean>;
}
