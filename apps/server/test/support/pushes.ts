import type { TPushState } from '@podforge/contract';
import type { TestApp, TestClient } from '../helpers';

/** Polls the product's pushes until this store's is no longer running (about a minute at most). */
export async function settledPush(client: TestClient, productId: string, integrationId: string): Promise<TPushState> {
  for (let i = 0; i < 600; i++) {
    const { pushes } = (await client.get(`/api/products/${productId}/pushes`)).json<{ pushes: TPushState[] }>();
    const mine = pushes.find((p) => p.integrationId === integrationId);
    if (mine && mine.state !== 'running') return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the push did not settle');
}

/** Runs `body` with uploads answering at once (202, the push left to its job), then restores the usual wait. */
export async function withoutPushWait<T>(t: TestApp, body: () => Promise<T>): Promise<T> {
  const wait = t.deps.config.storePushWaitSeconds;
  t.deps.config.storePushWaitSeconds = 0;
  try {
    return await body();
  } finally {
    t.deps.config.storePushWaitSeconds = wait;
  }
}
