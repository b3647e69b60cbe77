import type {
  TCatalogCategory,
  TCatalogTemplate,
  TFulfilmentNetwork,
  TMockup,
  TProductType,
  TStorePlatform,
  TVariantChoice,
} from '@podforge/contract';
import { CONNECTABLE_STORE_PLATFORMS, platformLabel, STORE_PLATFORMS } from '@podforge/contract/plain';
import type { WizardStepId } from './wizard-steps';

/**
 * Spec section 3 'Wizard state': saved in local storage under this key, with this version. Version 2: variants are
 * catalogue variants (`{ catalogVariantId, price }`) of the template's catalogue product, and mockups are kept per
 * colour; a version 1 state (free-text variants) is dropped.
 */
export const WIZARD_STORAGE_KEY = 'podforge.create-wizard';
export const WIZARD_STATE_VERSION = 2;

/** Spec section 3: session storage holds these apart from the saved state. */
export const WIZARD_SESSION_KEYS = {
  platform: 'podforge.create-wizard.platform',
  categoryId: 'podforge.create-wizard.categoryId',
  categoryName: 'podforge.create-wizard.categoryName',
  designs: 'podforge.create-wizard.designs',
} as const;

/** Spec section 3 'Design item' (src, source, id) plus what the mockup editor and the listing need of it. */
export type WizardDesign = {
  id: string;
  src: string;
  source: 'upload' | 'ai';
  name: string;
  url: string;
  width: number;
  height: number;
};

export type WizardDetails = { title: string; description: string; tags: string[] };

export type WizardState = {
  step: WizardStepId;
  platform: TStorePlatform | null;
  selectedCategory: TCatalogCategory | null;
  selectedTemplate: TCatalogTemplate | null;
  designFiles: WizardDesign[];
  mockups: TMockup[];
  /** The rendered mockup the seller picked: the product's main image. */
  selectedMockupId: string | null;
  /** Each offered catalogue colour's mockup (colour name -> mockup id), from the last render. */
  colorMockups: Record<string, string>;
  /**
   * The product an Upload Product attempt created, kept across reloads: a retry after a failed store push updates
   * and pushes it again rather than creating a second product.
   */
  createdProductId: string | null;
  details: WizardDetails;
  /**
   * The enabled variants of the template's catalogue product (the template id is the catalogue product id) with
   * their prices. `catalogProductId` says which product they belong to: null until its defaults are set.
   */
  pricing: { catalogProductId: number | null; variants: TVariantChoice[] };
  /**
   * Another printer than Printful, and its catalogue product the design is printed on (the template stays the
   * mockups'); absent: the template's Printful product.
   */
  printer?: { provider: TFulfilmentNetwork; productId: number | null };
};

/** The printer network and its catalogue product the wizard's product is made on. */
export const wizardPrinter = (state: Pick<WizardState, 'printer' | 'selectedTemplate'>) =>
  state.printer && state.printer.provider !== 'printful'
    ? { provider: state.printer.provider, productId: state.printer.productId }
    : { provider: 'printful' as const, productId: state.selectedTemplate?.id ?? null };

export const INITIAL_WIZARD: WizardState = {
  step: 'product',
  platform: null,
  selectedCategory: null,
  selectedTemplate: null,
  designFiles: [],
  mockups: [],
  selectedMockupId: null,
  colorMockups: {},
  createdProductId: null,
  details: { title: '', description: '', tags: [] },
  pricing: { catalogProductId: null, variants: [] },
};

/** Store platforms the wizard offers (every connectable one). */
export const WIZARD_PLATFORMS: { id: TStorePlatform; label: string; active: boolean }[] = STORE_PLATFORMS.map((id) => ({
  id,
  label: platformLabel(id),
  active: (CONNECTABLE_STORE_PLATFORMS as readonly string[]).includes(id),
}));

type Saved = { version: number; state: WizardState };

function readSession(): Partial<WizardState> {
  try {
    const platform = sessionStorage.getItem(WIZARD_SESSION_KEYS.platform);
    const categoryId = sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryId);
    const categoryName = sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryName);
    const designs = sessionStorage.getItem(WIZARD_SESSION_KEYS.designs);
    const found = WIZARD_PLATFORMS.find((p) => p.id === platform && p.active);
    return {
      platform: found?.id ?? null,
      selectedCategory:
        categoryId && categoryName ? { id: Number(categoryId), parentId: 0, name: categoryName, image: '' } : null,
      designFiles: designs ? (JSON.parse(designs) as WizardDesign[]) : [],
    };
  } catch {
    return {};
  }
}

/**
 * The saved state when it is the current version; anything else (older, newer, broken) is dropped, and what session storage
 * still holds for this tab (platform, category, designs) seeds a fresh state.
 */
export function loadWizardState(): WizardState {
  try {
    const raw = localStorage.getItem(WIZARD_STORAGE_KEY);
    if (raw) {
      const saved = JSON.parse(raw) as Saved;
      if (saved?.version === WIZARD_STATE_VERSION && saved.state) return { ...INITIAL_WIZARD, ...saved.state };
      localStorage.removeItem(WIZARD_STORAGE_KEY);
    }
  } catch {
    // Unreadable: start again.
  }
  return { ...INITIAL_WIZARD, ...readSession() };
}

export function saveWizardState(state: WizardState) {
  try {
    localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ version: WIZARD_STATE_VERSION, state } satisfies Saved));
    const session: [string, string | null][] = [
      [WIZARD_SESSION_KEYS.platform, state.platform],
      [WIZARD_SESSION_KEYS.categoryId, state.selectedCategory ? String(state.selectedCategory.id) : null],
      [WIZARD_SESSION_KEYS.categoryName, state.selectedCategory?.name ?? null],
      [WIZARD_SESSION_KEYS.designs, state.designFiles.length ? JSON.stringify(state.designFiles) : null],
    ];
    for (const [key, value] of session) {
      if (value === null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, value);
    }
  } catch {
    // Storage full or disabled: the wizard still works for this visit.
  }
}

export function clearWizardStorage() {
  try {
    localStorage.removeItem(WIZARD_STORAGE_KEY);
    for (const key of Object.values(WIZARD_SESSION_KEYS)) sessionStorage.removeItem(key);
  } catch {
    // Nothing to clear.
  }
}

export const selectedMockup = (state: WizardState): TMockup | null =>
  state.mockups.find((m) => m.id === state.selectedMockupId) ?? null;

/** Spec section 5 'Wizard': what each step needs before its Continue is enabled. */
export function canContinue(state: WizardState, step: WizardStepId): boolean {
  switch (step) {
    case 'product':
      return Boolean(state.platform && state.selectedCategory && state.selectedTemplate);
    case 'design':
      return state.designFiles.length > 0;
    case 'mockups':
      return selectedMockup(state) !== null;
    case 'details':
      return state.details.title.trim() !== '' && state.details.description.trim() !== '';
    case 'pricing':
      return state.pricing.variants.length > 0;
  }
}

const TYPE_WORDS: [RegExp, TProductType][] = [
  [/hoodie|sweatshirt/i, 'hoodie'],
  [/mug|tumbler/i, 'mug'],
  // Before posters: garment names carry brands such as 'Bella + Canvas'.
  [/t-shirt|\btees?\b|shirt|crew neck/i, 'tshirt'],
  [/poster|canvas|print/i, 'poster'],
  [/phone|case/i, 'phone_case'],
  [/tote|bag/i, 'tote'],
  [/sticker|magnet/i, 'sticker'],
];

const typeIn = (text: string | undefined) => (text ? TYPE_WORDS.find(([re]) => re.test(text))?.[1] : undefined);

/**
 * The product type of a catalogue template: catalogue templates carry only a name, so it is read from the
 * category's name (the catalogue's kinds: 'T-Shirts', 'Mugs'...), then from the template's; t-shirt when neither
 * says (the mockup sets fall back to t-shirt too).
 */
export function productTypeFor(
  template: Pick<TCatalogTemplate, 'name'> | null,
  category: Pick<TCatalogCategory, 'name'> | null,
): TProductType {
  return typeIn(category?.name) ?? typeIn(template?.name) ?? 'tshirt';
}

/**
 * The mockups a product made in the wizard links: the main one first, then each offered colour's own (each once).
 */
export function productMockupIds(state: WizardState, colors: readonly string[]): string[] {
  const ids = [state.selectedMockupId, ...colors.map((c) => state.colorMockups[c])];
  return [...new Set(ids.filter((id): id is string => Boolean(id)))];
}
