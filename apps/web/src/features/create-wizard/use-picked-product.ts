import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useCatalogCategories } from './api/get-catalog-categories';
import { useCatalogTemplates } from './api/get-catalog-templates';
import type { WizardUpdate } from './use-wizard-state';

const positive = (text: string | null) => {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * `/create?product=<catalogue id>&category=<its category id>` (a Product Picker card): the wizard starts on Shopify
 * with that category and that product chosen, read from the same calls the Product step browses with. The query is
 * dropped once applied; an id the catalogue does not have is reported and nothing is chosen.
 */
export function usePickedProduct(update: WizardUpdate) {
  const [params, setParams] = useSearchParams();
  const productId = positive(params.get('product'));
  const categoryId = productId === null ? null : positive(params.get('category'));
  const categories = useCatalogCategories(categoryId !== null);
  const templates = useCatalogTemplates(categoryId);

  const category = categories.data?.find((c) => c.id === categoryId) ?? null;
  const template = templates.data?.find((t) => t.id === productId) ?? null;
  const settled = categoryId !== null && categories.data !== undefined && templates.data !== undefined;

  useEffect(() => {
    if (!settled || !category || !template) return;
    update({
      platform: 'shopify',
      selectedCategory: category,
      selectedTemplate: template,
      mockups: [],
      selectedMockupId: null,
      colorMockups: {},
      pricing: { catalogProductId: null, variants: [] },
    });
    setParams(
      (prev) => {
        prev.delete('product');
        prev.delete('category');
        return prev;
      },
      { replace: true },
    );
  }, [settled, category, template, update, setParams]);

  return {
    loading: categoryId !== null && !settled && !categories.isError && !templates.isError,
    notFound: (settled && (!category || !template)) || categories.isError || templates.isError,
  };
}
