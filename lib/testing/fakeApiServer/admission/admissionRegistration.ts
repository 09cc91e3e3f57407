import type { SchedulerLike } from 'rxjs';
import type { Random } from '../random.js';
import type { JsonObject, ResourceType } from '../resources.js';
import type { Storage } from '../storage/storage.js';
import { objectKey, parseStored, type StoredObject } from '../storage/storedObject.js';
import { labelSelectorFromObject } from '../../../labels/labelSelector.js';
import { mergeSchemaOf, type MergeSchema } from '../fields/listTypes.js';
import type { PolicySource } from './policyBindings.js';
import type { AdmissionPlugin } from './attributes.js';
import type { AdmissionChain } from './chain.js';
import type { ConfiguredWebhook, StoredWebhook, WebhookSource } from './admissionWebhooks.js';
import type { InProcessWebhook, WebhookRoutes } from './webhookCall.js';

// The admission API objects written to the server (admissionregistration.k8s.io: webhook
// configurations, admission policies and bindings) as the plugins read them: parsed once per
// change, and the plugins in the chain only while some object of their kind exists (an empty
// chain keeps the store's fast paths, as a cluster without webhooks pays nothing for them).

const GROUP = 'admissionregistration.k8s.io';

/**
 * A webhook the test cluster answers without HTTP: a function from review to review, or the
 * `rxkube/webhooks` webhook object (its `review`).
 *
 * @example
 * ```ts
 * const handler: WebhookHandler = validatingWebhook({ resource, validate: () => denied('no') });
 * ```
 */
export type WebhookHandler = InProcessWebhook | { review(review: never): Promise<unknown> };

/**
 * Where the webhooks named by stored configurations go, for the option `webhooks` of
 * `startFakeApiServer`: Service references (keyed `namespace/name`, or `namespace/name:port/path`
 * for one port and path) to a base URL or an in-process handler (a test cluster has no DNS for
 * `<svc>.<ns>.svc`); and URLs (exact, without the query) answered in process.
 *
 * @example
 * ```ts
 * const endpoints: WebhookEndpoints = {
 *   services: { 'backups/webhooks': 'https://127.0.0.1:9443' },
 *   urls: { 'https://webhooks.test/validate': validating },
 * };
 * ```
 */
export interface WebhookEndpoints {
  readonly services?: ReadonlyMap<string, string | WebhookHandler> | { readonly [key: string]: string | WebhookHandler };
  readonly urls?: ReadonlyMap<string, WebhookHandler> | { readonly [url: string]: WebhookHandler };
}

const toHandler = (h: WebhookHandler): InProcessWebhook => (typeof h === 'function' ? h : (review: unknown) => h.review(review as never));

function entries<V>(m: ReadonlyMap<string, V> | { readonly [key: string]: V } | undefined): Array<[string, V]> {
  if (!m) return [];
  return m instanceof Map ? [...(m as ReadonlyMap<string, V>).entries()] : Object.entries(m as { [key: string]: V });
}

/**
 * Routes and in-process handlers for callWebhook, from the option.
 *
 * @example
 * ```ts
 * const { routes, inProcess } = webhookRouting({ services: { 'ns/svc': 'https://127.0.0.1:9443' } });
 * ```
 */
export function webhookRouting(e: WebhookEndpoints | undefined): { routes: WebhookRoutes; inProcess: ReadonlyMap<string, InProcessWebhook> } {
  const routes = new Map(entries(e?.services).map(([k, v]) => [k, typeof v === 'string' ? v : toHandler(v)] as const));
  const inProcess = new Map(entries(e?.urls).map(([k, v]) => [k, toHandler(v)] as const));
  return { routes, inProcess };
}

/**
 * The served types, as the registration asks them (the registry's `ResourceTypes` and the stored
 * CRDs: passed in, since admission sits below the registry).
 *
 * @example
 * ```ts
 * const types: ServedTypes = { find: (g, v, p) => registryTypes.find(g, v, p), all: () => registryTypes.all(), crdOf: () => undefined };
 * ```
 */
export interface ServedTypes {
  find(group: string, version: string, plural: string): ResourceType | undefined;
  all(): ReadonlyArray<ResourceType>;
  /** The stored CRD of a custom resource type. */
  crdOf(type: ResourceType): StoredObject | undefined;
}

/** What the registration needs of the server. */
export interface AdmissionRegistrationDeps {
  readonly storage: Storage;
  readonly types: ServedTypes;
  /** RFC 6902 JSON Patch as the server applies it (kube's texts for a patch that does not apply). */
  readonly jsonPatch: (doc: unknown, ops: unknown) => unknown;
  readonly chain: AdmissionChain;
  readonly scheduler: SchedulerLike;
  readonly rng: Random;
  readonly endpoints?: WebhookEndpoints;
}

/** Plugins that run while some object of `plurals` exists. */
interface Gated {
  readonly plurals: ReadonlyArray<string>;
  readonly plugin: AdmissionPlugin;
  readonly stage: 'policy' | 'webhook';
  remove?: () => void;
}

/**
 * The stored admission objects and the plugins that act on them.
 *
 * @example
 * ```ts
 * const registration = new AdmissionRegistration({ storage, types, chain, scheduler, rng });
 * registration.gate(['validatingwebhookconfigurations'], validatingAdmissionWebhooks(registration.webhookSource()), 'webhook');
 * ```
 */
export class AdmissionRegistration {
  private readonly cache = new Map<string, ReadonlyArray<JsonObject>>();
  private readonly gated: Gated[] = [];

  constructor(private readonly deps: AdmissionRegistrationDeps) {
    deps.storage.onChange((c) => {
      if (c.resource.group !== GROUP) return;
      this.cache.delete(c.resource.plural);
      this.sync();
    });
  }

  /** The stored objects of an admissionregistration.k8s.io resource, sorted by name. */
  objects(plural: string): ReadonlyArray<JsonObject> {
    let list = this.cache.get(plural);
    if (!list) {
      const type = this.deps.types.find(GROUP, 'v1', plural);
      list = type ? [...this.deps.storage.snapshot(type, this.deps.storage.resourceVersion)].map(parseStored) : [];
      list = [...list].sort((x, y) => (nameOf(x) < nameOf(y) ? -1 : nameOf(x) > nameOf(y) ? 1 : 0));
      this.cache.set(plural, list);
    }
    return list;
  }

  /** Registers `plugin` in the chain while some object of `plurals` is stored. */
  gate(plurals: ReadonlyArray<string>, plugin: AdmissionPlugin, stage: 'policy' | 'webhook'): void {
    this.gated.push({ plurals, plugin, stage });
    this.sync();
  }

  private sync(): void {
    for (const g of this.gated) {
      const wanted = g.plurals.some((p) => this.objects(p).length > 0);
      if (wanted && !g.remove) g.remove = this.deps.chain.register(g.plugin, g.stage);
      else if (!wanted && g.remove) {
        g.remove();
        g.remove = undefined;
      }
    }
  }

  /** A stored namespace. */
  namespaceOf(name: string): JsonObject | undefined {
    const type = this.deps.types.find('', 'v1', 'namespaces');
    const s = type ? this.deps.storage.get(type, name) : undefined;
    return s ? parseStored(s) : undefined;
  }

  /** The kind served at `group/version/resource`. */
  servedKind(group: string, version: string, resource: string): string | undefined {
    return this.deps.types.find(group, version, resource)?.kind;
  }

  /** What the webhook plugins read: the stored configurations' webhooks, in kube's order. */
  webhookSource(): WebhookSource {
    const { routes, inProcess } = webhookRouting(this.deps.endpoints);
    return {
      webhooks: (type) => this.webhooks(type),
      namespaceOf: (n) => this.namespaceOf(n),
      served: (g, v, r) => this.servedKind(g, v, r),
      uuid: () => this.deps.rng.uuid(),
      jsonPatch: this.deps.jsonPatch,
      scheduler: this.deps.scheduler,
      routes,
      inProcess,
    };
  }

  /** What the policy plugins read: policies and bindings by name, namespaces, params, merge schemas. */
  policySource(): PolicySource & { mergeSchema(group: string, version: string, resource: string): MergeSchema | undefined; jsonPatch(doc: unknown, ops: unknown): unknown } {
    return {
      jsonPatch: this.deps.jsonPatch,
      policies: (kind) => this.objects(`${kind}admissionpolicies`),
      bindings: (kind) => this.objects(`${kind}admissionpolicybindings`),
      namespaceOf: (n) => this.namespaceOf(n),
      served: (g, v, r) => this.servedKind(g, v, r),
      paramType: (apiVersion, kind) => this.paramType(apiVersion, kind),
      params: (apiVersion, kind, namespace, ref) => {
        const type = this.paramType(apiVersion, kind);
        if (!type) return [];
        if (ref.name !== undefined) {
          const s = this.deps.storage.get(type, objectKey(namespace, ref.name));
          return s ? [parseStored(s)] : [];
        }
        const selector = labelSelectorFromObject(ref.selector ?? {});
        return [...this.deps.storage.snapshot(type, this.deps.storage.resourceVersion, namespace || undefined)]
          .map(parseStored)
          .filter((o) => selector.matches((o.metadata as { labels?: { [k: string]: string } } | undefined)?.labels));
      },
      mergeSchema: (group, version, resource) => {
        const type = this.deps.types.find(group, version, resource);
        if (!type) return undefined;
        const crd = type.builtIn ? undefined : this.deps.types.crdOf(type);
        return mergeSchemaOf(type, crd ? parseStored(crd) : undefined);
      },
    };
  }

  private paramType(apiVersion: string, kind: string): ResourceType | undefined {
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    return this.deps.types.all().find((t) => t.group === group && t.version === version && t.kind === kind);
  }

  private webhooks(type: 'mutating' | 'validating'): ReadonlyArray<ConfiguredWebhook> {
    const configs = this.objects(`${type}webhookconfigurations`);
    return configs.flatMap((c) => ((c.webhooks as StoredWebhook[] | undefined) ?? []).map((hook) => ({ configuration: nameOf(c), hook })));
  }
}

const nameOf = (o: JsonObject): string => ((o.metadata as { name?: string } | undefined)?.name ?? '');
