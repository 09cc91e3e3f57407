/**
 * Freezes `value` and every object and array reachable from it, in place, and returns it.
 *
 * - Iterative (an explicit stack), so deep objects cannot overflow the call stack.
 * - An object that is already frozen is taken as deeply frozen and not walked again: objects that
 *   went through `deepFreeze` (or immer, which freezes deeply) cost O(1) the second time, and a new
 *   version of an object that shares frozen subtrees with the old one (immer's `produce`) costs only
 *   its changed part. An object frozen shallowly by someone else keeps mutable children.
 * - Typed arrays and `ArrayBuffer` views are left alone (they cannot be frozen).
 *
 * rxkube freezes every object on its way into the store, so objects handed to handlers and readers
 * are immutable: assigning to one throws a `TypeError` in strict mode (every ES module).
 *
 * @example
 * ```ts
 * const pod = deepFreeze({ metadata: { name: 'a', labels: { app: 'web' } } });
 * pod.metadata.labels.app = 'db'; // TypeError: Cannot assign to read only property 'app'
 * ```
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // One work stack for every call (no allocation per object); a fresh one if a getter re-enters.
  const stack = sharedStackBusy ? [] : sharedStack;
  const owns = stack === sharedStack;
  sharedStackBusy = true;
  try {
    stack.push(value);
    walk(stack);
  } finally {
    stack.length = 0;
    if (owns) sharedStackBusy = false;
  }
  return value;
}

const sharedStack: object[] = [];
let sharedStackBusy = false;

function walk(stack: object[]): void {
  while (stack.length > 0) {
    const obj = stack.pop() as object;
    if (ArrayBuffer.isView(obj)) continue;
    Object.freeze(obj);
    if (Array.isArray(obj)) {
      for (let i = 0; i < obj.length; i++) {
        const child: unknown = obj[i];
        if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) stack.push(child);
      }
    } else {
      // Own enumerable string keys: what JSON and the API server produce.
      for (const k in obj) {
        if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
        const child: unknown = (obj as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) stack.push(child);
      }
    }
  }
}
