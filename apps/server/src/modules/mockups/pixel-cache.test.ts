import { describe, expect, it } from 'vitest';
import type { DesignLayer } from './mockup-render';
import { PixelCache } from './pixel-cache';

const layer = (bytes: number): DesignLayer => ({ data: Buffer.alloc(bytes), width: 1, height: 1, left: 0, top: 0 });

describe('PixelCache', () => {
  it('makes a layer once per key and shares it', async () => {
    const cache = new PixelCache<DesignLayer>(100);
    let made = 0;
    const make = async () => {
      made += 1;
      return layer(10);
    };
    const [a, b] = await Promise.all([cache.get('k', make), cache.get('k', make)]);
    expect(made).toBe(1);
    expect(a).toBe(b);
    await cache.get('other', make);
    expect(made).toBe(2);
  });

  it('forgets the least recently used past its size, and failures at once', async () => {
    const cache = new PixelCache<DesignLayer>(25);
    await cache.get('a', async () => layer(10));
    await cache.get('b', async () => layer(10));
    await cache.get('a', async () => layer(10)); // a is now the most recent
    await cache.get('c', async () => layer(10));
    await new Promise((resolve) => setImmediate(resolve));
    let remade = '';
    await cache.get('b', async () => {
      remade += 'b';
      return layer(1);
    });
    await cache.get('a', async () => {
      remade += 'a';
      return layer(1);
    });
    expect(remade).toBe('b');

    await expect(cache.get('bad', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await new Promise((resolve) => setImmediate(resolve));
    await expect(cache.get('bad', async () => layer(1))).resolves.toBeTruthy();
  });
});
