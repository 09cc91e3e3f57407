import type { JsonPatchOperation } from '../write/jsonPatch.js';

/**
 * Internal: RFC 6902 applied to a JSON document, used to prove that a mutation's patch applies to
 * the object kube holds and leads where the handler meant (kube would answer a patch that does not
 * apply with a 500 for the whole request). Throws an Error naming the operation that failed.
 * `doc` is modified in place (pass a copy); returns the new root.
 */
export function applyJsonPatch(doc: unknown, operations: ReadonlyArray<JsonPatchOperation>): unknown {
  let root = doc;
  operations.forEach((op, i) => {
    try {
      root = applyOne(root, op);
    } catch (e) {
      throw new Error(`operation ${i} (${op.op} ${op.path}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  });
  return root;
}

type Container = { [key: string]: unknown } | unknown[];

const parsePointer = (pointer: string): string[] => {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`${JSON.stringify(pointer)} is not a JSON pointer`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
};

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

function parentOf(root: unknown, path: string[]): { parent: Container; key: string } {
  let cur: unknown = root;
  for (const seg of path.slice(0, -1)) {
    if (!isContainer(cur)) throw new Error(`no such path: ${seg} of a non-object`);
    cur = Array.isArray(cur) ? cur[Number(seg)] : cur[seg];
  }
  if (!isContainer(cur)) throw new Error('the parent does not exist');
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
  if (path.length === 0) return root;
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false)];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new Error(`no such member: ${JSON.stringify(key)}`);
  return parent[key];
}

function remove(root: unknown, path: string[]): unknown {
  if (path.length === 0) throw new Error('cannot remove the whole document');
  const { parent, key } = parentOf(root, path);
  const value = get(root, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false), 1);
  else delete parent[key];
  return value;
}

function add(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  return root;
}

const copy = (v: unknown): unknown => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown));

function applyOne(root: unknown, op: JsonPatchOperation): unknown {
  const path = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      return add(root, path, copy(op.value));
    case 'remove':
      remove(root, path);
      return root;
    case 'replace':
      get(root, path); // must exist
      if (path.length === 0) return copy(op.value);
      remove(root, path);
      return add(root, path, copy(op.value));
    case 'test':
      if (!jsonEqual(get(root, path), op.value)) throw new Error('test failed');
      return root;
    case 'move': {
      const value = remove(root, parsePointer(op.from));
      return add(root, path, value);
    }
    case 'copy':
      return add(root, path, copy(get(root, parsePointer(op.from))));
  }
}

/**
 * Internal: JSON equality (objects by their members, whatever their order).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const bo = b as { [key: string]: unknown };
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEqual(a[k], bo[k]));
}
