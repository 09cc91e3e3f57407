import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import type { FifoMode, FifoQueueOptions } from '../../lib/fifo/fifoQueue.js';
import { keyFunc, type TestObj } from './fixtures.js';

/** Shared by the fifoQueue*.spec.ts files: both modes, and a queue of either. */
export const modes: FifoMode[] = ['coalescing', 'ordered'];
export const q = (mode: FifoMode, options: FifoQueueOptions<TestObj> = {}) =>
  createFifoQueue<TestObj>({ keyFunc, mode, ...options });
/** The delta type each mode gives Replace items by default. */
export const replaced = (mode: FifoMode) => (mode === 'coalescing' ? 'Sync' : 'Replaced');
