import type { TAiDesignStyle } from '@podforge/contract';
import type { DesignRequest } from './provider';
import { hashText, keywordsOf, seededRandom } from './words';

/**
 * The offline provider's artwork: typographic and vector designs composed from the prompt's words, as SVG drawn on
 * a 1000-unit square and sized to the requested pixels. No model is involved: the words become the lettering, a
 * few of them choose a motif (sun, mountains, waves...), and a seeded generator picks palette, font and layout, so
 * the same prompt, style and seed always give the same images and each variation differs from the others.
 */

type Random = () => number;
type Paint = { line: boolean; colors: readonly string[]; stroke: string; strokeWidth: number };

const FONTS = [
  { family: 'DejaVu Sans', weight: 'bold', width: 0.68 },
  { family: 'DejaVu Serif', weight: 'bold', width: 0.7 },
  { family: 'Liberation Sans Narrow', weight: 'bold', width: 0.5 },
  { family: 'DejaVu Sans Condensed', weight: 'bold', width: 0.6 },
] as const;
type Font = (typeof FONTS)[number];

const BOLD_PALETTES = [
  ['#ff6b35', '#f7c548', '#1b998b', '#2e282a'],
  ['#e63946', '#f1c453', '#457b9d', '#1d3557'],
  ['#8338ec', '#ff006e', '#ffbe0b', '#240046'],
  ['#06d6a0', '#118ab2', '#ffd166', '#073b4c'],
  ['#f94144', '#f8961e', '#90be6d', '#277da1'],
  ['#ef476f', '#ffd166', '#26547c', '#1a1a2e'],
] as const;
const LINE_INKS = ['#111827', '#1d3557', '#7f1d1d', '#14532d', '#312e81', '#3f3f46'] as const;
const VINTAGE_PALETTES = [
  ['#8c2f1b', '#d9a441', '#2f4a3a', '#3b2a1a'],
  ['#1f3a5f', '#c8553d', '#e9c46a', '#22223b'],
  ['#5b3a29', '#a3b18a', '#d4a373', '#283618'],
  ['#6b2737', '#e0a458', '#2a4d69', '#2b2118'],
] as const;

/** Words that choose a motif; anything else gets an abstract one. */
const MOTIF_WORDS: Record<string, readonly string[]> = {
  sun: ['sun', 'sunny', 'sunset', 'sunrise', 'summer', 'solar', 'beach', 'retro', 'desert'],
  moon: ['moon', 'night', 'lunar', 'midnight', 'dream', 'dreams', 'sleep', 'witch'],
  mountain: ['mountain', 'mountains', 'hike', 'hiking', 'adventure', 'camp', 'camping', 'peak', 'outdoors', 'trail'],
  wave: ['wave', 'waves', 'ocean', 'sea', 'surf', 'surfing', 'water', 'sail', 'sailing', 'lake'],
  star: [
    'star',
    'stars',
    'space',
    'galaxy',
    'cosmic',
    'astro',
    'astronaut',
    'astronauts',
    'rocket',
    'universe',
    'planet',
  ],
  heart: ['heart', 'love', 'valentine', 'mom', 'mama', 'mother', 'kindness', 'wedding'],
  tree: ['tree', 'trees', 'forest', 'pine', 'woods', 'nature', 'wild', 'wilderness'],
  bolt: ['bolt', 'lightning', 'power', 'energy', 'electric', 'thunder', 'rock', 'gym', 'fitness'],
  cup: ['coffee', 'cafe', 'espresso', 'latte', 'tea', 'mug', 'brew', 'morning'],
  paw: ['cat', 'cats', 'dog', 'dogs', 'paw', 'pet', 'pets', 'kitten', 'puppy', 'meow', 'woof'],
  flower: ['flower', 'flowers', 'floral', 'rose', 'roses', 'bloom', 'garden', 'spring', 'botanical', 'daisy'],
};
const ABSTRACT_MOTIFS = ['burst', 'diamond', 'rings'] as const;
type Motif = keyof typeof MOTIF_WORDS | (typeof ABSTRACT_MOTIFS)[number];

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const round = (n: number) => Math.round(n * 10) / 10;

/** 'est. 2024', 'established 1998', 'since 1975': the phrase and its year. */
const YEAR_PHRASE = /\b(?:est\.?|estd\.?|established|since)\s*((?:1[6-9]|20)\d{2})\b/i;

/** The year a prompt gives ('retro diner est. 2024' -> '2024'; a bare 1999 too), kept as written; null without one. */
export function yearOf(prompt: string): string | null {
  return YEAR_PHRASE.exec(prompt)?.[1] ?? /\b((?:1[6-9]|20)\d{2})\b/.exec(prompt)?.[1] ?? null;
}

/**
 * The words the lettering uses: the prompt's meaningful words (without its 'est. 2024', which the designs set as a
 * line of their own), or the prompt itself when it has none.
 */
export function letteringOf(prompt: string): { main: string[]; extra: string[] } {
  const words = keywordsOf(prompt.replace(new RegExp(YEAR_PHRASE.source, 'gi'), ' '));
  if (words.length === 0) {
    const raw = prompt.trim().replace(/\s+/g, ' ').slice(0, 24) || 'Original';
    return { main: [raw.toUpperCase()], extra: [] };
  }
  return { main: words.slice(0, 2).map((w) => w.toUpperCase()), extra: words.slice(2, 4).map((w) => w.toUpperCase()) };
}

/**
 * The motifs a prompt's words call for, in the order the words come ('cat astronaut': paw, then star), followed by
 * the abstract ones in a seeded order, so variation i can take the i-th and no two of four share one.
 */
export function motifsOf(prompt: string, random: Random): Motif[] {
  const found: Motif[] = [];
  for (const word of keywordsOf(prompt)) {
    for (const [motif, triggers] of Object.entries(MOTIF_WORDS)) {
      if (triggers.includes(word) && !found.includes(motif as Motif)) found.push(motif as Motif);
    }
  }
  const abstract = [...ABSTRACT_MOTIFS];
  const offset = Math.floor(random() * abstract.length);
  return [...found, ...abstract.slice(offset), ...abstract.slice(0, offset)];
}

/** How many layouts each style has; variations step through them. */
const LAYOUTS = { 'vector-clean': 4, 'line-art': 4, 'vintage-crest': 3 } as const;
type DrawnStyle = keyof typeof LAYOUTS;

/**
 * What variation `index` of a request looks like. Palette, layout and font start from the prompt's own seed and step
 * by the variation, and each variation takes the next motif: up to four variations differ in layout, motif and
 * palette (never only in a random detail). The year the prompt gives is kept as written.
 */
export function designPlan(request: DesignRequest, index: number) {
  const style = request.style as DrawnStyle;
  const base = seededRandom(hashText(`${request.prompt}|${style}`) ^ Math.imul(request.seed + 1, 0x9e3779b1));
  const palettes =
    style === 'line-art'
      ? LINE_INKS.length
      : style === 'vintage-crest'
        ? VINTAGE_PALETTES.length
        : BOLD_PALETTES.length;
  const paletteStart = Math.floor(base() * palettes);
  const layoutStart = Math.floor(base() * LAYOUTS[style]);
  const fontStart = Math.floor(base() * FONTS.length);
  const motifs = motifsOf(request.prompt, base);
  return {
    palette: (paletteStart + index) % palettes,
    layout: (layoutStart + index) % LAYOUTS[style],
    font: FONTS[(fontStart + index) % FONTS.length] ?? FONTS[0],
    motif: motifs[index % motifs.length] ?? 'burst',
    year: yearOf(request.prompt),
  };
}
type Plan = ReturnType<typeof designPlan>;

/** A filled shape, or in line art the same outline stroked. */
function shape(tag: string, attrs: Record<string, string | number>, paint: Paint, colorIndex: number): string {
  const color = paint.colors[colorIndex % paint.colors.length] as string;
  const look = paint.line
    ? `fill="none" stroke="${paint.stroke}" stroke-width="${paint.strokeWidth}" stroke-linejoin="round" stroke-linecap="round"`
    : `fill="${color}"`;
  const attributes = Object.entries(attrs)
    .map(([k, v]) => `${k}="${typeof v === 'number' ? round(v) : v}"`)
    .join(' ');
  return `<${tag} ${attributes} ${look}/>`;
}

/** Points of a regular star or burst around (cx, cy). */
function starPoints(cx: number, cy: number, outer: number, inner: number, points: number, turn = -Math.PI / 2) {
  const out: string[] = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = turn + (i * Math.PI) / points;
    out.push(`${round(cx + r * Math.cos(a))},${round(cy + r * Math.sin(a))}`);
  }
  return out.join(' ');
}

/** The motif drawn in a circle of radius r around (cx, cy). */
function drawMotif(motif: Motif, cx: number, cy: number, r: number, paint: Paint, random: Random): string {
  const parts: string[] = [];
  switch (motif) {
    case 'sun': {
      parts.push(shape('circle', { cx, cy, r: r * 0.62 }, paint, 0));
      const bands = 3 + Math.floor(random() * 3);
      for (let i = 0; i < bands; i++) {
        const y = cy + r * 0.05 + i * ((r * 0.55) / bands);
        const h = (r * 0.55) / bands / 2;
        if (!paint.line) parts.push(shape('rect', { x: cx - r * 0.7, y, width: r * 1.4, height: h }, paint, 3));
        else parts.push(shape('line', { x1: cx - r * 0.6, y1: y, x2: cx + r * 0.6, y2: y }, paint, 3));
      }
      const rays = 10 + Math.floor(random() * 8);
      for (let i = 0; i < rays; i++) {
        const a = (i / rays) * Math.PI * 2;
        const x1 = cx + Math.cos(a) * r * 0.75;
        const y1 = cy + Math.sin(a) * r * 0.75;
        const x2 = cx + Math.cos(a) * r * 0.98;
        const y2 = cy + Math.sin(a) * r * 0.98;
        parts.push(
          `<line x1="${round(x1)}" y1="${round(y1)}" x2="${round(x2)}" y2="${round(y2)}" stroke="${paint.line ? paint.stroke : paint.colors[1]}" stroke-width="${paint.line ? paint.strokeWidth : r * 0.06}" stroke-linecap="round"/>`,
        );
      }
      break;
    }
    case 'moon': {
      const d = `M ${cx + r * 0.2} ${cy - r * 0.8} A ${r * 0.8} ${r * 0.8} 0 1 0 ${cx + r * 0.2} ${cy + r * 0.8} A ${r * 0.62} ${r * 0.62} 0 1 1 ${cx + r * 0.2} ${cy - r * 0.8} Z`;
      parts.push(shape('path', { d }, paint, 1));
      for (let i = 0; i < 4; i++) {
        const sx = cx + (random() * 0.9 + 0.2) * r * 0.9;
        const sy = cy + (random() - 0.5) * r * 1.4;
        parts.push(shape('polygon', { points: starPoints(sx, sy, r * 0.12, r * 0.05, 4) }, paint, 2));
      }
      break;
    }
    case 'mountain': {
      const peaks = 2 + Math.floor(random() * 2);
      for (let i = 0; i < peaks; i++) {
        const px = cx - r * 0.6 + (i * r * 1.2) / Math.max(1, peaks - 1);
        const h = r * (0.9 + random() * 0.6);
        const w = r * (0.7 + random() * 0.3);
        parts.push(
          shape(
            'polygon',
            { points: `${px - w},${cy + r * 0.7} ${px},${cy + r * 0.7 - h} ${px + w},${cy + r * 0.7}` },
            paint,
            i,
          ),
        );
        if (!paint.line) {
          const s = h * 0.25;
          parts.push(
            shape(
              'polygon',
              {
                points: `${px - s * (w / h)},${cy + r * 0.7 - h + s} ${px},${cy + r * 0.7 - h} ${px + s * (w / h)},${cy + r * 0.7 - h + s}`,
              },
              { ...paint, colors: ['#ffffff'] },
              0,
            ),
          );
        }
      }
      parts.push(shape('circle', { cx: cx + r * 0.55, cy: cy - r * 0.55, r: r * 0.18 }, paint, 1));
      break;
    }
    case 'wave': {
      const rows = 3;
      for (let i = 0; i < rows; i++) {
        const y = cy - r * 0.4 + i * r * 0.4;
        const amp = r * (0.12 + random() * 0.1);
        let d = `M ${cx - r} ${y}`;
        for (let k = 0; k < 4; k++) {
          const x0 = cx - r + k * r * 0.5;
          d += ` Q ${x0 + r * 0.125} ${y - amp} ${x0 + r * 0.25} ${y} T ${x0 + r * 0.5} ${y}`;
        }
        if (paint.line) parts.push(shape('path', { d }, paint, i));
        else parts.push(shape('path', { d: `${d} L ${cx + r} ${y + r * 0.3} L ${cx - r} ${y + r * 0.3} Z` }, paint, i));
      }
      break;
    }
    case 'star': {
      parts.push(shape('polygon', { points: starPoints(cx, cy, r * 0.85, r * 0.36, 5) }, paint, 0));
      for (let i = 0; i < 5; i++) {
        const a = random() * Math.PI * 2;
        const d = r * (0.95 + random() * 0.1);
        parts.push(
          shape(
            'polygon',
            { points: starPoints(cx + Math.cos(a) * d, cy + Math.sin(a) * d, r * 0.1, r * 0.04, 4) },
            paint,
            1 + (i % 3),
          ),
        );
      }
      break;
    }
    case 'heart': {
      const d = `M ${cx} ${cy + r * 0.75} C ${cx - r * 1.1} ${cy} ${cx - r * 0.7} ${cy - r * 0.85} ${cx} ${cy - r * 0.35} C ${cx + r * 0.7} ${cy - r * 0.85} ${cx + r * 1.1} ${cy} ${cx} ${cy + r * 0.75} Z`;
      parts.push(shape('path', { d }, paint, 0));
      parts.push(shape('circle', { cx: cx - r * 0.35, cy: cy - r * 0.25, r: r * 0.1 }, paint, 2));
      break;
    }
    case 'tree': {
      const trees = 3;
      for (let i = 0; i < trees; i++) {
        const tx = cx + (i - 1) * r * 0.6;
        const h = r * (i === 1 ? 1.5 : 1.1);
        const base = cy + r * 0.7;
        parts.push(
          shape(
            'polygon',
            { points: `${tx - r * 0.3},${base - h * 0.15} ${tx},${base - h} ${tx + r * 0.3},${base - h * 0.15}` },
            paint,
            i,
          ),
        );
        parts.push(shape('rect', { x: tx - r * 0.05, y: base - h * 0.15, width: r * 0.1, height: h * 0.15 }, paint, 3));
      }
      break;
    }
    case 'bolt': {
      const pts = [
        [0.15, -1],
        [-0.45, 0.1],
        [-0.05, 0.1],
        [-0.2, 1],
        [0.45, -0.2],
        [0.05, -0.2],
        [0.25, -1],
      ]
        .map(([x, y]) => `${round(cx + (x as number) * r * 0.8)},${round(cy + (y as number) * r * 0.8)}`)
        .join(' ');
      parts.push(shape('circle', { cx, cy, r: r * 0.95 }, paint, 2));
      parts.push(shape('polygon', { points: pts }, paint, 0));
      break;
    }
    case 'cup': {
      const top = cy - r * 0.25;
      parts.push(
        shape(
          'path',
          {
            d: `M ${cx - r * 0.55} ${top} L ${cx + r * 0.45} ${top} L ${cx + r * 0.35} ${cy + r * 0.6} L ${cx - r * 0.45} ${cy + r * 0.6} Z`,
          },
          paint,
          0,
        ),
      );
      parts.push(
        `<path d="M ${round(cx + r * 0.42)} ${round(top + r * 0.15)} q ${round(r * 0.35)} ${round(r * 0.05)} ${round(r * 0.05)} ${round(r * 0.45)}" fill="none" stroke="${paint.line ? paint.stroke : paint.colors[0]}" stroke-width="${paint.line ? paint.strokeWidth : r * 0.08}" stroke-linecap="round"/>`,
      );
      for (let i = 0; i < 3; i++) {
        const x = cx - r * 0.3 + i * r * 0.25;
        parts.push(
          `<path d="M ${round(x)} ${round(top - r * 0.1)} q ${round(r * 0.1)} ${round(-r * 0.15)} 0 ${round(-r * 0.3)} q ${round(-r * 0.1)} ${round(-r * 0.15)} 0 ${round(-r * 0.3)}" fill="none" stroke="${paint.line ? paint.stroke : paint.colors[1]}" stroke-width="${paint.line ? paint.strokeWidth : r * 0.05}" stroke-linecap="round"/>`,
        );
      }
      break;
    }
    case 'paw': {
      parts.push(shape('ellipse', { cx, cy: cy + r * 0.3, rx: r * 0.42, ry: r * 0.34 }, paint, 0));
      const toes = [
        [-0.55, -0.15],
        [-0.2, -0.5],
        [0.2, -0.5],
        [0.55, -0.15],
      ];
      toes.forEach(([x, y], i) => {
        parts.push(
          shape(
            'ellipse',
            { cx: cx + (x as number) * r, cy: cy + (y as number) * r, rx: r * 0.16, ry: r * 0.21 },
            paint,
            i % 2 === 0 ? 1 : 2,
          ),
        );
      });
      break;
    }
    case 'flower': {
      const petals = 5 + Math.floor(random() * 4);
      for (let i = 0; i < petals; i++) {
        const a = (i / petals) * 360;
        parts.push(
          `<g transform="rotate(${round(a)} ${round(cx)} ${round(cy)})">${shape('ellipse', { cx, cy: cy - r * 0.45, rx: r * 0.2, ry: r * 0.42 }, paint, i % 2)}</g>`,
        );
      }
      parts.push(shape('circle', { cx, cy, r: r * 0.2 }, paint, 2));
      break;
    }
    case 'burst':
      parts.push(
        shape('polygon', { points: starPoints(cx, cy, r, r * 0.72, 12 + Math.floor(random() * 8)) }, paint, 0),
      );
      parts.push(shape('circle', { cx, cy, r: r * 0.5 }, paint, 1));
      break;
    case 'diamond':
      parts.push(
        shape(
          'polygon',
          { points: `${cx},${cy - r} ${cx + r * 0.8},${cy} ${cx},${cy + r} ${cx - r * 0.8},${cy}` },
          paint,
          0,
        ),
      );
      parts.push(
        shape(
          'polygon',
          { points: `${cx},${cy - r * 0.55} ${cx + r * 0.45},${cy} ${cx},${cy + r * 0.55} ${cx - r * 0.45},${cy}` },
          paint,
          1,
        ),
      );
      break;
    case 'rings':
      for (let i = 0; i < 3; i++) parts.push(shape('circle', { cx, cy, r: r * (1 - i * 0.3) }, paint, i));
      break;
  }
  return parts.join('');
}

/** A line of lettering fitted to `maxWidth` (font size from the letters' estimated width). */
function lettering(
  text: string,
  x: number,
  y: number,
  maxWidth: number,
  maxSize: number,
  font: Font,
  look: string,
): { svg: string; size: number } {
  const size = Math.min(maxSize, maxWidth / Math.max(1, text.length * font.width));
  const svg = `<text x="${round(x)}" y="${round(y)}" font-family="${font.family}, sans-serif" font-weight="${font.weight}" font-size="${round(size)}" text-anchor="middle" ${look}>${escapeXml(text)}</text>`;
  return { svg, size };
}

/** Text set letter by letter along an arc (librsvg draws no textPath): top arcs read left to right over the top. */
function curvedText(
  text: string,
  cx: number,
  cy: number,
  radius: number,
  size: number,
  font: Font,
  fill: string,
  bottom = false,
) {
  const letters = [...text];
  const step = ((size * font.width * 1.05) / radius) * (180 / Math.PI);
  const span = step * (letters.length - 1);
  return letters
    .map((letter, i) => {
      const angle = bottom ? 90 + span / 2 - i * step : -90 - span / 2 + i * step;
      const rad = (angle * Math.PI) / 180;
      const x = cx + radius * Math.cos(rad);
      const y = cy + radius * Math.sin(rad);
      const rotate = bottom ? angle - 90 : angle + 90;
      return `<text x="${round(x)}" y="${round(y)}" transform="rotate(${round(rotate)} ${round(x)} ${round(y)})" font-family="${font.family}, serif" font-weight="bold" font-size="${round(size)}" text-anchor="middle" dominant-baseline="middle" fill="${fill}">${escapeXml(letter)}</text>`;
    })
    .join('');
}

function vectorClean(words: { main: string[]; extra: string[] }, plan: Plan, random: Random) {
  const palette = BOLD_PALETTES[plan.palette] ?? BOLD_PALETTES[0];
  const { font, motif } = plan;
  const paint: Paint = { line: false, colors: palette, stroke: palette[3], strokeWidth: 0 };
  const parts: string[] = [];
  const main = words.main.join(' ');
  // The prompt's own 'est. 2024' is a line of its own; otherwise the extra words.
  const small = plan.year ? `EST. ${plan.year}` : null;
  if (plan.layout === 0) {
    // Motif on a disc, lettering below.
    parts.push(`<circle cx="500" cy="380" r="300" fill="${palette[2]}"/>`);
    parts.push(drawMotif(motif, 500, 380, 230, paint, random));
    parts.push(lettering(main, 500, 830, 900, 170, font, `fill="${palette[3]}"`).svg);
    const extra = small ?? (words.extra.length ? words.extra.join(' · ') : null);
    if (extra) parts.push(lettering(extra, 500, 930, 700, 70, font, `fill="${palette[0]}"`).svg);
  } else if (plan.layout === 1) {
    // Lettering stacked over the motif, one word a line.
    parts.push(drawMotif(motif, 500, 560, 360, paint, random));
    const lines = words.main.length > 1 ? words.main : [main];
    lines.forEach((line, i) => {
      const y = 250 + i * 200;
      parts.push(
        lettering(
          line,
          500,
          y,
          880,
          220,
          font,
          `fill="${palette[3]}" stroke="#ffffff" stroke-width="10" paint-order="stroke"`,
        ).svg,
      );
    });
    const extra = [small, ...words.extra].filter(Boolean).join(' ');
    if (extra) parts.push(lettering(extra, 500, 960, 600, 60, font, `fill="${palette[3]}"`).svg);
  } else if (plan.layout === 2) {
    // A bold block: a slab of colour with the lettering reversed out, the motif on top.
    parts.push(drawMotif(motif, 500, 330, 260, paint, random));
    parts.push(`<rect x="60" y="620" width="880" height="230" rx="40" fill="${palette[3]}"/>`);
    parts.push(lettering(main, 500, 790, 800, 170, font, `fill="${palette[1]}"`).svg);
    const extra = small ?? (words.extra.length ? words.extra.join(' + ') : null);
    if (extra) parts.push(lettering(extra, 500, 935, 700, 60, font, `fill="${palette[0]}"`).svg);
  } else {
    // A poster: lettering on top, a tall arch of colour holding the motif, the year or extra words at its foot.
    parts.push(lettering(main, 500, 190, 900, 160, font, `fill="${palette[3]}"`).svg);
    parts.push(`<path d="M 200 920 L 200 520 A 300 300 0 0 1 800 520 L 800 920 Z" fill="${palette[0]}"/>`);
    parts.push(
      drawMotif(motif, 500, 560, 230, { ...paint, colors: [palette[1], palette[2], palette[3], palette[1]] }, random),
    );
    const extra = small ?? (words.extra.length ? words.extra.join(' ') : null);
    if (extra) parts.push(lettering(extra, 500, 860, 520, 60, font, `fill="${palette[1]}"`).svg);
  }
  return parts.join('');
}

function lineArt(words: { main: string[]; extra: string[] }, plan: Plan, random: Random) {
  const ink = LINE_INKS[plan.palette] ?? LINE_INKS[0];
  const { font, motif } = plan;
  const strokeWidth = 8 + Math.floor(random() * 3) * 4;
  const paint: Paint = { line: true, colors: [ink], stroke: ink, strokeWidth };
  const strokes = `fill="none" stroke="${ink}" stroke-width="${Math.max(3, strokeWidth / 2)}" stroke-linejoin="round"`;
  const parts: string[] = [];
  if (plan.layout === 0) parts.push(`<circle cx="500" cy="420" r="330" ${strokes}/>`);
  else if (plan.layout === 1) parts.push(`<rect x="140" y="90" width="720" height="660" rx="60" ${strokes}/>`);
  else if (plan.layout === 2) parts.push(`<polygon points="500,70 860,420 500,770 140,420" ${strokes}/>`);
  else parts.push(`<polygon points="${starPoints(500, 420, 350, 350, 6, 0)}" ${strokes}/>`);
  parts.push(drawMotif(motif, 500, 420, 240, paint, random));
  parts.push(lettering(words.main.join(' '), 500, 890, 880, 150, font, strokes).svg);
  const extra = [plan.year ? `EST. ${plan.year}` : null, ...words.extra].filter(Boolean).join(' ');
  if (extra) {
    parts.push(`<line x1="250" y1="930" x2="750" y2="930" stroke="${ink}" stroke-width="4"/>`);
    parts.push(lettering(extra, 500, 980, 600, 44, font, `fill="${ink}"`).svg);
  }
  return parts.join('');
}

function vintageCrest(words: { main: string[]; extra: string[] }, plan: Plan, random: Random) {
  const palette = VINTAGE_PALETTES[plan.palette] ?? VINTAGE_PALETTES[0];
  const { font, motif } = plan;
  const paint: Paint = {
    line: false,
    colors: [palette[1], palette[2], palette[0], palette[3]],
    stroke: palette[3],
    strokeWidth: 0,
  };
  const main = words.main.join(' ');
  // The prompt's year is kept as written; without one the crest invents none.
  const established = plan.year ? `EST. ${plan.year}` : null;
  const parts: string[] = [];
  // The badge: outer shape (a disc, a scalloped seal or an octagon), text ring, inner field.
  if (plan.layout === 0) parts.push(`<circle cx="500" cy="500" r="470" fill="${palette[3]}"/>`);
  else if (plan.layout === 1)
    parts.push(`<polygon points="${starPoints(500, 500, 480, 450, 28)}" fill="${palette[3]}"/>`);
  else parts.push(`<polygon points="${starPoints(500, 500, 485, 485, 8, -Math.PI / 8)}" fill="${palette[3]}"/>`);
  parts.push(`<circle cx="500" cy="500" r="445" fill="none" stroke="${palette[1]}" stroke-width="8"/>`);
  parts.push(`<circle cx="500" cy="500" r="300" fill="${palette[0]}"/>`);
  parts.push(
    `<circle cx="500" cy="500" r="285" fill="none" stroke="${palette[1]}" stroke-width="6" stroke-dasharray="${4 + plan.layout * 6} 10"/>`,
  );
  const ringText = main.length > 22 ? main.slice(0, 22) : main;
  parts.push(curvedText(ringText, 500, 500, 375, Math.min(90, 900 / Math.max(6, ringText.length)), font, palette[1]));
  const lower = established ?? (words.extra.length ? words.extra.join(' ') : '');
  if (lower) {
    parts.push(curvedText(lower, 500, 500, 375, Math.min(64, 700 / Math.max(6, lower.length)), font, palette[1], true));
  }
  for (const side of [-1, 1]) {
    parts.push(`<polygon points="${starPoints(500 + side * 390, 500, 26, 11, 5)}" fill="${palette[1]}"/>`);
  }
  parts.push(drawMotif(motif, 500, 410, 160, paint, random));
  // The ribbon across the field: the extra words when the year is on the ring, else the first word.
  const ribbonText = established && words.extra.length ? words.extra.join(' ') : (words.main[0] ?? main);
  parts.push(
    `<polygon points="150,600 850,600 820,650 850,700 150,700 180,650" fill="${palette[2]}" stroke="${palette[3]}" stroke-width="6"/>`,
  );
  parts.push(lettering(ribbonText, 500, 672, 560, 64, font, `fill="${palette[3]}"`).svg);
  return parts.join('');
}

/** Worn-print speckles: a mask of seeded holes, denser towards the edge, over the whole crest. */
function distressMask(random: Random): string {
  const holes: string[] = [];
  for (let i = 0; i < 260; i++) {
    const a = random() * Math.PI * 2;
    const d = Math.sqrt(random()) * 480;
    const r = 1.5 + random() * (d > 300 ? 7 : 4);
    holes.push(
      `<circle cx="${round(500 + Math.cos(a) * d)}" cy="${round(500 + Math.sin(a) * d)}" r="${round(r)}" fill="#000"/>`,
    );
  }
  for (let i = 0; i < 8; i++) {
    const y = random() * 1000;
    holes.push(
      `<rect x="${round(random() * 600)}" y="${round(y)}" width="${round(100 + random() * 300)}" height="${round(1 + random() * 2)}" fill="#000" transform="rotate(${round(-8 + random() * 16)} 500 ${round(y)})"/>`,
    );
  }
  return `<mask id="wear"><rect width="1000" height="1000" fill="#fff"/>${holes.join('')}</mask>`;
}

/** One design of `request` as SVG text: variation `index` of n. */
export function composeDesignSvg(request: DesignRequest, index: number): string {
  const style = request.style as Exclude<TAiDesignStyle, 'photo'>;
  const random = seededRandom(
    hashText(`${request.prompt}|${style}`) ^ Math.imul(request.seed + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b),
  );
  const words = letteringOf(request.prompt);
  const plan = designPlan(request, index);
  let body: string;
  let defs = '';
  if (style === 'line-art') body = lineArt(words, plan, random);
  else if (style === 'vintage-crest') {
    defs = `<defs>${distressMask(random)}</defs>`;
    body = `<g mask="url(#wear)">${vintageCrest(words, plan, random)}</g>`;
  } else body = vectorClean(words, plan, random);
  const title = `<title>${escapeXml(request.prompt.slice(0, 200))}</title>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${request.size}" height="${request.size}" viewBox="0 0 1000 1000">${title}${defs}${body}</svg>`;
}
