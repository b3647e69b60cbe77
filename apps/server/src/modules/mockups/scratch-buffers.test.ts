import { describe, expect, it } from 'vitest';
import { ScratchBuffers } from './scratch-buffers';

describe('ScratchBuffers', () => {
  it('lends a buffer of the size asked, and lends a given-back one again', () => {
    const pool = new ScratchBuffers(10 * 1024 * 1024, 60_000);
    const a = pool.take(1000);
    expect(a.length).toBe(1000);
    pool.give(a);
    const b = pool.take(2000);
    expect(b.length).toBe(2000);
    expect(b.buffer).toBe(a.buffer);
    // Not lent twice while out.
    const c = pool.take(2000);
    expect(c.buffer).not.toBe(b.buffer);
  });

  it('keeps no more than its limit', () => {
    const pool = new ScratchBuffers(1024 * 1024, 60_000);
    const a = pool.take(10);
    const b = pool.take(10);
    pool.give(a);
    pool.give(b); // over the limit: dropped
    expect(pool.take(10).buffer).toBe(a.buffer);
    expect(pool.take(10).buffer).not.toBe(b.buffer);
  });
});
