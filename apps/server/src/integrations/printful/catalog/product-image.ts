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
      return `<rect x="120" y="40" width="160" height="330" rx="28" fill="${fill}" stroke="${line}" stroke-width="3"/>
<rect x="138" y="58" width="58" height="70" rx="14" fill="${shade(fill, -0.25)}" stroke="${line}" stroke-width="2"/>
<circle cx="155" cy="78" r="10" fill="#1e293b"/><circle cx="178" cy="108" r="10" fill="#1e293b"/>`;
    case 'tote':
      return `<path d="M150 150 Q150 60 200 60 Q250 60 250 150" fill="none" stroke="${shade(fill, -0.3)}" stroke-width="12"/>
<rect x="95" y="150" width="210" height="250" fill="${fill}" stroke="${line}" stroke-width="3"/>`;
    case 'sticker':
      return `<rect x="80" y="80" width="240" height="240" rx="20" fill="#f8fafc" stroke="${line}" stroke-width="2" stroke-dasharray="6 6"/>
<circle cx="200" cy="200" r="95" fill="${fill}" stroke="${line}" stroke-width="3"/>
<path d="M200 105 A95 95 0 0 1 295 200 L260 200 A60 60 0 0 0 200 140 Z" fill="${shade(fill, -0.1)}"/>`;
  }
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** `bodyHex`, when given, is the product's own colour and `colourHex` only an accent (rim and handle of a mug). */
export function renderProductSvg(type: CatalogType, colourHex: string, label: string, bodyHex?: string): string {
  const colour = HEX.test(colourHex) ? escapeAttr(colourHex).toLowerCase() : '#ffffff';
  const fill = bodyHex && HEX.test(bodyHex) ? escapeAttr(bodyHex).toLowerCase() : colour;
  const accent = fill === colour ? null : colour;
  const line = isLight(fill) ? '#94a3b8' : shade(fill, -0.45);
  const text = label.replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500" viewBox="0 0 400 500" role="img" aria-label="${text}">
<rect width="400" height="500" fill="#f1f5f9"/>
${body(type, fill, line, accent)}
</svg>`;
}
