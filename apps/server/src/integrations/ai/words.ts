/** Word handling shared by the listing writers: design-name cleaning, title case, tags and a seeded choice. */

/** File-name words that say how a file was made, not what it shows. */
const NOISE_WORDS = new Set([
  // Tools that name their output: 'ai-mountain-club.png', 'dalle_cat.png'.
  'ai',
  'dalle',
  'midjourney',
  'generated',
  'upscaled',
  'final',
  'copy',
  'draft',
  'edit',
  'edited',
  'export',
  'exported',
  'latest',
  'version',
  'ver',
  'rev',
  'revised',
  'printfile',
  'printready',
  'design',
  'mockup',
  'transparent',
  'bg',
  'nobg',
  'hires',
  'highres',
  'lowres',
  'res',
  'dpi',
  'img',
  'file',
  'untitled',
  'artboard',
  'png',
  'jpg',
  'jpeg',
  'svg',
  'pdf',
  'webp',
  'rgb',
  'cmyk',
  'srgb',
]);

/** Version suffixes (v2, V02, rev3, r4), dimensions (4500x5400, 12x16in), resolutions (300dpi), retina (@2x). */
const NOISE_PATTERNS = [
  /^v\d+[a-z]?$/i,
  /^rev\d+$/i,
  /^r\d+$/i,
  /^\d+x\d+(px|in|cm|mm)?$/i,
  /^\d+(px|dpi|ppi)$/i,
  /^\d+x$/i,
  /^x\d+$/i,
  /^\d{5,}$/,
  // Hashes and ids a tool appended: hex runs with a digit ('3fa9c2d1'), UUID parts.
  /^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}$/i,
];

const SMALL_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'for', 'to', 'with', 'at', 'by']);

const isNoise = (word: string) => NOISE_WORDS.has(word.toLowerCase()) || NOISE_PATTERNS.some((p) => p.test(word));

/**
 * The words of a design's file name as a seller would write them: 'retro-sunset_cat-v2.png' -> 'Retro Sunset Cat'.
 * Drops the extension, version suffixes, dimensions, copy counters and words like 'final' or 'copy'; splits
 * camelCase; keeps short all-capital words (NYC) unless the whole name is in capitals. '' when nothing is left.
 */
export function cleanDesignName(filename: string): string {
  let base = filename.split(/[\\/]/).pop() ?? '';
  // Extensions, possibly doubled ('cat.png.png') and copy counters '(1)' or '[2]'.
  const extension = /\.(png|jpe?g|svg|pdf|webp|gif|tiff?|bmp|heic|psd|ai|eps)$/i;
  while (extension.test(base)) base = base.replace(extension, '');
  base = base.replace(/[([]\s*\d+\s*[)\]]/g, ' ').replace(/@\d+x\b/gi, ' ');
  base = base.replace(/print[\s_-]*(ready|file)/gi, ' ');
  // Hashes and ids a tool appended ('cat-3fa9c2d1'), before camelCase splitting could cut them apart.
  base = base.replace(/(^|[^a-z0-9])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}(?=$|[^a-z0-9])/gi, '$1 ');
  base = base.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Za-z])(\d{5,})/g, '$1 $2');
  const raw = base.split(/[^\p{L}\p{N}']+/u).filter(Boolean);
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i] as string;
    if (isNoise(word)) {
      // 'copy 2', 'final 3', 'v 2': the number belongs to the noise word.
      if (/^\d{1,3}$/.test(raw[i + 1] ?? '')) i++;
      continue;
    }
    if (words.length && words[words.length - 1]?.toLowerCase() === word.toLowerCase()) continue;
    words.push(word);
  }
  // A lone trailing small number is a counter ('sunset cat 2'), a leading one is part of the name ('9 lives').
  if (words.length > 1 && /^\d{1,2}$/.test(words[words.length - 1] ?? '')) words.pop();
  return titleCase(words.join(' '));
}

/** Title case that keeps short acronyms (NYC, USA) unless the whole text is in capitals. */
export function titleCase(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const allCaps = text === text.toUpperCase();
  return words
    .map((word, i) => {
      if (!allCaps && word.length <= 4 && /^[A-Z]{2,}$/.test(word)) return word;
      const lower = word.toLowerCase();
      if (i > 0 && SMALL_WORDS.has(lower)) return lower;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

const STOP_WORDS = new Set([
  ...SMALL_WORDS,
  'is',
  'are',
  'be',
  'it',
  'its',
  'this',
  'that',
  'from',
  'as',
  'my',
  'your',
  'our',
  'who',
  'very',
  'so',
  'but',
  'into',
  'over',
]);

/** Meaningful lower-case words of a text, in order, without repeats: the raw material of tags. */
export function keywordsOf(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}'-]+/u)) {
    const w = word.replace(/^['-]+|['-]+$/g, '');
    if (w.length < 3 || STOP_WORDS.has(w) || /^\d+$/.test(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

/** A list in prose: 'A', 'A and B', 'A, B and C'. */
export function listInProse(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The first letter in capitals and a closing full stop. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return '';
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** FNV-1a: a stable 32-bit number for a text. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator, so the same input and seed always give the same wording. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Picks one of `options`; creativity (1-10) widens how far down the list it may go. At 1 it is always the first
 * (the plainest wording); at 10 any of them.
 */
export function pick<T>(options: readonly T[], random: () => number, creativity: number): T {
  const reach = Math.max(1, Math.ceil((options.length * Math.min(10, Math.max(1, creativity)) - 1) / 10));
  return options[Math.floor(random() * Math.min(reach, options.length))] as T;
}
