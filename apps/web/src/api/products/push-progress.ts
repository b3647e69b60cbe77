import type { TPushState, TPushStates } from '@podforge/contract';
import { api } from '@/lib/api-client';

/** `GET /api/products/:id/pushes`: each store push of the product and where it is. */
export const getPushes = (productId: string) =>
  api.get<TPushStates>(`/api/products/${encodeURIComponent(productId)}/pushes`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A push still running when its request answered (the server answers 'running' after a while; the push is a
 * server-side job): polls its state until those stores' pushes are done, and answers them. Gives up after
 * `maxMs` with the states as they are.
 */
export async function waitForPushes(
  productId: string,
  integrationIds: string[],
  options: { intervalMs?: number; maxMs?: number } = {},
): Promise<TPushState[]> {
  const until = Date.now() + (options.maxMs ?? 10 * 60_000);
  for (;;) {
    const { pushes } = await getPushes(productId);
    const mine = pushes.filter((p) => integrationIds.includes(p.integrationId));
    if (mine.every((p) => p.state !== 'running') || Date.now() >= until) return mine;
    await sleep(options.intervalMs ?? 1000);
  }
}
