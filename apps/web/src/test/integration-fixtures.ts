import type { TIntegration } from '@podforge/contract';

/** A connected store as `GET /api/integrations` lists it; `over` sets what a test is about. */
export const storeIntegration = (over: Partial<TIntegration> = {}): TIntegration => ({
  id: 's1',
  kind: 'store',
  platform: 'shopify',
  storeName: 'Cat Shop',
  name: 'Cat Shop',
  status: 'connected',
  verifiedAt: '2026-11-01T00:00:00.000Z',
  lastSyncAt: null,
  isConnected: true,
  sandbox: false,
  problem: null,
  ...over,
});
