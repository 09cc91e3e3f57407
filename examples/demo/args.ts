// Command-line options of the demo.
import { parseArgs } from 'node:util';

/** What the demo does; every field has a default (see `defaultDemoOptions`). */
export interface DemoOptions {
  /** How long the demo runs, in ms. */
  readonly durationMs: number;
  /** Pods seeded into the fake API server. */
  readonly pods: number;
  /** Changes per second the churn makes on the fake API server. */
  readonly rate: number;
  /** Watch the cluster of this kubeconfig (read-only) instead of the fake API server. */
  readonly kubeconfig?: string;
  /** Only this namespace (real cluster and fake server alike); all when unset. */
  readonly namespace?: string;
  /** How often the live view is redrawn, in ms. */
  readonly refreshMs: number;
  /** Seed of the churn's random choices. */
  readonly seed: number;
}

export const defaultDemoOptions: DemoOptions = {
  durationMs: 20_000,
  pods: 3_000,
  rate: 300,
  refreshMs: 1_000,
  seed: 1,
};

export const usage = `rxkube demo: an informer with two handlers and a lister, live.

  npm start [-- options]

  --duration SECONDS   how long to run after the first list (default 20)
  --pods N             pods seeded into the embedded fake API server (default 3000)
  --rate N             changes per second on the fake API server (default 300)
  --namespace NS       watch one namespace only
  --kubeconfig FILE    watch this cluster's pods, read-only (KUBECONFIG works too)
  --help               this text
`;

/** Parses `argv` (without node and the script); `KUBECONFIG` in `env` selects a real cluster. */
export function parseDemoArgs(
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
): { options: DemoOptions; help: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: 'string' },
      pods: { type: 'string' },
      rate: { type: 'string' },
      namespace: { type: 'string' },
      kubeconfig: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const num = (name: string, text: string | undefined, fallback: number, min: number): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`--${name} must be a number >= ${min}, got ${JSON.stringify(text)}`);
    return n;
  };
  const d = defaultDemoOptions;
  const kubeconfig = values.kubeconfig ?? (env.KUBECONFIG ? env.KUBECONFIG.split(':')[0] : undefined);
  return {
    help: values.help === true,
    options: {
      ...d,
      durationMs: num('duration', values.duration, d.durationMs / 1000, 1) * 1000,
      pods: Math.floor(num('pods', values.pods, d.pods, 0)),
      rate: num('rate', values.rate, d.rate, 0),
      ...(values.namespace ? { namespace: values.namespace } : {}),
      ...(kubeconfig ? { kubeconfig } : {}),
    },
  };
}
