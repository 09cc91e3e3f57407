import { parseLabelSelector } from '../../../labels/parseLabelSelector.js';
import { LabelSelectorParseError } from '../../../labels/labelSelectorParseError.js';
import { badRequest } from '../status.js';
import type { ResourceType } from '../resources.js';

/** What a watcher or a list filters on: the labels and the selectable fields of a stored object. */
export interface Selectable {
  readonly labels: { readonly [k: string]: string } | undefined;
  readonly fields: { readonly [k: string]: string };
}

/** A compiled pair of selectors; `matches` is cheap enough to run per event per watcher. */
export interface Selectors {
  readonly isEmpty: boolean;
  matches(o: Selectable): boolean;
}

interface FieldTerm {
  readonly field: string;
  readonly value: string;
  readonly negate: boolean;
}

/** Splits on unescaped commas, as apimachinery's fields parser does (`\,` escapes a comma). */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += s[i + 1];
      i++;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function parseFieldSelector(text: string, type: ResourceType): FieldTerm[] {
  if (text.trim() === '') return [];
  return splitTerms(text).map((term) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw badRequest(`invalid field selector: invalid selector: '${text}'; can't understand '${term}'`);
    const field = m[1];
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !(field in type.fieldSelectors)) {
      throw badRequest(
        Object.keys(type.fieldSelectors).length > 0
          ? `field label not supported: ${field}`
          : `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
    return { field, value: m[3], negate: m[2] === '!=' };
  });
}

/**
 * Compiles `labelSelector` and `fieldSelector` query values; a malformed one is a 400 Status.
 *
 * @example
 * ```ts
 * compileSelectors('app=web', 'spec.nodeName=node-1', podsType).matches(stored);
 * ```
 */
export function compileSelectors(labelSelector: string | undefined, fieldSelector: string | undefined, type: ResourceType): Selectors {
  let labels;
  try {
    labels = parseLabelSelector(labelSelector ?? '');
  } catch (e) {
    if (e instanceof LabelSelectorParseError) throw badRequest(`unable to parse requirement: ${e.reason}`);
    throw e;
  }
  const fields = parseFieldSelector(fieldSelector ?? '', type);
  const isEmpty = labels.isEmpty && fields.length === 0;
  return {
    isEmpty,
    matches: isEmpty
      ? () => true
      : (o) => labels.matches(o.labels) && fields.every((t) => ((o.fields[t.field] ?? '') === t.value) !== t.negate),
  };
}
