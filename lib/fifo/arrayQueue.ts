/**
 * A first-in first-out array with O(1) amortised `push` and `shift` (`Array.prototype.shift` is
 * O(n)): a head index, and the consumed prefix dropped once it is at least half of the array.
 * Internal to the FIFO and to the handlers' buffers.
 *
 * @internal
 * @example
 * ```ts
 * const q = new ArrayQueue<string>();
 * q.push('a');
 * q.shift(); // 'a'
 * ```
 */
export class ArrayQueue<E> {
  private items: Array<E | undefined> = [];
  private head = 0;

  /** How many elements are queued. */
  get length(): number {
    return this.items.length - this.head;
  }

  push(e: E): void {
    this.items.push(e);
  }

  shift(): E | undefined {
    if (this.head >= this.items.length) return undefined;
    const e = this.items[this.head];
    // Drop the reference so a popped object can be collected.
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return e;
  }

  /** The oldest element, left in place; `undefined` when empty. */
  peek(): E | undefined {
    return this.items[this.head];
  }

  /** Takes every element, oldest first, leaving the queue empty. */
  drain(): E[] {
    const out = (this.head === 0 ? this.items : this.items.slice(this.head)) as E[];
    this.clear();
    return out;
  }

  /** Drops every element. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }

  /** Visits the queued elements, oldest first. */
  forEach(fn: (e: E) => void): void {
    for (let i = this.head; i < this.items.length; i++) fn(this.items[i] as E);
  }

  /** The queued elements, oldest first (a copy). */
  toArray(): E[] {
    return this.items.slice(this.head) as E[];
  }
}
