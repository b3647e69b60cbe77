import type { CatalogType } from './products';

/**
 * Clean flat product renderings drawn in code (no image is fetched from anywhere): one outline per product type,
 * filled with the variant colour, on a light backdrop. 400 x 500, the mockup canvas size.
 */

const escapeAttr = (value: string) => value.replace(/[^#0-9a-fA-F]/g, '');

/** Darker or lighter shade of a hex colour for seams and shadows. */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const v = (n >> shift) & 0xff;
    const next = amount < 0 ? v * (1 + amount) : v + (255 - v) * amount;
    return Math.round(Math.max(0, Math.min(255, next)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

function isLight(hex: string): boolean {
  const n = Number.parseInt(hex.slice(1), 16);
  const r = (n >> 16) & 0xff;
  const g = (n >> 8) & 0xff;
  const b = n & 0xff;
  return 0.299 * r + 0.587 * g + 0.114 * b > 186;
}

function body(type: CatalogType, fill: string, line: string, accent: string | null): string {
  switch (type) {
    case 'tshirt':
      return `<path d="M140 70 L100 85 L40 140 L80 195 L115 170 L115 440 L285 440 L285 170 L320 195 L360 140 L300 85 L260 70 Q200 110 140 70 Z" fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round"/>
<path d="M140 70 Q200 110 260 70" fill="none" stroke="${line}" stroke-width="3"/>`;
    case 'hoodie':
      return `<path d="M150 80 L95 100 L40 300 L85 315 L115 200 L115 450 L285 450 L285 200 L315 315 L360 300 L305 100 L250 80 Z" fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round"/>
<path d="M150 80 Q150 20 200 20 Q250 20 250 80 Q225 120 200 120 Q175 120 150 80 Z" fill="${shade(fill, -0.12)}" stroke="${line}" stroke-width="3"/>
<path d="M150 330 L250 330 L265 400 L135 400 Z" fill="none" stroke="${line}" stroke-width="3"/>
<path d="M185 120 L180 200 M215 120 L220 200" stroke="${line}" stroke-width="2"/>`;
    case 'mug':
      return `<rect x="90" y="150" width="190" height="220" rx="12" fill="${fill}" stroke="${line}" stroke-width="3"/>
<path d="M280 195 Q350 195 350 260 Q350 325 280 325" fill="none" stroke="${accent ?? (fill === '#ffffff' ? line : fill)}" stroke-width="22"/>
<ellipse cx="185" cy="152" rx="95" ry="14" fill="${accent ?? shade(fill, -0.2)}" stroke="${line}" stroke-width="3"/>`;
    case 'poster':
      return `<rect x="70" y="50" width="260" height="380" fill="${fill}" stroke="${line}" stroke-width="10"/>
<rect x="100" y="80" width="200" height="320" fill="#ffffff" stroke="${shade(line, 0.4)}" stroke-width="2"/>
<path d="M110 380 L170 280 L215 340 L245 300 L290 380 Z" fill="#cbd5e1"/><circle cx="250" cy="140" r="22" fill="#e2e8f0"/>`;
    case 'phone_case':
    case 'tote':
    case 'sticker':
      return '';
  }
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Kinds drawn as shaded studio shots, in the mockup templates' style (backdrop, soft shadows, highlights). */
type StudioType = 'phone_case' | 'tote' | 'sticker';
const isStudio = (type: CatalogType): type is StudioType =>
  type === 'phone_case' || type === 'tote' || type === 'sticker';

/** Backdrop, light and shadow definitions shared by the studio drawings (the mockup templates' studio look). */
const STUDIO_DEFS = `<defs>
  <radialGradient id="backdrop" cx="50%" cy="38%" r="75%"><stop offset="0" stop-color="#fbfbfb"/><stop offset="1" stop-color="#c9ccd1"/></radialGradient>
  <radialGradient id="floorShadow"><stop offset="0" stop-color="#000" stop-opacity="0.42"/><stop offset="0.55" stop-color="#000" stop-opacity="0.16"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>
  <linearGradient id="sideShade" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#000" stop-opacity="0.34"/><stop offset="0.14" stop-color="#000" stop-opacity="0.06"/>
    <stop offset="0.32" stop-color="#fff" stop-opacity="0.16"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/>
    <stop offset="0.84" stop-color="#000" stop-opacity="0.08"/><stop offset="1" stop-color="#000" stop-opacity="0.38"/>
  </linearGradient>
  <linearGradient id="topLight" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity="0.2"/><stop offset="0.45" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.18"/>
  </linearGradient>
  <linearGradient id="gloss" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity="0.34"/><stop offset="0.42" stop-color="#fff" stop-opacity="0.06"/><stop offset="0.43" stop-color="#fff" stop-opacity="0"/>
  </linearGradient>
  <radialGradient id="lens" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="#5b6676"/><stop offset="0.45" stop-color="#151a22"/><stop offset="1" stop-color="#05070a"/></radialGradient>
  <linearGradient id="art" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fbd38d"/><stop offset="0.55" stop-color="#f6a5a0"/><stop offset="1" stop-color="#8c7ae6"/></linearGradient>
  <pattern id="weave" width="3" height="3" patternUnits="userSpaceOnUse">
    <rect width="3" height="1.2" fill="#000" fill-opacity="0.05"/><rect width="1.2" height="3" fill="#fff" fill-opacity="0.06"/>
  </pattern>
  <filter id="blur3" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="3"/></filter>
  <filter id="blur9" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="9"/></filter>
</defs>
<rect width="400" height="500" fill="url(#backdrop)"/>`;

/** Black shading barely reads on dark colours: they get stronger highlights, light ones stronger shadows. */
function lightFor(hex: string) {
  const n = Number.parseInt(hex.slice(1), 16);
  const lum = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return { shade: lum > 0.75 ? 0.75 : lum > 0.35 ? 1 : 1.3, light: lum > 0.75 ? 0.6 : lum > 0.35 ? 1 : 1.8 };
}

function phoneCase(fill: string, clear: boolean): string {
  const { shade: k, light: l } = lightFor(fill);
  const outline = 'M152 44 H248 Q282 44 282 78 V422 Q282 456 248 456 H152 Q118 456 118 422 V78 Q118 44 152 44 Z';
  // A clear case shows the graphite phone through it.
  const body = clear
    ? `<path d="${outline}" fill="#2c313a"/><path d="${outline}" fill="${fill}" fill-opacity="0.28"/>`
    : `<path d="${outline}" fill="${fill}"/>`;
  return `<ellipse cx="200" cy="462" rx="98" ry="9" fill="url(#floorShadow)"/>
<path d="${outline}" fill="#000" fill-opacity="0.3" filter="url(#blur9)" transform="translate(8 12)"/>
<rect x="281" y="128" width="4" height="30" rx="2" fill="${shade(fill, -0.25)}"/><rect x="115" y="118" width="4" height="20" rx="2" fill="${shade(fill, -0.25)}"/><rect x="115" y="150" width="4" height="38" rx="2" fill="${shade(fill, -0.25)}"/>
${body}
<path d="${outline}" fill="url(#sideShade)" fill-opacity="${(0.9 * k).toFixed(2)}"/>
<path d="${outline}" fill="url(#topLight)"/>
<path d="${outline}" fill="none" stroke="#000" stroke-opacity="${(0.22 * k).toFixed(2)}" stroke-width="2"/>
<path d="M152 49 H248 Q277 49 277 78 V422 Q277 451 248 451 H152 Q123 451 123 422 V78 Q123 49 152 49 Z" fill="none" stroke="#fff" stroke-opacity="${(0.35 * l).toFixed(2)}" stroke-width="1.5"/>
<rect x="136" y="62" width="78" height="82" rx="22" fill="${clear ? '#23272e' : shade(fill, -0.12)}"/>
<rect x="136" y="62" width="78" height="82" rx="22" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="1.5"/>
<rect x="137.5" y="63.5" width="75" height="79" rx="21" fill="none" stroke="#fff" stroke-opacity="${(0.4 * l).toFixed(2)}" stroke-width="1"/>
<circle cx="159" cy="85" r="15" fill="#0b0d11"/><circle cx="159" cy="85" r="11.5" fill="url(#lens)"/><circle cx="155" cy="81" r="3" fill="#fff" fill-opacity="0.55"/>
<circle cx="159" cy="122" r="15" fill="#0b0d11"/><circle cx="159" cy="122" r="11.5" fill="url(#lens)"/><circle cx="155" cy="118" r="3" fill="#fff" fill-opacity="0.55"/>
<circle cx="193" cy="103" r="6" fill="#f2e6c9"/><circle cx="193" cy="103" r="6" fill="none" stroke="#000" stroke-opacity="0.2"/>
<circle cx="194" cy="80" r="3" fill="#0b0d11"/>
<path d="M152 44 H248 Q282 44 282 78 V150 L118 330 V78 Q118 44 152 44 Z" fill="url(#gloss)"/>`;
}

function tote(fill: string): string {
  const { shade: k, light: l } = lightFor(fill);
  const strap = shade(fill, -0.18);
  const bag = 'M96 196 L304 196 L312 444 Q312 452 304 452 L96 452 Q88 452 88 444 Z';
  const handle = (x1: number, x2: number, top: number) =>
    `M${x1} 204 C${x1 - 4} ${top + 40} ${x1 + 10} ${top} ${(x1 + x2) / 2} ${top} C${x2 - 10} ${top} ${x2 + 4} ${top + 40} ${x2} 204`;
  return `<ellipse cx="200" cy="456" rx="140" ry="10" fill="url(#floorShadow)"/>
<path d="${bag}" fill="#000" fill-opacity="0.26" filter="url(#blur9)" transform="translate(8 10)"/>
<path d="${handle(150, 250, 74)}" fill="none" stroke="${shade(fill, -0.35)}" stroke-width="14" stroke-linecap="round"/>
<path d="${handle(132, 268, 96)}" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="16" stroke-linecap="round" filter="url(#blur3)" transform="translate(3 5)"/>
<path d="${handle(132, 268, 96)}" fill="none" stroke="${strap}" stroke-width="14" stroke-linecap="round"/>
<path d="${handle(132, 268, 96)}" fill="none" stroke="#fff" stroke-opacity="${(0.18 * l).toFixed(2)}" stroke-width="4" transform="translate(-2 -3)"/>
<path d="${bag}" fill="${fill}"/>
<path d="${bag}" fill="url(#weave)"/>
<path d="${bag}" fill="url(#sideShade)" fill-opacity="${(0.75 * k).toFixed(2)}"/>
<path d="${bag}" fill="url(#topLight)"/>
<path d="M150 200 C140 280 156 360 146 450 L160 450 C168 360 154 280 164 200 Z" fill="#000" fill-opacity="${(0.07 * k).toFixed(3)}" filter="url(#blur3)"/>
<path d="M244 200 C254 300 236 380 250 450 L262 450 C250 380 266 300 256 200 Z" fill="#fff" fill-opacity="${(0.08 * l).toFixed(3)}" filter="url(#blur3)"/>
<path d="M96 196 L304 196 L305 214 L95 214 Z" fill="#000" fill-opacity="${(0.08 * k).toFixed(3)}"/>
<path d="M96 210 L304 210" stroke="#000" stroke-opacity="${(0.3 * k).toFixed(2)}" stroke-width="1" stroke-dasharray="4 3"/>
<path d="M96 197 L304 197" stroke="#fff" stroke-opacity="${(0.35 * l).toFixed(2)}" stroke-width="1.5"/>
${[132, 268]
  .map(
    (x) => `<rect x="${x - 9}" y="198" width="18" height="22" fill="${strap}"/>
<path d="M${x - 6} 201 L${x + 6} 217 M${x + 6} 201 L${x - 6} 217 M${x - 6} 201 H${x + 6} V217 H${x - 6} Z" fill="none" stroke="#000" stroke-opacity="0.28" stroke-width="1"/>`,
  )
  .join('')}
<path d="${bag}" fill="none" stroke="#000" stroke-opacity="${(0.2 * k).toFixed(2)}" stroke-width="1.5"/>`;
}

function sticker(fill: string): string {
  // A die-cut vinyl sticker with placeholder art, its corner peeling off the backing sheet.
  return `<rect x="70" y="92" width="260" height="300" rx="10" fill="#000" fill-opacity="0.22" filter="url(#blur9)" transform="translate(6 10)"/>
<ellipse cx="200" cy="402" rx="150" ry="9" fill="url(#floorShadow)"/>
<rect x="70" y="92" width="260" height="300" rx="10" fill="#f4f1ea"/>
<rect x="70" y="92" width="260" height="300" rx="10" fill="url(#topLight)"/>
<rect x="70" y="92" width="260" height="300" rx="10" fill="none" stroke="#000" stroke-opacity="0.1"/>
<circle cx="203" cy="246" r="106" fill="#000" fill-opacity="0.22" filter="url(#blur3)"/>
<circle cx="200" cy="242" r="106" fill="${fill}"/>
<circle cx="200" cy="242" r="106" fill="none" stroke="#000" stroke-opacity="0.12"/>
<clipPath id="face"><circle cx="200" cy="242" r="92"/></clipPath>
<g clip-path="url(#face)">
  <rect x="100" y="148" width="200" height="190" fill="url(#art)"/>
  <circle cx="200" cy="222" r="30" fill="#fff7e0" fill-opacity="0.9"/>
  <path d="M100 300 L150 246 L186 280 L228 228 L300 300 L300 340 L100 340 Z" fill="#4c3f8f" fill-opacity="0.85"/>
  <path d="M100 318 L160 284 L210 312 L256 286 L300 314 L300 340 L100 340 Z" fill="#2e2766"/>
</g>
<path d="M262 312 Q286 300 296 280 Q288 318 262 312 Z" fill="#000" fill-opacity="0.25" filter="url(#blur3)"/>
<path d="M266 306 Q292 298 300 276 Q262 276 266 306 Z" fill="#e5e7eb"/>
<path d="M266 306 Q292 298 300 276 Q262 276 266 306 Z" fill="url(#topLight)"/>
<path d="M138 178 A92 92 0 0 1 250 162" fill="none" stroke="#fff" stroke-opacity="0.55" stroke-width="6" stroke-linecap="round"/>
<circle cx="200" cy="242" r="106" fill="url(#gloss)"/>`;
}

function studio(type: StudioType, fill: string, label: string): string {
  switch (type) {
    case 'phone_case':
      return phoneCase(fill, /clear/i.test(label));
    case 'tote':
      return tote(fill);
    case 'sticker':
      return sticker(fill);
  }
}

/** `bodyHex`, when given, is the product's own colour and `colourHex` only an accent (rim and handle of a mug). */
export function renderProductSvg(type: CatalogType, colourHex: string, label: string, bodyHex?: string): string {
  const colour = HEX.test(colourHex) ? escapeAttr(colourHex).toLowerCase() : '#ffffff';
  const fill = bodyHex && HEX.test(bodyHex) ? escapeAttr(bodyHex).toLowerCase() : colour;
  const accent = fill === colour ? null : colour;
  const line = isLight(fill) ? '#94a3b8' : shade(fill, -0.45);
  const text = label.replace(/[<>&"']/g, '');
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500" viewBox="0 0 400 500" role="img" aria-label="${text}">`;
  if (isStudio(type)) return `${head}\n${STUDIO_DEFS}\n${studio(type, fill, text)}\n</svg>`;
  return `${head}
<rect width="400" height="500" fill="#f1f5f9"/>
${body(type, fill, line, accent)}
</svg>`;
}
