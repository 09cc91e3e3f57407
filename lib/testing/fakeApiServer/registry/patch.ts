import type { JsonObject } from '../resources.js';
import { StatusError, badRequest, failure, unsupportedMediaType } from '../status.js';
import type { PatchType } from '../writeOptions.js';

export type { PatchType };

const CONTENT_TYPES: { [ct: string]: PatchType } = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

/** The patch type a `Content-Type` names; 415 otherwise (strategic merge only for built-in types). */
export function patchTypeOf(contentType: string | undefined, builtIn: boolean): PatchType {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const t = CONTENT_TYPES[ct];
  if (!t || (t === 'strategic' && !builtIn)) throw unsupportedMediaType(builtIn);
  return t;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
/** `obj[key] = value` as an own property, also for `__proto__` (which assignment would take as the prototype). */
const setOwn = (obj: JsonObject, key: string, value: unknown): void =>
  void Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });

/** RFC 7386 JSON merge patch: objects merge recursively, `null` deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(out[k], v));
  }
  return out;
}

/**
 * Strategic merge patch, approximated as APISERVER.md allows: a merge patch in which lists of
 * objects that all have a `name` merge by name, and `$...` directive keys are dropped (`$patch:
 * delete` on a list element removes it).
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (Array.isArray(patch) && Array.isArray(target)) {
    const named = (a: unknown[]) => a.every((e) => isObject(e) && typeof e.name === 'string');
    if (!named(patch) || !named(target)) return stripDirectives(patch);
    const out = (target as JsonObject[]).map((e) => ({ ...e }));
    for (const p of patch as JsonObject[]) {
      const i = out.findIndex((e) => e.name === p.name);
      if (p.$patch === 'delete') {
        if (i >= 0) out.splice(i, 1);
      } else if (i >= 0) out[i] = strategicMergePatch(out[i], p) as JsonObject;
      else out.push(stripDirectives(p) as JsonObject);
    }
    return out;
  }
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else setOwn(out, k, strategicMergePatch(out[k], v));
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) setOwn(out, k, stripDirectives(x));
  return out;
}

interface Op {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

const pointer = (p: string): string[] => {
  if (p === '') return [];
  if (!p.startsWith('/')) throw badRequest(`the server rejected our request due to an error in our request: invalid JSON pointer "${p}"`);
  return p.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
};

const patchFailed = (msg: string) => new StatusError(failure(422, 'Invalid', msg));

function parentOf(doc: unknown, path: string[], opName: string): { parent: JsonObject | unknown[]; key: string } {
  let cur: unknown = doc;
  for (const seg of path.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObject(cur)) cur = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    else cur = undefined;
    if (cur === undefined) throw patchFailed(`${opName} operation does not apply: doc is missing path: "/${path.join('/')}": missing value`);
  }
  if (!Array.isArray(cur) && !isObject(cur)) throw patchFailed(`${opName} operation does not apply: doc is missing path: "/${path.join('/')}"`);
  return { parent: cur, key: path[path.length - 1] };
}

function getAt(doc: unknown, path: string[]): unknown {
  let cur = doc;
  for (const seg of path) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObject(cur)) cur = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    else return undefined;
  }
  return cur;
}

function removeAt(doc: unknown, path: string[], opName: string): unknown {
  const { parent, key } = parentOf(doc, path, opName);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!(i >= 0 && i < parent.length)) throw patchFailed(`${opName} operation does not apply: doc is missing path: "/${path.join('/')}"`);
    return parent.splice(i, 1)[0];
  }
  if (!Object.hasOwn(parent, key)) throw patchFailed(`${opName} operation does not apply: doc is missing path: "/${path.join('/')}"`);
  const v = parent[key];
  delete parent[key];
  return v;
}

function addAt(doc: unknown, path: string[], value: unknown, replace: boolean, opName: string): unknown {
  if (path.length === 0) return clone(value);
  const { parent, key } = parentOf(doc, path, opName);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!(i >= 0 && i <= parent.length) || (replace && i >= parent.length)) throw patchFailed(`${opName} operation does not apply: index out of range`);
    if (replace) parent[i] = clone(value);
    else parent.splice(i, 0, clone(value));
  } else {
    if (replace && !Object.hasOwn(parent, key)) throw patchFailed(`replace operation does not apply: doc is missing key: /${path.join('/')}: missing value`);
    setOwn(parent, key, clone(value));
  }
  return doc;
}

/** RFC 6902 JSON patch (add, remove, replace, move, copy, test). */
export function jsonPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let out = clone(doc);
  for (const raw of ops as Op[]) {
    if (!isObject(raw)) throw badRequest('json: cannot unmarshal a non-object into Go value of type jsonpatch.Operation');
    const kinds = ['add', 'replace', 'remove', 'move', 'copy', 'test'];
    if (!kinds.includes(raw.op)) throw badRequest(`Unexpected kind: ${String(raw.op)}`);
    if (typeof raw.path !== 'string') throw badRequest(`${raw.op} operation: missing path`);
    if ((raw.op === 'move' || raw.op === 'copy') && typeof raw.from !== 'string') throw badRequest(`${raw.op} operation: missing from`);
    const path = pointer(raw.path);
    switch (raw.op) {
      case 'add':
        out = addAt(out, path, raw.value, false, 'add');
        break;
      case 'replace':
        out = addAt(out, path, raw.value, true, 'replace');
        break;
      case 'remove':
        removeAt(out, path, 'remove');
        break;
      case 'move': {
        const v = removeAt(out, pointer(raw.from ?? ''), 'move');
        out = addAt(out, path, v, false, 'move');
        break;
      }
      case 'copy':
        out = addAt(out, path, getAt(out, pointer(raw.from ?? '')), false, 'copy');
        break;
      case 'test':
        if (JSON.stringify(getAt(out, path)) !== JSON.stringify(raw.value)) throw patchFailed(`testing value /${path.join('/')} failed: test failed`);
        break;
      default:
        throw badRequest(`Unexpected kind: ${String(raw.op)}`);
    }
  }
  return out;
}

/** Applies a patch of `type` to `doc` (a fresh copy: `doc` is not modified). */
export function applyPatch(type: PatchType, doc: JsonObject, patch: unknown): JsonObject {
  const out = type === 'json' ? jsonPatch(doc, patch) : type === 'strategic' ? strategicMergePatch(doc, patch) : mergePatch(doc, patch);
  if (!isObject(out)) throw badRequest('the patch produced something that is not an object');
  return out;
}
