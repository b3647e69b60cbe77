import { beforeEach, describe, expect, it } from 'vitest';
import {
  canContinue,
  INITIAL_WIZARD,
  loadWizardState,
  parsePrice,
  productTypeFor,
  saveWizardState,
  WIZARD_SESSION_KEYS,
  WIZARD_STORAGE_KEY,
  type WizardState,
  wizardDefaultVariants,
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

  it('saves under its key with version 1 and loads it back; session storage holds platform, category and designs', () => {
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
    expect(saved).toMatchObject({ version: 1, state: { step: 'design', platform: 'shopify' } });
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.platform)).toBe('shopify');
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryId)).toBe('2');
    expect(sessionStorage.getItem(WIZARD_SESSION_KEYS.categoryName)).toBe('T-Shirts');
    expect(JSON.parse(sessionStorage.getItem(WIZARD_SESSION_KEYS.designs) ?? '[]')).toEqual([design]);
    expect(loadWizardState()).toEqual(state);
  });

  it('drops a saved state of another version and starts from what session storage holds', () => {
    localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ version: 0, state: { step: 'pricing' } }));
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

  it('seeds the default variants at the template price (25 without one) and parses prices', () => {
    expect(wizardDefaultVariants(template)).toEqual([
      { option: 'Small', price: 12.5, sku: 'S' },
      { option: 'Medium', price: 12.5, sku: 'M' },
      { option: 'Large', price: 12.5, sku: 'L' },
      { option: 'Extra Large', price: 14.5, sku: 'XL' },
    ]);
    expect(wizardDefaultVariants(null)[0]?.price).toBe(25);
    expect(parsePrice('19.99')).toBe(19.99);
    expect(parsePrice('abc')).toBe(0);
    expect(parsePrice('')).toBe(0);
  });
});
