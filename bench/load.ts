// A small closed-loop load generator on undici: `connections` callers each send the next request as soon as the
// previous one is answered, for `seconds`. Latency is measured per request; an error is a failed request, a
// timeout or a status other than 200.
import { Pool } from 'undici';
import { percentile } from './support';

export type LoadResult = {
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  perSecond: number;
  /** Mean size of an answer's body, a check that answers are what they should be. */
  meanBytes: number;
};

export async function loadTest(
  url: string,
  path: string,
  options: { connections: number; seconds: number; cookie: string },
): Promise<LoadResult> {
  const pool = new Pool(url, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  const started = performance.now();
  const until = started + options.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          try {
            const res = await pool.request({
              path,
              method: 'GET',
              headers: { cookie: options.cookie },
              headersTimeout: 10_000,
              bodyTimeout: 10_000,
            });
            bytes += (await res.body.arrayBuffer()).byteLength;
            if (res.statusCode !== 200) errors += 1;
          } catch {
            errors += 1;
          }
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  return {
    requests: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    perSecond: latencies.length / elapsed,
    meanBytes: bytes / Math.max(1, latencies.length),
  };
}
