// robfig/cron/v3's ParseStandard, which kube's CronJob validation runs on `spec.schedule`: five
// fields (minute hour day-of-month month day-of-week) or a descriptor (`@hourly`, `@every 1h`),
// with the library's error texts.

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: { readonly [name: string]: number };
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: ReadonlyArray<Bounds> = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi error for a non-number (kube quotes it inside the cron error). */
const atoiError = (s: string): string => `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;

function parseIntOrName(expr: string, names: Bounds['names']): number | string {
  const named = names?.[expr.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^[+-]?[0-9]+$/.test(expr)) return `failed to parse int from ${expr}: ${atoiError(expr)}`;
  const n = Number.parseInt(expr, 10);
  return n < 0 ? `negative number (${n}) not allowed: ${expr}` : n;
}

function checkRange(expr: string, b: Bounds): string | undefined {
  const [rangeAndStep, ...extraSlash] = expr.split('/');
  if (extraSlash.length > 1) return `too many slashes: ${expr}`;
  const lowAndHigh = rangeAndStep.split('-');
  if (lowAndHigh.length > 2) return `too many hyphens: ${expr}`;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    const s = parseIntOrName(lowAndHigh[0], b.names);
    if (typeof s === 'string') return s;
    start = s;
    end = s;
    if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1], b.names);
      if (typeof e === 'string') return e;
      end = e;
    }
  }
  if (extraSlash.length === 1) {
    const step = parseIntOrName(extraSlash[0], undefined);
    if (typeof step === 'string') return step;
    if (step === 0) return `step of range should be a positive number: ${expr}`;
    if (lowAndHigh.length === 1 && lowAndHigh[0] !== '*' && lowAndHigh[0] !== '?') end = b.max;
  }
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return undefined;
}

function checkField(field: string, b: Bounds): string | undefined {
  for (const expr of field.split(',')) {
    const err = checkRange(expr, b);
    if (err) return err;
  }
  return undefined;
}

function checkDescriptor(spec: string): string | undefined {
  if (DESCRIPTORS.has(spec)) return undefined;
  if (spec.startsWith('@every ')) {
    const d = spec.slice('@every '.length);
    return /^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/.test(d) && /[0-9]/.test(d) ? undefined : `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(d)}`;
  }
  return `unrecognized descriptor: ${spec}`;
}

/**
 * The error `cron.ParseStandard` returns for a schedule, or undefined when it parses.
 *
 * @example
 * ```ts
 * cronScheduleError('*\/5 * * * *'); // undefined
 * cronScheduleError('every minute'); // 'expected exactly 5 fields, found 2: [every minute]'
 * ```
 */
export function cronScheduleError(schedule: string): string | undefined {
  let spec = schedule;
  if (spec.length === 0) return 'empty spec string';
  const tz = /^(CRON_TZ|TZ)=(\S*)\s*/.exec(spec);
  if (tz) {
    if (!isTimeZone(tz[2])) return `provided bad location ${tz[2]}: unknown time zone ${tz[2]}`;
    spec = spec.slice(tz[0].length);
  }
  const fields = spec.trim().split(/\s+/).filter((f) => f !== '');
  if (fields.length === 0) return 'empty spec string';
  if (fields[0].startsWith('@')) return checkDescriptor(spec.trim());
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    const err = checkField(fields[i], FIELDS[i]);
    if (err) return err;
  }
  return undefined;
}

/**
 * Whether Go's `time.LoadLocation` knows the zone (the IANA database; `UTC` included).
 *
 * @example
 * ```ts
 * isTimeZone('Europe/Paris'); // true
 * ```
 */
export function isTimeZone(name: string): boolean {
  if (name === 'UTC' || name === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
