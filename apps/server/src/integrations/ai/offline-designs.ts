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
  star: ['star', 'stars', 'space', 'galaxy', 'cosmic', 'astro', 'rocket', 'universe', 'planet'],
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
const pickOf = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length)] as T;

/** The words the lettering uses: the prompt's meaningful words, or the prompt itself when it has none. */
export function letteringOf(prompt: string): { main: string[]; extra: string[] } {
  const words = keywordsOf(prompt);
  if (words.length === 0) {
    const raw = prompt.trim().replace(/\s+/g, ' ').slice(0, 24) || 'Original';
    return { main: [raw.toUpperCase()], extra: [] };
  }
  return { main: words.slice(0, 2).map((w) => w.toUpperCase()), extra: words.slice(2, 4).map((w) => w.toUpperCase()) };
}

export function motifOf(prompt: string, random: Random): Motif {
  for (const word of keywordsOf(prompt)) {
    for (const [motif, triggers] of Object.entries(MOTIF_WORDS)) {
      if (triggers.includes(word)) return motif as Motif;
    }
  }
  return pickOf(ABSTRACT_MOTIFS, random);
}

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

function vectorClean(words: { main: string[]; extra: string[] }, motif: Motif, random: Random, variation: number) {
  const palette =
    BOLD_PALETTES[(Math.floor(random() * BOLD_PALETTES.length) + variation) % BOLD_PALETTES.length] ?? BOLD_PALETTES[0];
  const font = FONTS[(variation + Math.floor(random() * 2)) % FONTS.length] ?? FONTS[0];
  const paint: Paint = { line: false, colors: palette, stroke: palette[3], strokeWidth: 0 };
  const layout = (variation + Math.floor(random() * 3)) % 3;
  const parts: string[] = [];
  const main = words.main.join(' ');
  if (layout === 0) {
    // Motif on a disc, lettering below.
    parts.push(`<circle cx="500" cy="380" r="300" fill="${palette[2]}"/>`);
    parts.push(drawMotif(motif, 500, 380, 230, paint, random));
    parts.push(lettering(main, 500, 830, 900, 170, font, `fill="${palette[3]}"`).svg);
    if (words.extra.length)
      parts.push(lettering(words.extra.join(' · '), 500, 930, 700, 70, font, `fill="${palette[0]}"`).svg);
  } else if (layout === 1) {
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
    if (words.extra.length)
      parts.push(lettering(words.extra.join(' '), 500, 960, 600, 60, font, `fill="${palette[3]}"`).svg);
  } else {
    // A bold block: a slab of colour with the lettering reversed out, the motif on top.
    parts.push(drawMotif(motif, 500, 330, 260, paint, random));
    parts.push(`<rect x="60" y="620" width="880" height="230" rx="40" fill="${palette[3]}"/>`);
    parts.push(lettering(main, 500, 790, 800, 170, font, `fill="${palette[1]}"`).svg);
    if (words.extra.length)
      parts.push(lettering(words.extra.join(' + '), 500, 935, 700, 60, font, `fill="${palette[0]}"`).svg);
  }
  return parts.join('');
}

function lineArt(words: { main: string[]; extra: string[] }, motif: Motif, random: Random, variation: number) {
  const ink = LINE_INKS[(Math.floor(random() * LINE_INKS.length) + variation) % LINE_INKS.length] ?? LINE_INKS[0];
  const font = FONTS[(variation + 1) % FONTS.length] ?? FONTS[0];
  const strokeWidth = 8 + Math.floor(random() * 3) * 4;
  const paint: Paint = { line: true, colors: [ink], stroke: ink, strokeWidth };
  const strokes = `fill="none" stroke="${ink}" stroke-width="${Math.max(3, strokeWidth / 2)}" stroke-linejoin="round"`;
  const parts: string[] = [];
  const frame = (variation + Math.floor(random() * 2)) % 3;
  if (frame === 0) parts.push(`<circle cx="500" cy="420" r="330" ${strokes}/>`);
  else if (frame === 1) parts.push(`<rect x="140" y="90" width="720" height="660" rx="60" ${strokes}/>`);
  else parts.push(`<polygon points="500,70 860,420 500,770 140,420" ${strokes}/>`);
  parts.push(drawMotif(motif, 500, 420, 240, paint, random));
  parts.push(lettering(words.main.join(' '), 500, 890, 880, 150, font, strokes).svg);
  if (words.extra.length) {
    parts.push(`<line x1="250" y1="930" x2="750" y2="930" stroke="${ink}" stroke-width="4"/>`);
    parts.push(lettering(words.extra.join(' '), 500, 980, 600, 44, font, `fill="${ink}"`).svg);
  }
  return parts.join('');
}

function vintageCrest(words: { main: string[]; extra: string[] }, motif: Motif, random: Random, variation: number) {
  const palette =
    VINTAGE_PALETTES[(Math.floor(random() * VINTAGE_PALETTES.length) + variation) % VINTAGE_PALETTES.length] ??
    VINTAGE_PALETTES[0];
  const font = FONTS[variation % 2 === 0 ? 1 : 0] ?? FONTS[1];
  const paint: Paint = {
    line: false,
    colors: [palette[1], palette[2], palette[0], palette[3]],
    stroke: palette[3],
    strokeWidth: 0,
  };
  const main = words.main.join(' ');
  const year = 1950 + Math.floor(random() * 60);
  const parts: string[] = [];
  // The badge: outer ring, text ring, inner field.
  parts.push(`<circle cx="500" cy="500" r="470" fill="${palette[3]}"/>`);
  parts.push(`<circle cx="500" cy="500" r="445" fill="none" stroke="${palette[1]}" stroke-width="8"/>`);
  parts.push(`<circle cx="500" cy="500" r="300" fill="${palette[0]}"/>`);
  parts.push(
    `<circle cx="500" cy="500" r="285" fill="none" stroke="${palette[1]}" stroke-width="6" stroke-dasharray="${4 + (variation % 3) * 6} 10"/>`,
  );
  const ringText = main.length > 22 ? main.slice(0, 22) : main;
  parts.push(curvedText(ringText, 500, 500, 375, Math.min(90, 900 / Math.max(6, ringText.length)), font, palette[1]));
  const lower = words.extra.length ? words.extra.join(' ') : `EST. ${year}`;
  parts.push(curvedText(lower, 500, 500, 375, Math.min(64, 700 / Math.max(6, lower.length)), font, palette[1], true));
  for (const side of [-1, 1]) {
    parts.push(`<polygon points="${starPoints(500 + side * 390, 500, 26, 11, 5)}" fill="${palette[1]}"/>`);
  }
  parts.push(drawMotif(motif, 500, 410, 160, paint, random));
  // The ribbon across the field, with the first word or the year.
  const ribbonText = words.extra.length ? `EST. ${year}` : (words.main[0] ?? main);
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
  const motif = motifOf(request.prompt, random);
  let body: string;
  let defs = '';
  if (style === 'line-art') body = lineArt(words, motif, random, index);
  else if (style === 'vintage-crest') {
    defs = `<defs>${distressMask(random)}</defs>`;
    body = `<g mask="url(#wear)">${vintageCrest(words, motif, random, index)}</g>`;
  } else body = vectorClean(words, motif, random, index);
  const title = `<title>${escapeXml(request.prompt.slice(0, 200))}</title>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${request.size}" height="${request.size}" viewBox="0 0 1000 1000">${title}${defs}${body}</svg>`;
}
