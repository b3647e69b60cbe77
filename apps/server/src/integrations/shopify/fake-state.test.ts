import { describe, expect, it } from 'vitest';
import { memoryFakeShopifyStore, StoredTokenMap, tokenDigest } from './fake-state';

describe('StoredTokenMap', () => {
  it('keeps tokens by digest in the store, loads them back after a restart, and deletes while iterating', async () => {
    const store = memoryFakeShopifyStore();
    const before = new StoredTokenMap<{ shop: string }>().attach(store);
    before.set('shpat_one', { shop: 'a.myshopify.com' });
    before.set('shpat_two', { shop: 'b.myshopify.com' });
    await before.flush();
    const rows = await store.list<{ digest: string }>('token', '');
    expect(rows.map((r) => r.digest).sort()).toEqual([tokenDigest('shpat_one'), tokenDigest('shpat_two')].sort());
    expect(JSON.stringify(rows)).not.toContain('shpat_');

    const after = await new StoredTokenMap<{ shop: string }>().attach(store).load();
    expect(after.get('shpat_one')).toEqual({ shop: 'a.myshopify.com' });
    for (const [key, grant] of after) if (grant.shop === 'a.myshopify.com') after.delete(key);
    await after.flush();
    expect(after.has('shpat_one')).toBe(false);
    expect(await new StoredTokenMap().attach(store).recall('shpat_one')).toBeUndefined();
    expect(await new StoredTokenMap().attach(store).recall('shpat_two')).toEqual({ shop: 'b.myshopify.com' });
  });
});
