import type { JsonPatchOperation } from '../write/jsonPatch.js';

/**
 * Internal: RFC 6902 applied to a JSON document, copy on write: `doc` is not modified, and the
 * document returned shares every member the operations did not touch with it (so comparing it
 * with another copy of `doc` costs only what changed). Used to prove that a mutation's patch
 * applies and leads where the handler meant (kube would fail the whole request with a 500 for a
 * patch that does not apply). Throws an Error naming the operation that failed.
 */
export function applyJsonPatch(doc: unknown, operations: ReadonlyArray<JsonPatchOperation>): unknown {
  const state: Patching = { root: doc, owned: new WeakSet() };
  operations.forEach((op, i) => {
    try {
      applyOne(state, op);
    } catch (e) {
      throw new Error(`operation ${i} (${op.op} ${op.path}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  });
  return state.root;
}

type Container = { [key: string]: unknown } | unknown[];
interface Patching {
  root: unknown;
  /** The containers copied by this patching: written in place from then on. */
  readonly owned: WeakSet<object>;
}

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

const parsePointer = (pointer: string): string[] => {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`${JSON.stringify(pointer)} is not a JSON pointer`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
};

const setMember = (c: Container, key: string, value: unknown): void => {
  if (Array.isArray(c)) c[Number(key)] = value;
  // Assignment would set the prototype for `__proto__` (a valid key in JSON).
  else if (key === '__proto__') Object.defineProperty(c, key, { value, writable: true, enumerable: true, configurable: true });
  else c[key] = value;
};

function own(state: Patching, c: Container): Container {
  if (state.owned.has(c)) return c;
  // Spread defines members (an own `__proto__` stays a member).
  const copy: Container = Array.isArray(c) ? c.slice() : { ...c };
  state.owned.add(copy);
  return copy;
}

function child(c: Container, key: string): unknown {
  return Array.isArray(c) ? c[Number(key)] : Object.prototype.hasOwnProperty.call(c, key) ? c[key] : undefined;
}

/** The parent container of `path`, made writable (copied along the way), and the last key. */
function writableParent(state: Patching, path: string[]): { parent: Container; key: string } {
  if (!isContainer(state.root)) throw new Error('the document is not an object');
  let cur = own(state, state.root);
  state.root = cur;
  for (const seg of path.slice(0, -1)) {
    const next = child(cur, seg);
    if (!isContainer(next)) throw new Error(`no such path: ${JSON.stringify(seg)} is missing or not an object`);
    const copy = own(state, next);
    if (copy !== next) setMember(cur, seg, copy);
    cur = copy;
  }
  return { parent: cur, key: path[path.length - 1] };
}

function arrayIndex(arr: unknown[], key: string, forAdd: boolean): number {
  if (forAdd && key === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new Error(`${JSON.stringify(key)} is not an array index`);
  const i = Number(key);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new Error(`index ${i} is out of bounds (length ${arr.length})`);
  return i;
}

function get(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (!isContainer(cur)) throw new Error(`no such path: ${JSON.stringify(seg)} of a non-object`);
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, seg, false)];
    else if (Object.prototype.hasOwnProperty.call(cur, seg)) cur = cur[seg];
    else throw new Error(`no such member: ${JSON.stringify(seg)}`);
  }
  return cur;
}

function remove(state: Patching, path: string[]): unknown {
  if (path.length === 0) throw new Error('cannot remove the whole document');
  const value = get(state.root, path);
  const { parent, key } = writableParent(state, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else delete parent[key];
  return value;
}

function add(state: Patching, path: string[], value: unknown): void {
  if (path.length === 0) {
    state.root = value;
    return;
  }
  const { parent, key } = writableParent(state, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else setMember(parent, key, value);
}

function applyOne(state: Patching, op: JsonPatchOperation): void {
  const path = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      return add(state, path, op.value);
    case 'remove':
      remove(state, path);
      return;
    case 'replace':
      get(state.root, path); // must exist
      if (path.length > 0) remove(state, path);
      return add(state, path, op.value);
    case 'test':
      if (!jsonEqual(get(state.root, path), op.value)) throw new Error('test failed');
      return;
    case 'move':
      return add(state, path, remove(state, parsePointer(op.from)));
    case 'copy':
      return add(state, path, get(state.root, parsePointer(op.from)));
  }
}

/**
 * Internal: JSON equality (objects by their members, whatever their order); the same reference is
 * equal at once.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const bo = b as { [key: string]: unknown };
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(a[k], bo[k]));
}
