import { beforeEach, describe, expect, it } from 'vitest';
import {
  canContinue,
  INITIAL_WIZARD,
  loadWizardState,
  productMockupIds,
  productTypeFor,
  saveWizardState,
  WIZARD_SESSION_KEYS,
  WIZARD_STATE_VERSION,
  WIZARD_STORAGE_KEY,
  type WizardState,
} from './wizard-state';

const category = { id: 2, parentId: 1, name: 'T-Shirts', image: '' };
const template = { id: 71, name: 'Unisex Staple T-Shirt', description: 'Soft', price: 12.5, imageUrl: '/t.png' };
const design = {
  id: 'd1',
  src: '/d1.thumb.png',
  source: 'upload' as const,
  name: 'Sunset',
  url: '/d1.png',
  width: 10,
  height: 10,
};

describe('wizard state', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('saves under its key with version 2 and loads it back; session storage holds platform, category and designs', () => {
    const state: WizardState = {
      ...INITIAL_WIZARD,
      step: 'design',
      platform: 'shopify',
      selectedCategory: category,
      selectedTemplate: template,
      designFiles: [design],
    };
    saveWizardState(state);
    const saved = JSON.parse(localStorage.getItem(WIZARD_STORAGE_KEY) ?? '{}');
    expect(saved).toMatchObject({ version: 2, state: { step: 'design', platform: 'shopify' } });
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.platform)).toBe('shopify');
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryId)).toBe('2');
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryName)).toBe('T-Shirts');
    expect(JSON.parse(sessionStorage.getItem(WIZARD_SESSION_KEYS.designs) ?? '[]')).toEqual([design]);
    expect(loadWizardState()).toEqual(state);
  });

  it('drops a saved state of another version (version 1 had free-text variants) and starts from session storage', () => {
    expect(WIZARD_STATE_VERSION).toBe(2);
    localStorage.setItem(
      WIZARD_STORAGE_KEY,
      JSON.stringify({
        version: 1,
        state: { step: 'pricing', pricing: { variants: [{ option: 'Small', price: 25 }] } },
      }),
    );
    sessionStorage.setItem(WIZARD_SESSION_KEYS.platform, 'shopify');
    sessionStorage.setItem(WIZARD_SESSION_KEYS.categoryId, '2');
    sessionStorage.setItem(WIZARD_SESSION_KEYS.categoryName, 'T-Shirts');
    const state = loadWizardState();
    expect(localStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
    expect(state.step).toBe('product');
    expect(state.platform).toBe('shopify');
    expect(state.selectedCategory).toMatchObject({ id: 2, name: 'T-Shirts' });
    expect(state.selectedTemplate).toBeNull();
  });

  it('each step continues only when its rule holds', () => {
    const s = INITIAL_WIZARD;
    expect(canContinue(s, 'product')).toBe(false);
    expect(canContinue({ ...s, platform: 'shopify', selectedCategory: category }, 'product')).toBe(false);
    expect(
      canContinue({ ...s, platform: 'shopify', selectedCategory: category, selectedTemplate: template }, 'product'),
    ).toBe(true);
    expect(canContinue(s, 'design')).toBe(false);
    expect(canContinue({ ...s, designFiles: [design] }, 'design')).toBe(true);
    const mockup = { id: 'm1', templateId: 't', color: null, url: '/m', previewUrl: '/p', width: 1, height: 1 };
    expect(canContinue({ ...s, mockups: [mockup] }, 'mockups')).toBe(false);
    expect(canContinue({ ...s, mockups: [mockup], selectedMockupId: 'm1' }, 'mockups')).toBe(true);
    expect(canContinue({ ...s, details: { title: 'T', description: '  ', tags: [] } }, 'details')).toBe(false);
    expect(canContinue({ ...s, details: { title: 'T', description: 'D', tags: [] } }, 'details')).toBe(true);
    expect(canContinue(s, 'pricing')).toBe(false);
  });

  it('reads the product type from the category name, then the template name, else t-shirt', () => {
    expect(productTypeFor({ name: 'Unisex Staple T-Shirt | Bella + Canvas 3001' }, { name: 'T-Shirts' })).toBe(
      'tshirt',
    );
    expect(productTypeFor({ name: 'Unisex Staple T-Shirt | Bella + Canvas 3001' }, null)).toBe('tshirt');
    expect(productTypeFor({ name: 'Stainless Steel Tumbler' }, null)).toBe('mug');
    expect(productTypeFor({ name: 'White Glossy Mug' }, null)).toBe('mug');
    expect(productTypeFor({ name: 'Unisex Heavy Blend Hoodie | Gildan 18500' }, null)).toBe('hoodie');
    expect(productTypeFor({ name: 'Canvas (in)' }, { name: 'Posters' })).toBe('poster');
    expect(productTypeFor({ name: 'Tough Case for iPhone®' }, null)).toBe('phone_case');
    expect(productTypeFor({ name: 'Unisex Heavy Cotton Tee' }, { name: 'Hoodies' })).toBe('hoodie');
    expect(productTypeFor({ name: 'Something' }, { name: 'Misc' })).toBe('tshirt');
  });

  it("links the main mockup first, then each offered colour's own, each once", () => {
    const state: WizardState = {
      ...INITIAL_WIZARD,
      selectedMockupId: 'm-black',
      colorMockups: { Black: 'm-black', White: 'm-white', Navy: 'm-navy', Charcoal: 'm-black' },
    };
    expect(productMockupIds(state, ['White', 'Black', 'Charcoal', 'Red'])).toEqual(['m-black', 'm-white']);
    expect(productMockupIds({ ...state, selectedMockupId: null }, ['Navy'])).toEqual(['m-navy']);
  });
});
