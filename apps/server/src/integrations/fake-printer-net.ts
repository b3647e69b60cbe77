/**
 * What a fake printer (Printful's, Printify's) does on the network unless told otherwise: fetch a print file (there
 * when the answer is an image) and post a webhook (refused when the receiver does not answer 2xx).
 */

export async function fetchImage(url: string): Promise<boolean> {
  try {
    const r = await fetch(url);
    await r.body?.cancel();
    return r.ok && (r.headers.get('content-type') ?? '').startsWith('image/');
  } catch {
    return false;
  }
}

export async function postWebhook(url: string, body: string, headers: Record<string, string>): Promise<void> {
  const r = await fetch(url, { method: 'POST', body, headers });
  await r.body?.cancel();
  if (!r.ok) throw new Error(`webhook answered ${r.status}`);
}
