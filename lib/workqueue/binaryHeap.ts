/**
 * A binary min-heap ordered by `less`, the backing store of the delaying part and the ready part of
 * the work queue (client-go's `waitForPriorityQueue`). Entries are never updated in place: the queue
 * pushes a new entry and skips stale ones when it pops them (lazy deletion), which keeps every
 * operation O(log n).
 *
 * @example
 * ```ts
 * const heap = new BinaryHeap<number>((a, b) => a < b);
 * heap.push(3); heap.push(1);
 * heap.pop(); // 1
 * ```
 */
export class BinaryHeap<E> {
  private readonly items: E[] = [];

  constructor(private readonly less: (a: E, b: E) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): E | undefined {
    return this.items[0];
  }

  push(item: E): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): E | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop() as E;
    if (items.length > 0) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const n = items.length;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(items[l], items[m])) m = l;
      if (r < n && this.less(items[r], items[m])) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m], items[i]];
      i = m;
    }
  }
}
