/** Colour matching between the catalogue (a blank's real colours) and the mockup templates (a smaller palette). */

export type Rgb = { r: number; g: number; b: number };

/** '#1a2b3c', '1a2b3c' or the short '#abc'; null when it is not a hex colour. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return {
    r: Number.parseInt(h.slice(0, 2), 16),
    g: Number.parseInt(h.slice(2, 4), 16),
    b: Number.parseInt(h.slice(4, 6), 16),
  };
}

/**
 * Perceived distance between two colours: the 'redmean' weighting of RGB, close enough to how people tell shirt
 * colours apart without a full Lab conversion.
 */
export function colorDistance(a: Rgb, b: Rgb): number {
  const rMean = (a.r + b.r) / 2;
  const dr = a.r - b.r;
  const dg = a.g - b.g;
  const db = a.b - b.b;
  return Math.sqrt((2 + rMean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rMean) / 256) * db * db);
}

/** The candidate nearest to `hex` (the first on a tie); null when there is none or `hex` is not a colour. */
export function nearestColor<T extends { hex: string }>(hex: string, candidates: readonly T[]): T | null {
  const target = parseHex(hex);
  if (!target) return null;
  let best: T | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const rgb = parseHex(candidate.hex);
    if (!rgb) continue;
    const d = colorDistance(target, rgb);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
