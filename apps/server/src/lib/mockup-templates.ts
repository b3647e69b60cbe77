import { DESIGN_AREAS, type TMockupColor, type TMockupProductType } from '@podforge/contract';

/**
 * The mockup template sets, drawn by the project: SVG product renders with studio lighting, soft gradient fabric
 * folds, rib-knit collars, hems and cuffs, and floor or wall shadows, rendered by sharp at TEMPLATE_WIDTH x TEMPLATE_HEIGHT. The SVG works in the spec's
 * 400x500 canvas space, so the design areas line up with the drawing by construction.
 */
/**
 * Part of the template cache key (DATA_DIR/mockup-templates/v<N>/...): bump it whenever a drawing changes, so
 * renders cached from an older drawing are not served.
 */
export const TEMPLATE_DRAWING_VERSION = 4;
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

/** A gradient's stops as a table: offset, colour (black or white), opacity, each as it stands in the SVG. */
type Stops = readonly (readonly [offset: string, color: '#000' | '#fff', opacity: string])[];

const stopTags = (stops: Stops) =>
  stops.map(([offset, color, opacity]) => `<stop offset="${offset}" stop-color="${color}" stop-opacity="${opacity}"/>`);

/** `<linearGradient>` from x1 y1 to x2 y2 ("0 0 1 0": left to right), one stop a line. */
function linearGradient(id: string, direction: string, stops: Stops): string {
  const [x1, y1, x2, y2] = direction.split(' ');
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">
    ${stopTags(stops).join('\n    ')}
  </linearGradient>`;
}

function radialGradient(id: string, stops: Stops): string {
  return `<radialGradient id="${id}">
    ${stopTags(stops).join('\n    ')}
  </radialGradient>`;
}

/** The shading gradients the drawings share (svgDoc's and garmentDefs'), one table each. */
const SIDE_SHADE: Stops = [
  ['0', '#000', '0.38'],
  ['0.22', '#000', '0.06'],
  ['0.5', '#000', '0'],
  ['0.78', '#000', '0.08'],
  ['1', '#000', '0.42'],
];
const TOP_LIGHT: Stops = [
  ['0', '#fff', '0.22'],
  ['0.45', '#fff', '0'],
  ['1', '#000', '0.18'],
];
const CYLINDER: Stops = [
  ['0', '#000', '0.45'],
  ['0.18', '#000', '0.08'],
  ['0.32', '#fff', '0.35'],
  ['0.4', '#fff', '0.05'],
  ['0.75', '#000', '0.1'],
  ['1', '#000', '0.5'],
];
const FLOOR_SHADOW: Stops = [
  ['0', '#000', '0.42'],
  ['0.55', '#000', '0.16'],
  ['1', '#000', '0'],
];
const SOFT_SHADOW: Stops = [
  ['0', '#000', '0.16'],
  ['0.7', '#000', '0.08'],
  ['1', '#000', '0'],
];
const BODY_SHADE: Stops = [
  ['0', '#000', '0.30'],
  ['0.12', '#000', '0.10'],
  ['0.3', '#000', '0'],
  ['0.42', '#fff', '0.10'],
  ['0.6', '#000', '0'],
  ['0.86', '#000', '0.10'],
  ['1', '#000', '0.34'],
];
const BODY_LIGHT: Stops = [
  ['0', '#fff', '0.12'],
  ['0.35', '#fff', '0'],
  ['0.8', '#000', '0.04'],
  ['1', '#000', '0.16'],
];
const SLEEVE_SHADE_L: Stops = [
  ['0', '#000', '0.34'],
  ['0.45', '#000', '0.02'],
  ['0.7', '#fff', '0.06'],
  ['1', '#000', '0.2'],
];
const SLEEVE_SHADE_R: Stops = [
  ['0', '#000', '0.38'],
  ['0.45', '#000', '0.04'],
  ['0.7', '#fff', '0.04'],
  ['1', '#000', '0.22'],
];

function svgDoc(body: string, backdrop: { from: string; to: string }): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${TEMPLATE_WIDTH}" height="${TEMPLATE_HEIGHT}" viewBox="0 0 400 500">
<defs>
  <radialGradient id="backdrop" cx="50%" cy="38%" r="75%">
    <stop offset="0" stop-color="${backdrop.from}"/><stop offset="1" stop-color="${backdrop.to}"/>
  </radialGradient>
  ${linearGradient('sideShade', '0 0 1 0', SIDE_SHADE)}
  ${linearGradient('topLight', '0 0 0 1', TOP_LIGHT)}
  ${linearGradient('cylinder', '0 0 1 0', CYLINDER)}
  <filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="2.2"/></filter>
  <filter id="shadow" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="9"/></filter>
</defs>
<rect width="400" height="500" fill="url(#backdrop)"/>
${body}
</svg>`;
}

/**
 * How strongly shadows and highlights show on a fabric colour: black shading barely reads on dark cloth, so dark
 * garments get stronger light shading, and light garments stronger dark shading.
 */
function tone(hex: string) {
  const lum = luminance(hex);
  return {
    shade: lum > 0.75 ? 0.75 : lum > 0.35 ? 1 : 1.25,
    light: lum > 0.75 ? 0.5 : lum > 0.35 ? 1 : 1.9,
  };
}

const sh = (hex: string, opacity: number) => `fill="#000" fill-opacity="${(opacity * tone(hex).shade).toFixed(3)}"`;
const hl = (hex: string, opacity: number) => `fill="#fff" fill-opacity="${(opacity * tone(hex).light).toFixed(3)}"`;

/** Mirrors an x coordinate about the garments' centre line (x 250, the design areas' centre). */
const GARMENT_CX = 250;

/** Shared garment defs: soft blurs, a fine knit grain and a rib-knit stripe pattern. */
function garmentDefs(clips: Record<string, string>): string {
  return `<defs>
  <filter id="blur2" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="2"/></filter>
  <filter id="blur5" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="5"/></filter>
  <filter id="blur9" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="9"/></filter>
  <pattern id="rib" width="2.2" height="10" patternUnits="userSpaceOnUse">
    <rect width="1.1" height="10" fill="#000" fill-opacity="0.09"/><rect x="1.1" width="1.1" height="10" fill="#fff" fill-opacity="0.05"/>
  </pattern>
  <pattern id="ribH" width="10" height="2.2" patternUnits="userSpaceOnUse">
    <rect width="10" height="1.1" fill="#000" fill-opacity="0.09"/><rect y="1.1" width="10" height="1.1" fill="#fff" fill-opacity="0.05"/>
  </pattern>
  ${radialGradient('floorShadow', FLOOR_SHADOW)}
  ${radialGradient('softShadow', SOFT_SHADOW)}
  ${linearGradient('bodyShade', '0 0 1 0', BODY_SHADE)}
  ${linearGradient('bodyLight', '0 0 0 1', BODY_LIGHT)}
  ${linearGradient('sleeveShadeL', '0 0 1 0', SLEEVE_SHADE_L)}
  ${linearGradient('sleeveShadeR', '1 0 0 0', SLEEVE_SHADE_R)}
  ${Object.entries(clips)
    .map(([id, d]) => `<clipPath id="${id}"><path d="${d}"/></clipPath>`)
    .join('\n  ')}
</defs>`;
}

/** Shading that depends on the fabric colour: the gradients above are scaled by the fabric's tone. */
function shadeLayers(d: string, hex: string, gradients: string[]): string {
  const k = tone(hex);
  return gradients
    .map((g) => {
      const strength = g === 'bodyLight' ? (k.shade + k.light) / 2 : k.shade;
      return `<path d="${d}" fill="url(#${g})" opacity="${Math.min(1, strength).toFixed(3)}"/>`;
    })
    .join('');
}

/** A soft fabric fold: a blurred dark valley with a blurred highlight ridge beside it. */
function fold(hex: string, dark: string, light: string, strength = 1): string {
  return `<path d="${dark}" ${sh(hex, 0.13 * strength)}/><path d="${light}" ${hl(hex, 0.1 * strength)}/>`;
}

/** Mirrors a path's x coordinates about the garment centre line (absolute commands, "x y" pairs only). */
function mirror(d: string): string {
  return d.replace(/(-?\d+(?:\.\d+)?)[ ,](-?\d+(?:\.\d+)?)/g, (_, x: string, y: string) => {
    const mx = 2 * GARMENT_CX - Number(x);
    return `${Number(mx.toFixed(2))} ${y}`;
  });
}

// T-shirt, ghost-mannequin style, drawn about x 250: the body runs 144..356 so the design area sits on the chest
// inside it; short sleeves hang out to about 106 and 394. The whole drawing is then moved 50 left (TEE_SHIFT_X),
// so in the frame the sleeves reach 56..344 and the design area is 100..300 x 120..360.
const TEE_BODY_FRONT =
  'M212 86 C190 91 168 98 148 105 C147 124 147 146 146 165 C145 220 143 320 141 404 C200 413 300 413 359 404 C357 320 355 220 354 165 C353 146 353 124 352 105 C332 98 310 91 288 86 C270 74 230 74 212 86 Z';
const TEE_BODY_BACK =
  'M212 86 C190 91 168 98 148 105 C147 124 147 146 146 165 C145 220 143 320 141 404 C200 413 300 413 359 404 C357 320 355 220 354 165 C353 146 353 124 352 105 C332 98 310 91 288 86 C268 93 232 93 212 86 Z';
const TEE_SLEEVE_L =
  'M148 105 C134 107 123 114 118 130 C113 148 108 168 105 188 C117 196 131 202 145 206 C147 190 149 176 150 162 C150 142 149 122 148 105 Z';
const TEE_SLEEVE_R = mirror(TEE_SLEEVE_L);

/** Where the tee's drawing (centred on GARMENT_CX) moves to sit centred in the 400-unit frame. */
const TEE_SHIFT_X = 200 - GARMENT_CX;

function tshirt(view: 'front' | 'back' | 'hanging') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const bodyPath = view === 'back' ? TEE_BODY_BACK : TEE_BODY_FRONT;
    const silhouette = `${bodyPath} ${TEE_SLEEVE_L} ${TEE_SLEEVE_R}`;
    const hanging = view === 'hanging';

    // Floor or wall shadow: a blurred copy of the silhouette and, for the studio shots, a contact shadow.
    const shadow = hanging
      ? `<path d="${silhouette}" fill="#3b2a18" fill-opacity="0.32" filter="url(#blur9)" transform="translate(7 10)"/>`
      : `<ellipse cx="250" cy="260" rx="140" ry="175" fill="url(#softShadow)"/>
         <ellipse cx="250" cy="412" rx="142" ry="11" fill="url(#floorShadow)"/>`;

    const hanger = hanging
      ? `<path d="M250 82 L250 60 C250 48 262 44 266 34 C270 24 262 14 252 14 C244 14 239 20 239 27" fill="none" stroke="#6d7078" stroke-width="2.6" stroke-linecap="round"/>
         <path d="M250 82 L250 60 C250 48 262 44 266 34 C270 24 262 14 252 14 C244 14 239 20 239 27" fill="none" stroke="#fff" stroke-opacity="0.45" stroke-width="0.8" stroke-linecap="round" transform="translate(-0.6 -0.6)"/>`
      : '';

    const body = `<g clip-path="url(#teeBody)">
  <path d="${bodyPath}" fill="${hex}"/>
  ${shadeLayers(bodyPath, hex, ['bodyShade', 'bodyLight'])}
  <g filter="url(#blur9)">
    ${fold(hex, 'M160 175 C185 200 200 230 205 262 L195 266 C188 236 175 208 154 186 Z', 'M170 168 C196 192 212 222 216 252 L210 256 C204 228 190 200 166 176 Z')}
    ${fold(hex, mirror('M160 175 C185 200 200 230 205 262 L195 266 C188 236 175 208 154 186 Z'), mirror('M170 168 C196 192 212 222 216 252 L210 256 C204 228 190 200 166 176 Z'), 0.9)}
    ${fold(hex, 'M168 300 C176 330 176 370 170 405 L158 405 C163 370 163 330 158 300 Z', 'M182 300 C190 332 190 370 185 405 L178 405 C182 370 181 332 175 300 Z', 0.8)}
    ${fold(hex, 'M330 290 C322 330 324 370 332 405 L344 405 C338 370 337 330 342 290 Z', 'M318 300 C310 332 312 370 318 405 L325 405 C320 370 319 332 325 300 Z', 0.8)}
    ${fold(hex, 'M225 378 C240 392 262 392 280 380 L282 392 C262 402 240 402 222 390 Z', 'M222 366 C242 380 262 380 282 368 L282 374 C262 386 242 386 222 372 Z', 0.7)}
    <ellipse cx="250" cy="150" rx="70" ry="24" ${hl(hex, 0.07)}/>
    <path d="M150 156 C160 176 164 198 160 218 L144 218 L144 156 Z" ${sh(hex, 0.36)}/>
    <path d="M350 156 C340 176 336 198 340 218 L356 218 L356 156 Z" ${sh(hex, 0.38)}/>
  </g>
  <path d="M140 400 C200 408 300 408 360 400 L360 416 L140 416 Z" ${sh(hex, 0.06)}/>
  <path d="M142.5 397 C200 405.5 300 405.5 357.5 397" fill="none" stroke="#000" stroke-opacity="${(0.16 * tone(hex).shade).toFixed(3)}" stroke-width="0.45" stroke-dasharray="1.4 1"/>
  <path d="M142.5 397.8 C200 406.3 300 406.3 357.5 397.8" fill="none" stroke="#fff" stroke-opacity="${(0.1 * tone(hex).light).toFixed(3)}" stroke-width="0.45"/>
</g>`;

    const sleeve = (d: string, side: 'L' | 'R') => {
      const hem = side === 'L' ? 'M106.2 180 C118 188 132 194 146 198' : mirror('M106.2 180 C118 188 132 194 146 198');
      return `<g clip-path="url(#teeSleeve${side})">
  <path d="${d}" fill="${hex}"/>
  ${shadeLayers(d, hex, [side === 'L' ? 'sleeveShadeL' : 'sleeveShadeR', 'bodyLight'])}
  <path d="${hem}" fill="none" stroke="#000" stroke-opacity="${(0.18 * tone(hex).shade).toFixed(3)}" stroke-width="0.45" stroke-dasharray="1.4 1"/>

</g>`;
    };

    // Soft sleeve shading, both sleeves in one blurred group (each filter pass costs a full-canvas surface).
    const sleeveSoft = (
      m: (d: string) => string,
    ) => `<path d="${m('M128 120 C124 140 120 160 118 190 L126 192 C128 162 132 140 136 118 Z')}" ${hl(hex, 0.09)}/>
  <path d="${m('M146 100 C150 130 151 160 147 210 L160 210 L160 100 Z')}" ${sh(hex, 0.22)}/>
  <path d="${m('M104 186 C118 194 132 200 146 205 L146 214 L100 214 Z')}" ${sh(hex, 0.2)}/>`;
    const sleevesSoft = `<g clip-path="url(#teeSleeves)"><g filter="url(#blur5)">${sleeveSoft((d) => d)}${sleeveSoft(mirror)}</g></g>`;

    const collar =
      view === 'back'
        ? `<path d="M212 86 C232 93 268 93 288 86 L288 86 C286 89 284 91 283 92 C264 100 236 100 217 92 C216 91 214 89 212 86 Z" fill="${hex}"/>
           <path d="M212 86 C232 93 268 93 288 86 C286 89 284 91 283 92 C264 100 236 100 217 92 C216 91 214 89 212 86 Z" fill="url(#ribH)"/>
           <path d="M217 92.5 C236 100.5 264 100.5 283 92.5" fill="none" stroke="#000" stroke-opacity="${(0.08 * tone(hex).shade).toFixed(3)}" stroke-width="2.4"/>
           <path d="M212 86 C232 93 268 93 288 86" fill="none" stroke="#fff" stroke-opacity="${(0.14 * tone(hex).light).toFixed(3)}" stroke-width="0.6"/>`
        : `<path d="M218 88 C232 80 268 80 282 88 C272 109.3 228 109.3 218 88 Z" fill="${hex}"/>
           <path d="M218 88 C232 80 268 80 282 88 C272 109.3 228 109.3 218 88 Z" fill="#000" fill-opacity="0.42"/>
           <path d="M220 90 C234 84 266 84 280 90 C270 96 230 96 220 90 Z" fill="#000" fill-opacity="0.12"/>
           ${hanging ? '' : '<path d="M244 84.5 L256 84.5 L255.5 90 L244.5 90 Z" fill="#eceae4"/><path d="M244 84.5 L256 84.5 L255.5 90 L244.5 90 Z" fill="#000" fill-opacity="0.18"/>'}
           <path d="M212 86 C230 74 270 74 288 86 L282 88 C268 80 232 80 218 88 Z" fill="${hex}"/>
           <path d="M212 86 C230 74 270 74 288 86 L282 88 C268 80 232 80 218 88 Z" fill="url(#ribH)"/>
           <path d="M212 86 C230 74 270 74 288 86 L282 88 C268 80 232 80 218 88 Z" ${sh(hex, 0.1)}/>
           <path d="M212 86 C224 120.7 276 120.7 288 86 L282 88 C272 109.3 228 109.3 218 88 Z" fill="${hex}"/>
           <path d="M212 86 C224 120.7 276 120.7 288 86 L282 88 C272 109.3 228 109.3 218 88 Z" fill="url(#rib)"/>
           <path d="M218 88 C228 109.3 272 109.3 282 88" fill="none" stroke="#fff" stroke-opacity="${(0.18 * tone(hex).light).toFixed(3)}" stroke-width="0.8"/>
           <path d="M212 86 C224 120.7 276 120.7 288 86" fill="none" stroke="#000" stroke-opacity="${(0.07 * tone(hex).shade).toFixed(3)}" stroke-width="3"/>
           <path d="M212 86 C224 120.7 276 120.7 288 86" fill="none" stroke="#000" stroke-opacity="${(0.12 * tone(hex).shade).toFixed(3)}" stroke-width="1.2"/>`;

    const defs = garmentDefs({
      teeBody: bodyPath,
      teeSleeveL: TEE_SLEEVE_L,
      teeSleeveR: TEE_SLEEVE_R,
      teeSleeves: `${TEE_SLEEVE_L} ${TEE_SLEEVE_R}`,
    });
    const backdrop = hanging ? { from: '#f3ece2', to: '#cdbba3' } : { from: '#fbfbfb', to: '#d3d6da' };
    // The tee is drawn about x 250; it is moved to the frame's centre line (x 200) as a whole, with its design area
    // (DESIGN_AREAS.tshirt, x 100..300), so both sleeves keep a margin to the frame.
    return svgDoc(
      `<g transform="translate(${TEE_SHIFT_X} 0)">${defs}${shadow}${body}${sleeve(TEE_SLEEVE_L, 'L')}${sleeve(TEE_SLEEVE_R, 'R')}${sleevesSoft}${collar}${hanger}</g>`,
      backdrop,
    );
  };
}

// Hoodie, ghost-mannequin style: the body runs 132..368 so the design area (140..360 x 160..420) is on the
// chest and front; long sleeves hang beside it from about 106 to 394.
const HOODIE_BODY =
  'M200 106 C180 110 160 114 142 120 C138 150 137 180 137 200 C136 280 135 360 134 440 L136 466 C200 473 300 473 364 466 L366 440 C365 360 364 280 363 200 C363 180 362 150 358 120 C340 114 320 110 300 106 Z';
const HOODIE_HEM = 'M134 440 L136 466 C200 473 300 473 364 466 L366 440 C300 446 200 446 134 440 Z';
const HOODIE_SLEEVE_L =
  'M142 120 C128 122 118 130 114 146 C110 170 108 260 107 424 C118 427 130 428 140 426 C140 340 140 260 141 196 C141 170 142 145 142 120 Z';
const HOODIE_CUFF_L = 'M107 424 L109 452 C118 455 130 455 139 453 L140 426 C130 428 118 427 107 424 Z';
const HOOD_BACK =
  'M186 116 C176 78 200 40 250 38 C300 40 324 78 314 116 C296 128 270 134 250 134 C230 134 204 128 186 116 Z';
const HOOD_OPENING =
  'M206 124 C200 92 220 66 250 64 C280 66 300 92 294 124 C282 140 264 150 250 156 C236 150 218 140 206 124 Z';

function hoodie(view: 'front' | 'back' | 'lifestyle') {
  return (color: TMockupColor) => {
    const hex = color.hex;
    const k = tone(hex);
    const sleeveR = mirror(HOODIE_SLEEVE_L);
    const cuffR = mirror(HOODIE_CUFF_L);
    const silhouette = `${HOODIE_BODY} ${HOODIE_SLEEVE_L} ${sleeveR} ${HOODIE_CUFF_L} ${cuffR} ${HOOD_BACK}`;
    const lifestyle = view === 'lifestyle';

    const shadow = lifestyle
      ? `<path d="${silhouette}" fill="#1d2c38" fill-opacity="0.3" filter="url(#blur9)" transform="translate(8 9)"/>`
      : `<ellipse cx="250" cy="280" rx="165" ry="200" fill="url(#softShadow)"/>
         <ellipse cx="250" cy="472" rx="165" ry="11" fill="url(#floorShadow)"/>`;

    const hood = `<g clip-path="url(#hoodClip)">
  <path d="${HOOD_BACK}" fill="${hex}"/>
  ${shadeLayers(HOOD_BACK, hex, ['bodyShade', 'bodyLight'])}
  ${
    view === 'back'
      ? `<g filter="url(#blur5)"><path d="M186 116 C204 128 230 134 250 134 C270 134 296 128 314 116 L314 140 L186 140 Z" ${sh(hex, 0.22)}/>
         <path d="M238 44 C226 70 224 100 230 128 L240 130 C236 100 238 70 246 44 Z" ${hl(hex, 0.1)}/></g>
         <path d="M250 38 C252 70 252 100 250 134" fill="none" stroke="#000" stroke-opacity="${(0.2 * k.shade).toFixed(3)}" stroke-width="0.8" filter="url(#blur2)"/>
         <path d="M251.2 40 C253.2 70 253.2 100 251.2 132" fill="none" stroke="#fff" stroke-opacity="${(0.1 * k.light).toFixed(3)}" stroke-width="0.5"/>`
      : ''
  }
</g>`;

    const hoodFront =
      view === 'back'
        ? ''
        : `<path d="${HOOD_OPENING}" fill="#000" fill-opacity="0.5"/>
         <path d="M212 122 C208 96 224 74 250 72 C276 74 292 96 288 122 C270 110 230 110 212 122 Z" fill="#000" fill-opacity="0.22" filter="url(#blur5)"/>
         <path d="${HOOD_OPENING}" fill="none" stroke="${hex}" stroke-width="7"/>
         <path d="${HOOD_OPENING}" fill="none" stroke="#fff" stroke-opacity="${(0.08 * k.light).toFixed(3)}" stroke-width="7"/>
         <path d="M206 124 C200 92 220 66 250 64 C280 66 300 92 294 124" fill="none" stroke="#fff" stroke-opacity="${(0.16 * k.light).toFixed(3)}" stroke-width="0.8" transform="translate(0 -3.2)"/>
         <path d="M208 128 C220 142 238 152 250 160 C262 152 280 142 292 128 L294 124 C282 140 264 150 250 156 C236 150 218 140 206 124 Z" ${sh(hex, 0.25)} filter="url(#blur2)"/>`;

    const body = `<g clip-path="url(#hoodieBody)">
  <path d="${HOODIE_BODY}" fill="${hex}"/>
  ${shadeLayers(HOODIE_BODY, hex, ['bodyShade', 'bodyLight'])}
  <g filter="url(#blur9)">
    ${fold(hex, 'M150 210 C172 236 186 266 190 300 L180 304 C175 272 164 244 146 222 Z', 'M160 204 C182 230 198 260 202 292 L196 296 C190 266 178 238 156 214 Z')}
    ${fold(hex, mirror('M150 210 C172 236 186 266 190 300 L180 304 C175 272 164 244 146 222 Z'), mirror('M160 204 C182 230 198 260 202 292 L196 296 C190 266 178 238 156 214 Z'), 0.9)}
    ${fold(hex, 'M160 330 C166 370 166 410 160 440 L150 440 C154 410 154 370 150 330 Z', 'M174 330 C180 370 180 410 175 440 L168 440 C172 410 172 370 166 330 Z', 0.8)}
    ${fold(hex, mirror('M160 330 C166 370 166 410 160 440 L150 440 C154 410 154 370 150 330 Z'), mirror('M174 330 C180 370 180 410 175 440 L168 440 C172 410 172 370 166 330 Z'), 0.8)}
    <ellipse cx="250" cy="190" rx="80" ry="26" ${hl(hex, 0.06)}/>
  </g>
  <g filter="url(#blur5)">
    <path d="M200 106 C220 128 280 128 300 106 L300 150 L200 150 Z" ${sh(hex, 0.2)}/>
    <path d="M144 130 C150 200 148 320 144 440 L134 440 L134 130 Z" ${sh(hex, 0.3)}/>
    <path d="M356 130 C350 200 352 320 356 440 L366 440 L366 130 Z" ${sh(hex, 0.32)}/>
  </g>
  ${
    view === 'back'
      ? ''
      : `<g>
    <path d="M182 384 L318 384 C326 404 334 424 340 444 L160 444 C166 424 174 404 182 384 Z" ${hl(hex, 0.03)}/>
    <path d="M182 384 C172 396 164 414 160 444" fill="none" stroke="#000" stroke-opacity="${(0.3 * k.shade).toFixed(3)}" stroke-width="2.4" filter="url(#blur2)"/>
    <path d="M318 384 C328 396 336 414 340 444" fill="none" stroke="#000" stroke-opacity="${(0.3 * k.shade).toFixed(3)}" stroke-width="2.4" filter="url(#blur2)"/>
    <path d="M183.5 385 C174 397 166.5 415 163 444" fill="none" stroke="#fff" stroke-opacity="${(0.12 * k.light).toFixed(3)}" stroke-width="0.6"/>
    <path d="M316.5 385 C326 397 333.5 415 337 444" fill="none" stroke="#fff" stroke-opacity="${(0.12 * k.light).toFixed(3)}" stroke-width="0.6"/>
    <path d="M182 384 L318 384" fill="none" stroke="#000" stroke-opacity="${(0.14 * k.shade).toFixed(3)}" stroke-width="1.6" filter="url(#blur2)"/>
    <path d="M183 386.5 L317 386.5" fill="none" stroke="#000" stroke-opacity="${(0.16 * k.shade).toFixed(3)}" stroke-width="0.4" stroke-dasharray="1.4 1"/>
  </g>`
  }
  <path d="${HOODIE_HEM}" fill="url(#rib)"/>
  <path d="${HOODIE_HEM}" ${sh(hex, 0.06)}/>
  <path d="M134 440 C200 446 300 446 366 440" fill="none" stroke="#000" stroke-opacity="${(0.25 * k.shade).toFixed(3)}" stroke-width="1.6" filter="url(#blur2)"/>
</g>`;

    const sleeve = (d: string, cuff: string, side: 'L' | 'R') => {
      const m = (path: string) => (side === 'L' ? path : mirror(path));
      return `<g clip-path="url(#hoodieSleeve${side})">
  <path d="${d}" fill="${hex}"/>
  ${shadeLayers(d, hex, [side === 'L' ? 'sleeveShadeL' : 'sleeveShadeR', 'bodyLight'])}
  <g filter="url(#blur5)">
    <path d="${m('M122 140 C120 200 120 300 121 420 L128 420 C127 300 127 200 130 140 Z')}" ${hl(hex, 0.09)}/>
    <path d="${m('M108 330 C118 340 130 342 142 336 L142 346 C130 352 118 350 108 342 Z')}" ${sh(hex, 0.16)}/>
    <path d="${m('M108 380 C118 372 130 372 142 380 L142 390 C130 382 118 382 108 390 Z')}" ${sh(hex, 0.14)}/>
  </g>
</g>
<g clip-path="url(#hoodieCuff${side})">
  <path d="${cuff}" fill="${hex}"/>
  ${shadeLayers(cuff, hex, [side === 'L' ? 'sleeveShadeL' : 'sleeveShadeR'])}
  <path d="${cuff}" fill="url(#rib)"/>
  <path d="${m('M107 424 C118 427 130 428 140 426')}" fill="none" stroke="#000" stroke-opacity="${(0.3 * k.shade).toFixed(3)}" stroke-width="1.6" filter="url(#blur2)"/>
</g>`;
    };

    const strings =
      view === 'back'
        ? ''
        : `<circle cx="238" cy="142" r="1.8" fill="#000" fill-opacity="0.45"/><circle cx="262" cy="142" r="1.8" fill="#000" fill-opacity="0.45"/>
           <path d="M238 142 C237 160 236 172 235 186" fill="none" stroke="#000" stroke-opacity="0.16" stroke-width="3.4" transform="translate(1.5 1.5)"/>
           <path d="M262 142 C263 158 264 168 266 182" fill="none" stroke="#000" stroke-opacity="0.16" stroke-width="3.4" transform="translate(1.5 1.5)"/>
           <path d="M238 142 C237 160 236 172 235 186" fill="none" stroke="#e8e5de" stroke-width="2.4" stroke-linecap="round"/>
           <path d="M262 142 C263 158 264 168 266 182" fill="none" stroke="#e8e5de" stroke-width="2.4" stroke-linecap="round"/>
           <path d="M237.4 150 L236.6 182" stroke="#000" stroke-opacity="0.12" stroke-width="0.9"/><path d="M263 150 L265.2 178" stroke="#000" stroke-opacity="0.12" stroke-width="0.9"/>
           <rect x="233.4" y="184" width="3.2" height="8" rx="1.2" fill="#b9b6ae"/><rect x="264.4" y="180" width="3.2" height="8" rx="1.2" fill="#b9b6ae"/>`;

    const hook = lifestyle
      ? `<path d="M250 40 L250 22 C250 12 262 10 264 2" fill="none" stroke="#5f6670" stroke-width="2.6" stroke-linecap="round"/>`
      : '';
    const light = lifestyle
      ? `<linearGradient id="windowLight" x1="0" y1="0" x2="1" y2="0.3">
           <stop offset="0" stop-color="#fff" stop-opacity="0.05"/><stop offset="0.1" stop-color="#fff" stop-opacity="0.2"/>
           <stop offset="0.22" stop-color="#fff" stop-opacity="0.04"/><stop offset="0.34" stop-color="#fff" stop-opacity="0.18"/>
           <stop offset="0.5" stop-color="#fff" stop-opacity="0"/>
         </linearGradient><rect width="400" height="500" fill="url(#windowLight)"/>`
      : '';

    const defs = garmentDefs({
      hoodieBody: HOODIE_BODY,
      hoodieSleeveL: HOODIE_SLEEVE_L,
      hoodieSleeveR: sleeveR,
      hoodieCuffL: HOODIE_CUFF_L,
      hoodieCuffR: cuffR,
      hoodClip: HOOD_BACK,
    });
    const backdrop = lifestyle ? { from: '#eef2f4', to: '#9fb0bd' } : { from: '#fbfbfb', to: '#d3d6da' };
    return svgDoc(
      `${defs}${light}${shadow}${hook}${view === 'back' ? '' : hood}${body}${view === 'back' ? hood : hoodFront}${sleeve(HOODIE_SLEEVE_L, HOODIE_CUFF_L, 'L')}${sleeve(sleeveR, cuffR, 'R')}${strings}`,
      backdrop,
    );
  };
}

/**
 * `accent`, when given, colours the inside and the handle (a white mug with a coloured inside); without it the
 * drawing is exactly the template set's.
 */
export function mug(view: 'right' | 'left' | 'lifestyle') {
  return (color: TMockupColor, accent?: string) => {
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
<path d="${handle}" fill="${accent ?? hex}"/>
<path d="${handle}" fill="#000" fill-opacity="0.18"/>
<path d="M100 62 L100 318 Q200 346 300 318 L300 62 Z" fill="${hex}"/>
<path d="M100 62 L100 318 Q200 346 300 318 L300 62 Z" fill="url(#cylinder)"/>
<ellipse cx="200" cy="62" rx="100" ry="15" fill="${hex}"/>
<ellipse cx="200" cy="62" rx="100" ry="15" fill="#000" fill-opacity="0.1"/>
${accent ? `<ellipse cx="200" cy="64" rx="92" ry="11" fill="${accent}"/>` : ''}
<ellipse cx="200" cy="64" rx="92" ry="11" fill="#000" fill-opacity="${accent ? 0.3 : 0.42}"/>
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
