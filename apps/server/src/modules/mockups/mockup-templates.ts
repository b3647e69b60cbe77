import { DESIGN_AREAS, type TMockupColor, type TMockupProductType } from '@podforge/contract';

/**
 * The mockup template sets, drawn by the project: SVG product renders with studio lighting, side shading, fabric
 * folds, seams and highlights, rendered by sharp at TEMPLATE_WIDTH x TEMPLATE_HEIGHT. The SVG works in the spec's
 * 400x500 canvas space, so the design areas line up with the drawing by construction.
 */
export const TEMPLATE_WIDTH = 2000;
export const TEMPLATE_HEIGHT = 2500;

export type TemplateDef = {
  id: string;
  name: string;
  svg: (color: TMockupColor) => string;
};

export type TemplateSet = {
  productType: TMockupProductType;
  colors: TMockupColor[];
  templates: TemplateDef[];
};

const c = (id: string, name: string, hex: string): TMockupColor => ({ id, name, hex });

const GARMENT_COLORS = [
  c('white', 'White', '#f4f4f1'),
  c('black', 'Black', '#1d1d20'),
  c('heather-grey', 'Heather Grey', '#9b9ea3'),
  c('navy', 'Navy', '#1f2b47'),
  c('red', 'Red', '#b4232c'),
  c('forest-green', 'Forest Green', '#2e4b38'),
  c('royal-blue', 'Royal Blue', '#2851a3'),
  c('maroon', 'Maroon', '#5e1f2b'),
  c('sand', 'Sand', '#d8c7a6'),
  c('pink', 'Pink', '#eab4c4'),
];

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}

function svgDoc(body: string, backdrop: { from: string; to: string }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${TEMPLATE_WIDTH}" height="${TEMPLATE_HEIGHT}" viewBox="0 0 400 500">
<defs>
  <radialGradient id="backdrop" cx="50%" cy="38%" r="75%">
    <stop offset="0" stop-color="${backdrop.from}"/><stop offset="1" stop-color="${backdrop.to}"/>
  </radialGradient>
  <linearGradient id="sideShade" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#000" stop-opacity="0.38"/>
    <stop offset="0.22" stop-color="#000" stop-opacity="0.06"/>
    <stop offset="0.5" stop-color="#000" stop-opacity="0"/>
    <stop offset="0.78" stop-color="#000" stop-opacity="0.08"/>
    <stop offset="1" stop-color="#000" stop-opacity="0.42"/>
  </linearGradient>
  <linearGradient id="topLight" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity="0.22"/>
    <stop offset="0.45" stop-color="#fff" stop-opacity="0"/>
    <stop offset="1" stop-color="#000" stop-opacity="0.18"/>
  </linearGradient>
  <linearGradient id="cylinder" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#000" stop-opacity="0.45"/>
    <stop offset="0.18" stop-color="#000" stop-opacity="0.08"/>
    <stop offset="0.32" stop-color="#fff" stop-opacity="0.35"/>
    <stop offset="0.4" stop-color="#fff" stop-opacity="0.05"/>
    <stop offset="0.75" stop-color="#000" stop-opacity="0.1"/>
    <stop offset="1" stop-color="#000" stop-opacity="0.5"/>
  </linearGradient>
  <filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="2.2"/></filter>
  <filter id="shadow" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="9"/></filter>
</defs>
<rect width="400" height="500" fill="url(#backdrop)"/>
${body}
</svg>`;
}

/** Folds and highlights: blurred dark creases with a light edge beside each, stronger on dark fabric. */
function folds(paths: string[], hex: string): string {
  const dark = luminance(hex) < 0.3;
  const crease = paths
    .map((d) => `<path d="${d}" fill="none" stroke="#000" stroke-opacity="${dark ? 0.45 : 0.16}" stroke-width="5"/>`)
    .join('');
  const light = paths
    .map(
      (d) =>
        `<path d="${d}" transform="translate(4 -2)" fill="none" stroke="#fff" stroke-opacity="${dark ? 0.1 : 0.22}" stroke-width="3"/>`,
    )
    .join('');
  return `<g filter="url(#soft)">${crease}${light}</g>`;
}

const seam = (d: string, hex: string) =>
  `<path d="${d}" fill="none" stroke="${luminance(hex) < 0.3 ? '#fff' : '#000'}" stroke-opacity="0.22" stroke-width="0.7" stroke-dasharray="2.2 1.6"/>`;

/**
 * The spec's t-shirt and hoodie design areas are centred at x 250, not on the canvas: the garments are drawn
 * around x 200 and shifted so the chest sits under the design area (the right sleeve runs off the frame).
 */
const GARMENT_SHIFT = 50;

const TSHIRT =
  'M160 60 Q200 88 240 60 L292 72 L364 134 L334 190 L302 168 L304 456 Q200 468 96 456 L98 168 L66 190 L36 134 L108 72 Z';
const TSHIRT_BACK_NECK = 'M160 60 Q200 72 240 60';

function tshirt(view: 'front' | 'back' | 'hanging') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const neck =
      view === 'back'
        ? `<path d="${TSHIRT_BACK_NECK}" fill="none" stroke="#000" stroke-opacity="0.25" stroke-width="3"/>`
        : `<path d="M160 60 Q200 88 240 60 Q200 74 160 60 Z" fill="#000" fill-opacity="0.35"/>
           <path d="M160 60 Q200 88 240 60" fill="none" stroke="${hex}" stroke-width="7"/>
           <path d="M160 60 Q200 88 240 60" fill="none" stroke="#000" stroke-opacity="0.22" stroke-width="7"/>
           <path d="M163 64 Q200 90 237 64" fill="none" stroke="#fff" stroke-opacity="0.18" stroke-width="1"/>`;
    const hanger =
      view === 'hanging'
        ? `<path d="M200 38 q0 -16 12 -16 q12 0 10 12" fill="none" stroke="#7a7d84" stroke-width="3"/>
           <path d="M112 74 L200 40 L288 74" fill="none" stroke="#8a5a32" stroke-width="7" stroke-linecap="round"/>`
        : '';
    const body = `<g transform="translate(${GARMENT_SHIFT} 0)">
<ellipse cx="200" cy="468" rx="150" ry="14" fill="#000" fill-opacity="0.28" filter="url(#shadow)"/>
${hanger}
<path d="${TSHIRT}" fill="${hex}"/>
<path d="${TSHIRT}" fill="url(#sideShade)"/>
<path d="${TSHIRT}" fill="url(#topLight)"/>
${folds(
  [
    'M120 200 Q140 260 128 330',
    'M282 210 Q262 280 276 350',
    'M150 400 Q200 420 250 398',
    'M110 120 Q150 110 175 130',
    'M300 110 Q330 140 330 170',
    'M70 160 Q90 150 100 176',
  ],
  hex,
)}
${neck}
${seam('M101 450 Q200 462 299 450', hex)}
${seam('M66 186 L98 166', hex)}${seam('M334 186 L302 166', hex)}
${seam('M108 72 L98 168', hex)}${seam('M292 72 L302 168', hex)}
</g>`;
    const backdrop = view === 'hanging' ? { from: '#efe6da', to: '#b9a58c' } : { from: '#fbfbfb', to: '#c9ccd1' };
    return svgDoc(body, backdrop);
  };
}

const HOODIE =
  'M150 70 Q200 40 250 70 L300 92 L350 150 L382 400 L346 408 L318 210 L318 462 Q200 474 82 462 L82 210 L54 408 L18 400 L50 150 L100 92 Z';

function hoodie(view: 'front' | 'back' | 'lifestyle') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const hood =
      view === 'back'
        ? `<path d="M140 76 Q200 10 260 76 Q250 150 200 158 Q150 150 140 76 Z" fill="${hex}"/>
           <path d="M140 76 Q200 10 260 76 Q250 150 200 158 Q150 150 140 76 Z" fill="url(#sideShade)"/>
           ${folds(['M200 30 Q204 90 200 150'], hex)}`
        : `<path d="M142 80 Q200 10 258 80 L240 118 Q200 86 160 118 Z" fill="${hex}"/>
           <path d="M142 80 Q200 10 258 80 L240 118 Q200 86 160 118 Z" fill="url(#topLight)"/>
           <path d="M160 118 Q200 86 240 118 Q200 104 160 118 Z" fill="#000" fill-opacity="0.45"/>
           <path d="M186 112 L182 176 M214 112 L218 176" stroke="#e9e6df" stroke-width="2.4" stroke-linecap="round"/>
           <path d="M110 380 L290 380 L306 452 L94 452 Z" fill="#000" fill-opacity="0.06"/>
           ${seam('M110 380 L290 380', hex)}${seam('M110 380 L94 452', hex)}${seam('M290 380 L306 452', hex)}`;
    const body = `<g transform="translate(${GARMENT_SHIFT} 0)">
<ellipse cx="200" cy="474" rx="160" ry="14" fill="#000" fill-opacity="0.28" filter="url(#shadow)"/>
<path d="${HOODIE}" fill="${hex}"/>
<path d="${HOODIE}" fill="url(#sideShade)"/>
<path d="${HOODIE}" fill="url(#topLight)"/>
${hood}
${folds(['M100 240 Q118 300 104 380', 'M300 240 Q282 300 296 380', 'M40 260 Q60 300 52 360', 'M360 260 Q340 300 348 360', 'M130 440 Q200 452 270 440'], hex)}
<path d="M82 440 Q200 452 318 440 L318 462 Q200 474 82 462 Z" fill="#000" fill-opacity="0.14"/>
<path d="M18 400 L54 408 L56 388 L22 380 Z M382 400 L346 408 L344 388 L378 380 Z" fill="#000" fill-opacity="0.16"/>
${seam('M100 92 L82 210', hex)}${seam('M300 92 L318 210', hex)}
</g>`;
    const backdrop = view === 'lifestyle' ? { from: '#e3ebf0', to: '#8fa3b3' } : { from: '#fbfbfb', to: '#c9ccd1' };
    return svgDoc(body, backdrop);
  };
}

function mug(view: 'right' | 'left' | 'lifestyle') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const handleX = view === 'left' ? -1 : 1;
    const handle =
      handleX > 0
        ? 'M300 110 Q372 110 370 170 Q368 232 300 236 L300 214 Q348 210 348 170 Q348 132 300 134 Z'
        : 'M100 110 Q28 110 30 170 Q32 232 100 236 L100 214 Q52 210 52 170 Q52 132 100 134 Z';
    const table =
      view === 'lifestyle'
        ? `<rect x="0" y="300" width="400" height="200" fill="#9c6b43"/>
           <rect x="0" y="300" width="400" height="200" fill="url(#topLight)"/>
           ${[330, 372, 420, 466].map((y) => `<path d="M0 ${y} Q200 ${y - 8} 400 ${y}" stroke="#6e4527" stroke-opacity="0.45" stroke-width="1.4" fill="none"/>`).join('')}`
        : '';
    const body = `
${table}
<ellipse cx="200" cy="334" rx="118" ry="16" fill="#000" fill-opacity="0.35" filter="url(#shadow)"/>
<path d="${handle}" fill="${hex}"/>
<path d="${handle}" fill="#000" fill-opacity="0.18"/>
<path d="M100 62 L100 318 Q200 346 300 318 L300 62 Z" fill="${hex}"/>
<path d="M100 62 L100 318 Q200 346 300 318 L300 62 Z" fill="url(#cylinder)"/>
<ellipse cx="200" cy="62" rx="100" ry="15" fill="${hex}"/>
<ellipse cx="200" cy="62" rx="100" ry="15" fill="#000" fill-opacity="0.1"/>
<ellipse cx="200" cy="64" rx="92" ry="11" fill="#000" fill-opacity="0.42"/>
<path d="M108 64 Q200 84 292 64" fill="none" stroke="#fff" stroke-opacity="0.35" stroke-width="1.2"/>
<rect x="150" y="74" width="10" height="236" fill="#fff" fill-opacity="0.25" filter="url(#soft)"/>
`;
    const backdrop = view === 'lifestyle' ? { from: '#f3ede4', to: '#c8b8a2' } : { from: '#fbfbfb', to: '#c9ccd1' };
    return svgDoc(body, backdrop);
  };
}

function poster(view: 'framed' | 'gallery' | 'pinned') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const frame =
      view === 'pinned'
        ? `<rect x="46" y="46" width="308" height="408" fill="#fdfdfb"/>
           <circle cx="200" cy="42" r="5" fill="#c0392b"/><circle cx="198" cy="40" r="1.6" fill="#fff" fill-opacity="0.7"/>`
        : `<rect x="26" y="26" width="348" height="448" fill="${hex}"/>
           <rect x="26" y="26" width="348" height="448" fill="url(#topLight)"/>
           <rect x="26" y="26" width="348" height="448" fill="url(#sideShade)" fill-opacity="0.5"/>
           <path d="M26 26 L374 26 L366 34 L34 34 Z" fill="#fff" fill-opacity="0.25"/>
           <path d="M26 474 L374 474 L366 466 L34 466 Z" fill="#000" fill-opacity="0.25"/>
           <rect x="34" y="34" width="332" height="432" fill="#fbfbf8"/>
           <rect x="34" y="34" width="332" height="432" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>`;
    const floor =
      view === 'gallery'
        ? '<rect x="0" y="488" width="400" height="12" fill="#6f5a48"/><rect x="0" y="486" width="400" height="3" fill="#fff" fill-opacity="0.6"/>'
        : '';
    const body = `
${floor}
<rect x="30" y="34" width="348" height="448" fill="#000" fill-opacity="0.35" filter="url(#shadow)"/>
${frame}
<rect x="50" y="50" width="300" height="400" fill="#000" fill-opacity="0.03"/>
<path d="M40 40 L180 40 L40 230 Z" fill="#fff" fill-opacity="0.12"/>
`;
    const backdrop =
      view === 'gallery'
        ? { from: '#f2f0ec', to: '#cfc8bd' }
        : view === 'pinned'
          ? { from: '#e7ddd0', to: '#b9a58c' }
          : { from: '#f6f7f8', to: '#c3c8cf' };
    return svgDoc(body, backdrop);
  };
}

export const TEMPLATE_SETS: Record<TMockupProductType, TemplateSet> = {
  tshirt: {
    productType: 'tshirt',
    colors: GARMENT_COLORS,
    templates: [
      { id: 'tshirt-front', name: 'T-shirt front', svg: tshirt('front') },
      { id: 'tshirt-back', name: 'T-shirt back', svg: tshirt('back') },
      { id: 'tshirt-hanging', name: 'T-shirt on a hanger', svg: tshirt('hanging') },
    ],
  },
  hoodie: {
    productType: 'hoodie',
    colors: GARMENT_COLORS.filter((g) =>
      ['white', 'black', 'heather-grey', 'navy', 'forest-green', 'maroon'].includes(g.id),
    ),
    templates: [
      { id: 'hoodie-front', name: 'Hoodie front', svg: hoodie('front') },
      { id: 'hoodie-back', name: 'Hoodie back', svg: hoodie('back') },
      { id: 'hoodie-lifestyle', name: 'Hoodie lifestyle', svg: hoodie('lifestyle') },
    ],
  },
  mug: {
    productType: 'mug',
    colors: [
      c('white', 'White', '#f7f7f5'),
      c('black', 'Black', '#1b1b1d'),
      c('navy', 'Navy', '#1f2b47'),
      c('red', 'Red', '#b4232c'),
    ],
    templates: [
      { id: 'mug-right', name: 'Mug, handle right', svg: mug('right') },
      { id: 'mug-left', name: 'Mug, handle left', svg: mug('left') },
      { id: 'mug-lifestyle', name: 'Mug on a table', svg: mug('lifestyle') },
    ],
  },
  poster: {
    productType: 'poster',
    colors: [
      c('black', 'Black frame', '#1d1d20'),
      c('white', 'White frame', '#f1f1ee'),
      c('oak', 'Oak frame', '#b98b57'),
      c('walnut', 'Walnut frame', '#5b3b25'),
    ],
    templates: [
      { id: 'poster-framed', name: 'Framed poster', svg: poster('framed') },
      { id: 'poster-gallery', name: 'Poster in a gallery', svg: poster('gallery') },
      { id: 'poster-pinned', name: 'Pinned print', svg: poster('pinned') },
    ],
  },
};

export function designAreaOf(productType: TMockupProductType) {
  return DESIGN_AREAS[productType];
}
