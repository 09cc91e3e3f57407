// The demo's live view: a compact table redrawn in place on a terminal, one line per refresh
// otherwise (CI logs, pipes), and the final summary.

/** One refresh worth of figures. */
export interface Frame {
  readonly title: string;
  readonly elapsedMs: number;
  readonly durationMs: number;
  readonly eventsPerSecond: number;
  readonly changesPerSecond: number | undefined;
  readonly objects: number;
  readonly resourceVersion: string;
  readonly synced: boolean;
  /** namespace -> phase -> count (the largest namespaces first). */
  readonly table: ReadonlyArray<{
    readonly namespace: string;
    readonly phases: ReadonlyMap<string, number>;
    readonly total: number;
  }>;
  readonly phases: ReadonlyArray<string>;
  readonly handlers: ReadonlyArray<{
    readonly name: string;
    readonly handled: number;
    readonly queued: number;
    readonly lagMs: number;
  }>;
  readonly listerLines: ReadonlyArray<string>;
  /** The latest changes nobody in the demo made (kubectl, another client), newest last. */
  readonly outsideChanges: ReadonlyArray<string>;
  /** How many changes from outside arrived since the previous frame. */
  readonly newOutsideChanges: number;
  readonly errors: number;
}

/** What each figure of the plain status line means (printed once, before the first line). */
export const LEGEND =
  'legend: [elapsed] events/s=informer notifications per second, changes/s=changes the demo makes per second, ' +
  'objects=pods in the store, synced=first list done, NAME=handled/queued q/lag ms for each handler ' +
  '(lag: age of its oldest undelivered notification), errors=informer errors; ' +
  'changes made by others (kubectl) are printed as "outside:" lines';

const pad = (s: string | number, n: number) => String(s).padStart(n);
const padEnd = (s: string | number, n: number) => String(s).padEnd(n);

/** The frame as lines of a table. */
export function renderFrame(f: Frame): string[] {
  const secs = (ms: number) => `${Math.floor(ms / 1000)}s`;
  const lines = [
    `${f.title} · ${secs(f.elapsedMs)} / ${secs(f.durationMs)}${f.synced ? '' : ' · listing…'}`,
    `events/s ${Math.round(f.eventsPerSecond)}` +
      (f.changesPerSecond === undefined ? '' : ` · changes/s ${Math.round(f.changesPerSecond)}`) +
      ` · store ${f.objects} objects at rv ${f.resourceVersion || '-'} · errors ${f.errors}`,
    '',
    `${padEnd('namespace', 14)}${f.phases.map((p) => pad(p, 10)).join('')}${pad('total', 8)}`,
    ...f.table.map(
      (row) =>
        `${padEnd(row.namespace, 14)}${f.phases.map((p) => pad(row.phases.get(p) ?? 0, 10)).join('')}${pad(row.total, 8)}`,
    ),
    '',
    `${padEnd('handler', 14)}${pad('handled', 10)}${pad('queued', 9)}${pad('lag', 10)}`,
    ...f.handlers.map(
      (h) =>
        `${padEnd(h.name, 14)}${pad(h.handled, 10)}${pad(h.queued, 9)}${pad(`${Math.round(h.lagMs)} ms`, 10)}`,
    ),
    '',
    ...f.listerLines,
    ...(f.outsideChanges.length > 0 ? ['', 'changes by others (kubectl, other clients):', ...f.outsideChanges.map((c) => `  ${c}`)] : []),
  ];
  return lines;
}

/** The frame as plain lines, for output that is not a terminal: the status, then new outside changes. */
export function renderLine(f: Frame): string {
  const handlers = f.handlers
    .map((h) => `${h.name}=${h.handled}/${h.queued}q/${Math.round(h.lagMs)}ms`)
    .join(' ');
  const status =
    `[${(f.elapsedMs / 1000).toFixed(0).padStart(3)}s] events/s=${Math.round(f.eventsPerSecond)}` +
    (f.changesPerSecond === undefined ? '' : ` changes/s=${Math.round(f.changesPerSecond)}`) +
    ` objects=${f.objects} synced=${f.synced} ${handlers} errors=${f.errors}`;
  const fresh = f.outsideChanges.slice(Math.max(f.outsideChanges.length - f.newOutsideChanges, 0));
  return [status, ...fresh.map((c) => `      outside: ${c}`)].join('\n');
}

/** Writes frames: in place on a terminal (cursor up, clear down), appended otherwise. */
export function frameWriter(out: {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}): (f: Frame) => void {
  let previous = 0;
  let legend = false;
  return (f) => {
    if (out.isTTY) {
      // Lines are clipped to the terminal's width: a wrapped line would break the redraw.
      const width = Math.max((out.columns || 100) - 1, 20);
      const lines = renderFrame(f).map((l) => (l.length > width ? l.slice(0, width - 1) + '…' : l));
      out.write((previous > 0 ? `\x1b[${previous}A\x1b[J` : '') + lines.join('\n') + '\n');
      previous = lines.length;
    } else {
      if (!legend) out.write(LEGEND + '\n');
      legend = true;
      out.write(renderLine(f) + '\n');
    }
  };
}
