import type { TAiProductType, TCatalogProduct } from '@podforge/contract';
import { shortenAtWord } from './marketplace-rules';
import { composeDesignSvg } from './offline-designs';
import {
  type AiProvider,
  AiProviderError,
  type ContentDraft,
  type ContentRequest,
  type DesignRequest,
  type GeneratedImage,
  type ImageInput,
  type ListingFacts,
} from './provider';
import { hashText, keywordsOf, listInProse, pick, seededRandom, sentence, titleCase } from './words';

const APPAREL: readonly TAiProductType[] = ['tshirt', 'hoodie'];

/** Longest design name a title starts with (Etsy allows 140 characters in all). */
const MAX_SUBJECT = 80;

/** The word a shopper searches for, and two more they use for the same thing. */
const TAG_NOUN: Record<TAiProductType, string> = {
  tshirt: 't-shirt',
  hoodie: 'hoodie',
  mug: 'mug',
  poster: 'poster',
  sticker: 'sticker',
  tote: 'tote bag',
  phone_case: 'phone case',
};
const SYNONYMS: Record<TAiProductType, readonly string[]> = {
  tshirt: ['graphic tee', 'tshirt'],
  hoodie: ['pullover hoodie', 'sweatshirt'],
  mug: ['coffee mug', 'tea mug'],
  poster: ['wall art', 'art print'],
  sticker: ['vinyl sticker', 'laptop sticker'],
  tote: ['canvas bag', 'shopping bag'],
  phone_case: ['phone cover', 'custom phone case'],
};
/** The first synonym as a title writes it. */
const TITLE_SYNONYM: Record<TAiProductType, string> = {
  tshirt: 'Graphic Tee',
  hoodie: 'Pullover Hoodie',
  mug: 'Coffee Mug',
  poster: 'Wall Art',
  sticker: 'Vinyl Sticker',
  tote: 'Canvas Bag',
  phone_case: 'Phone Cover',
};

/** Materials named in catalogue descriptions, most specific first. */
const MATERIALS = [
  'organic cotton',
  'ring-spun cotton',
  'ceramic',
  'stainless steel',
  'enamel',
  'vinyl',
  'fleece',
  'cotton',
  'matte paper',
  'photo paper',
  'canvas',
  'polycarbonate',
  'tpu',
  'polyester',
];

const SIMPLE_AUDIENCE_NOUN: Record<string, string | null> = {
  men: 'Men',
  women: 'Women',
  kids: 'Kids',
  teens: 'Teens',
  adults: 'Adults',
  unisex: null,
};

/** 'Women', 'Cat Lovers' (the full page's own words) or null for everyone. */
function audienceNoun(audience: string): string | null {
  const a = audience.trim();
  if (!a) return null;
  if (a.toLowerCase() in SIMPLE_AUDIENCE_NOUN) return SIMPLE_AUDIENCE_NOUN[a.toLowerCase()] ?? null;
  return titleCase(a);
}

export function materialOf(product: TCatalogProduct | null): string | null {
  if (!product) return null;
  const text = `${product.name} ${product.description}`.toLowerCase();
  return MATERIALS.find((m) => text.includes(m)) ?? null;
}

/** 'Unisex Heavy Cotton Tee (Gildan 5000)' or, for Printful's own products, 'White Glossy Mug'. */
function productIdentity(product: TCatalogProduct): string {
  // Catalogue names carry a unit marker, 'Enhanced Matte Paper Poster (in)', that means nothing to a buyer.
  const name = (product.name.split('|')[0] ?? product.name).replace(/\s*\((in|cm)\)\s*$/, '').trim();
  return product.brand === 'Printful' ? name : `${name} (${product.brand} ${product.model})`;
}

const TECHNIQUE_NOTE: Record<string, string> = {
  dtg: 'The design is printed direct-to-garment: the ink goes into the fabric, so the print stays soft and breathable.',
  sublimation: 'The design is sublimation printed: the ink is fused into the surface, so it does not peel or crack.',
  digital: 'The design is digitally printed in full colour with fade-resistant inks.',
  uv: 'The design is UV printed for sharp colour that stands up to daily handling.',
  embroidery: 'The design is embroidered, stitch by stitch.',
};

function availability(type: TAiProductType, facts: ListingFacts): string {
  const sizes = facts.variants.find((v) => v.name === 'Size' || v.name === 'Model')?.options ?? [];
  const colours = facts.variants.find((v) => v.name === 'Color')?.options ?? [];
  const parts: string[] = [];
  if (type === 'phone_case' && sizes.length) parts.push(`Made for the ${listInProse(sizes)}`);
  else if (APPAREL.includes(type) && sizes.length > 2) {
    parts.push(`Available in sizes ${sizes[0]} to ${sizes[sizes.length - 1]}`);
  } else if (sizes.length > 1) parts.push(`Available in ${listInProse(sizes)}`);
  else if (sizes.length === 1) parts.push(`Size: ${sizes[0]}`);
  if (colours.length) {
    const colourText = `${listInProse(colours.map((c) => c.toLowerCase()))}`;
    parts.push(parts.length ? `in ${colourText}` : `Available in ${colourText}`);
  }
  return parts.length ? `${parts.join(' ')}.` : '';
}

function careNote(type: TAiProductType, product: TCatalogProduct | null): string {
  const name = product?.name.toLowerCase() ?? '';
  switch (type) {
    case 'tshirt':
    case 'hoodie':
      return 'Care: machine wash cold, inside out, on a gentle cycle; tumble dry low or hang dry. Do not bleach, iron over the print or dry clean.';
    case 'mug':
      return /steel|enamel|travel|tumbler/.test(name)
        ? 'Care: hand wash; not for the microwave.'
        : 'Care: hand washing keeps the print bright longest.';
    case 'poster':
      return `Care: keep out of direct sunlight and damp rooms so the colours stay true.${
        /framed|canvas/.test(name) ? '' : ' The frame is not included.'
      }`;
    case 'sticker':
      return 'To apply: clean and dry a smooth surface, then press the sticker down firmly from the centre out.';
    case 'tote':
      return 'Care: spot clean, or hand wash cold and hang to dry; do not iron over the print.';
    case 'phone_case':
      return 'Care: wipe clean with a soft, damp cloth.';
  }
}

/**
 * The built-in writer: listing text from the request, the catalogue product's real facts and plain templates.
 * No model is involved; creativity and the seed choose among wordings, so the same input gives the same text.
 */
export class OfflineAiProvider implements AiProvider {
  readonly name = 'offline';

  async generateContent(request: ContentRequest, facts: ListingFacts): Promise<ContentDraft> {
    return writeListing(request, facts);
  }

  /**
   * No model looks at the picture here: the listing is written from what was read from it (colours, background,
   * proportions, the garments it suits) and the file's own words, and its colours become tags.
   */
  async analyzeImage(request: ContentRequest, image: ImageInput, facts: ListingFacts): Promise<ContentDraft> {
    const { analysis } = image;
    const colours = analysis.colors.map((c) => c.name);
    const subject = request.subject || titleCase(`${colours.slice(0, 2).join(' and ') || 'original'} graphic`);
    const draft = writeListing({ ...request, subject }, facts);
    const noun = TAG_NOUN[request.productType];
    const extra = [
      ...colours.slice(0, 3).map((c) => `${c} ${noun}`),
      analysis.garmentFit === 'dark' ? `dark ${noun}` : analysis.garmentFit === 'light' ? `light ${noun}` : '',
    ].filter((t) => t && !draft.tags.includes(t));
    // The colours go near the front: a marketplace keeps only the first tags (Etsy 13).
    const tags = [...draft.tags.slice(0, 2), ...extra, ...draft.tags.slice(2)];
    return { ...draft, tags: request.generateTags ? tags : [] };
  }

  /** Typographic and vector artwork (offline-designs.ts); a photo-style image needs a real image model. */
  async generateDesigns(request: DesignRequest): Promise<GeneratedImage[]> {
    if (request.style === 'photo') {
      throw new AiProviderError(
        'UNSUPPORTED',
        'The built-in offline generator makes typographic and vector designs only; photo-style images need an image model. Set OPENAI_API_KEY to generate them.',
      );
    }
    return Array.from({ length: request.n }, (_, i) => ({
      format: 'svg' as const,
      data: Buffer.from(composeDesignSvg(request, i), 'utf8'),
    }));
  }
}

export function writeListing(request: ContentRequest, facts: ListingFacts): ContentDraft {
  const { productType: type, creativity } = request;
  const random = seededRandom(
    hashText(
      JSON.stringify([request.subject, request.keywords, request.details, type, request.audience, request.style]),
    ) ^ request.seed,
  );
  const choose = <T>(options: readonly T[]) => pick(options, random, creativity);

  // A long design name is cut, so the product and audience still fit in a marketplace's title.
  const subject =
    shortenAtWord(request.subject, MAX_SUBJECT) ||
    titleCase(
      keywordsOf([...request.keywords, request.details].join(' '))
        .slice(0, 3)
        .join(' '),
    ) ||
    'Original Artwork';
  const product = facts.product;
  const label = facts.productLabel;
  const lowerLabel = label.toLowerCase();
  const noun = audienceNoun(request.audience);
  const isApparel = APPAREL.includes(type);
  const unisex = isApparel && noun === null;
  const style = request.style ? titleCase(request.style) : '';
  const forWho = noun ? ` for ${noun}` : '';
  const material = materialOf(product);

  // Title.
  const plainLabel = `${unisex ? 'Unisex ' : ''}${label}`;
  const titles = [
    `${subject} ${plainLabel}${forWho}`,
    `${style ? `${style} ` : ''}${subject} ${plainLabel}${forWho}`,
    `${subject} ${label} – ${style ? `${style} ` : ''}Gift${noun ? forWho : ' Idea'}`,
    `${subject}: ${style ? `${style} ` : ''}${material ? `${titleCase(material)} ` : ''}${label}${forWho}`,
  ];
  let title = choose(titles);
  if (request.includeSEO) {
    const extras = [TITLE_SYNONYM[type], ...request.keywords.slice(1).map(titleCase)];
    const fresh = extras.filter((e) => e && !title.toLowerCase().includes(e.toLowerCase()));
    if (fresh.length) title = `${title} | ${fresh.join(', ')}`;
  }

  // Description: the design, the product, the print and its care, and (for search) who it suits.
  const inStyle = style ? ` in a ${style.toLowerCase()} style` : '';
  const forWhoLower = noun ? ` for ${noun.toLowerCase()}` : '';
  const intro = choose([
    `The ${subject} design on a ${lowerLabel}${forWhoLower}${inStyle}.`,
    `This ${lowerLabel} carries the ${subject} design${inStyle}.`,
    `Meet ${subject}: a design made for a ${lowerLabel}${forWhoLower}${inStyle}.`,
    `${subject}${inStyle}, printed on a ${lowerLabel} that is made to be used every day.`,
  ]);
  const themes = request.keywords.length > 1 ? `It brings together ${listInProse(request.keywords)}.` : '';
  const first = [intro, request.details ? sentence(request.details) : '', themes].filter(Boolean).join(' ');

  const productParagraph = product
    ? [
        `Printed on the ${productIdentity(product)}: ${product.description.charAt(0).toLowerCase()}${product.description.slice(1)}`,
        availability(type, facts),
      ]
        .filter(Boolean)
        .join(' ')
    : `Each ${lowerLabel} is made to order.`;

  const technique = product?.printAreas[0]?.technique ?? '';
  const printParagraph = [
    TECHNIQUE_NOTE[technique] ?? '',
    'Each piece is printed when it is ordered, so nothing is overproduced; allow a few days for printing before it ships.',
    careNote(type, product),
  ]
    .filter(Boolean)
    .join(' ');

  const topics = request.keywords.length ? listInProse(request.keywords.map((k) => k.toLowerCase())) : '';
  const who = noun ? noun.toLowerCase() : 'anyone';
  const seoParagraph = request.includeSEO
    ? choose([
        `A thoughtful gift for ${who}${topics ? ` who love${noun ? '' : 's'} ${topics}` : ''}.`,
        `An easy pick for birthdays and holidays, for ${who}${topics ? ` into ${topics}` : ''}.`,
        noun || topics
          ? `Give it to ${who}${topics ? ` who can't get enough of ${topics}` : ''}, or keep it for yourself.`
          : 'Give it as a gift, or keep it for yourself.',
      ])
    : '';

  const description = [first, productParagraph, printParagraph, seoParagraph].filter(Boolean).join('\n\n');

  return { title, description, tags: request.generateTags ? tagsFor(request, subject, noun, style, material) : [] };
}

function tagsFor(
  request: ContentRequest,
  subject: string,
  noun: string | null,
  style: string,
  material: string | null,
): string[] {
  const type = request.productType;
  const tagNoun = TAG_NOUN[type];
  const subjectWords = keywordsOf(subject);
  const lastWord = subjectWords[subjectWords.length - 1];
  const kind = request.audience.toLowerCase();
  const cut = ({ kids: 'kids', men: 'mens', women: 'womens' } as Record<string, string>)[kind];
  const audienceTag = cut
    ? `${cut} ${tagNoun}`
    : kind === 'unisex' && APPAREL.includes(type)
      ? `unisex ${tagNoun}`
      : noun
        ? `gift for ${noun.toLowerCase()}`
        : '';
  const tags = [
    subject.toLowerCase(),
    lastWord ? `${lastWord} ${tagNoun}` : '',
    ...request.keywords.map((k) => k.toLowerCase()),
    tagNoun,
    ...SYNONYMS[type],
    audienceTag,
    style.toLowerCase(),
    ...subjectWords,
    ...keywordsOf(request.details).slice(0, 4),
    material ? `${material} ${tagNoun}` : '',
    'gift idea',
  ];
  const seen = new Set<string>();
  return tags.filter((t) => {
    const tag = t.trim();
    if (!tag || seen.has(tag)) return false;
    seen.add(tag);
    return true;
  });
}
