import type { Registry } from 'prom-client';

/** The registries a metric registers on (prom-client's `registers` option). @internal */
export type Registers = Registry[];
