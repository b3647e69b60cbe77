import type { TCatalogCategory, TCatalogTemplate } from '@podforge/contract';
import { ChevronRight, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { useCatalogCategories, useSubcategories } from '../api/get-catalog-categories';
import { useCatalogTemplates } from '../api/get-catalog-templates';
import type { WizardUpdate } from '../use-wizard-state';
import { canContinue, WIZARD_PLATFORMS, type WizardState } from '../wizard-state';

type Props = { state: WizardState; update: WizardUpdate; onNext: () => void };

const money = (n: number) => `$${n.toFixed(2)}`;

/** What belongs to one catalogue product: its enabled variants and the renders of its colours. */
const NO_PRODUCT_YET = {
  mockups: [],
  selectedMockupId: null,
  colorMockups: {},
  pricing: { catalogProductId: null, variants: [] },
} satisfies Partial<WizardState>;

/** The categories from the root down to `category`, read from the full list's parent ids. */
function trailTo(category: TCatalogCategory | null, all: TCatalogCategory[]): TCatalogCategory[] {
  const trail: TCatalogCategory[] = [];
  for (let c = category; c && trail.length < 20; c = all.find((x) => x.id === c?.parentId) ?? null) trail.unshift(c);
  return trail;
}

/** Wizard step 1: a store platform, a catalogue category (browsed with a breadcrumb) and one of its templates. */
export function ProductStep({ state, update, onNext }: Props) {
  const category = state.selectedCategory;
  const browsing = state.platform !== null;

  const choosePlatform = (id: (typeof WIZARD_PLATFORMS)[number]['id']) =>
    // Spec section 4: choosing an active platform clears category and template.
    update({ platform: id, selectedCategory: null, selectedTemplate: null, ...NO_PRODUCT_YET });

  const openCategory = (next: TCatalogCategory | null) =>
    update({ selectedCategory: next, selectedTemplate: null, ...NO_PRODUCT_YET });

  const chooseTemplate = (template: TCatalogTemplate) =>
    update({
      selectedTemplate: template,
      // The template is a catalogue product: its variants (and so the renders of its colours) start again.
      ...NO_PRODUCT_YET,
    });

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Platform
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {WIZARD_PLATFORMS.map((p) => (
            <button
              key={p.id}
              type="button"
              disabled={!p.active}
              aria-pressed={state.platform === p.id}
              onClick={() => choosePlatform(p.id)}
              className={cn(
                'flex items-center justify-between rounded-lg border p-4 text-left text-sm font-medium',
                state.platform === p.id ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:bg-slate-50',
                !p.active && 'cursor-not-allowed opacity-60 hover:bg-transparent',
              )}
            >
              <span>{p.label}</span>
              {!p.active && (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
                  Coming Soon
                </span>
              )}
            </button>
          ))}
        </CardContent>
      </Card>

      {browsing ? (
        <CategoryBrowser
          category={category}
          template={state.selectedTemplate}
          onOpen={openCategory}
          onTemplate={chooseTemplate}
          canContinue={canContinue(state, 'product')}
          onNext={onNext}
        />
      ) : (
        <p className="text-sm text-slate-500">Choose a platform to browse the catalogue.</p>
      )}
    </div>
  );
}

function CategoryBrowser({
  category,
  template,
  onOpen,
  onTemplate,
  canContinue: ready,
  onNext,
}: {
  category: TCatalogCategory | null;
  template: TCatalogTemplate | null;
  onOpen: (c: TCatalogCategory | null) => void;
  onTemplate: (t: TCatalogTemplate) => void;
  canContinue: boolean;
  onNext: () => void;
}) {
  const all = useCatalogCategories();
  const sub = useSubcategories(category?.id ?? null);
  const allCategories = all.data ?? [];
  const ids = new Set(allCategories.map((c) => c.id));
  const roots = allCategories.filter((c) => !ids.has(c.parentId));
  const list = category ? sub : all;
  const children = category ? (sub.data ?? []) : roots;
  const isLeaf = category !== null && sub.isSuccess && children.length === 0;
  const trail = trailTo(category, allCategories);

  return (
    <Card>
      <CardHeader className="space-y-3">
        <CardTitle as="h3" className="text-base">
          Category
        </CardTitle>
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm">
            <li>
              {category ? (
                <button type="button" className="text-brand-700 hover:underline" onClick={() => onOpen(null)}>
                  Catalog
                </button>
              ) : (
                <span aria-current="page" className="font-medium">
                  Catalog
                </span>
              )}
            </li>
            {trail.map((c) => (
              <li key={c.id} className="flex items-center gap-1">
                <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden />
                {c.id === category?.id ? (
                  <span aria-current="page" className="font-medium">
                    {c.name}
                  </span>
                ) : (
                  <button type="button" className="text-brand-700 hover:underline" onClick={() => onOpen(c)}>
                    {c.name}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      </CardHeader>
      <CardContent className="space-y-4">
        {list.isPending ? (
          <div className="grid gap-3 sm:grid-cols-3" data-testid="categories-loading">
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
          </div>
        ) : list.isError ? (
          <div className="space-y-3 py-6 text-center" role="alert">
            <p className="text-sm text-red-600">Could not load categories.</p>
            <Button variant="outline" onClick={() => list.refetch()}>
              Retry
            </Button>
          </div>
        ) : children.length === 0 ? (
          <p className="text-sm text-slate-500">No subcategories found.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-3" aria-label="Categories">
            {children.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  onClick={() => onOpen(c)}
                  className="flex w-full items-center gap-3 rounded-lg border border-slate-200 p-3 text-left text-sm font-medium hover:bg-slate-50"
                >
                  {c.image && <img src={c.image} alt="" className="h-12 w-12 rounded object-cover" />}
                  {c.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        {isLeaf && category && <TemplateList categoryId={category.id} chosen={template} onChoose={onTemplate} />}
        {isLeaf && (
          <div className="flex justify-end">
            <Button onClick={onNext} disabled={!ready}>
              Continue to Design
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function TemplateList({
  categoryId,
  chosen,
  onChoose,
}: {
  categoryId: number;
  chosen: TCatalogTemplate | null;
  onChoose: (t: TCatalogTemplate) => void;
}) {
  const templates = useCatalogTemplates(categoryId);
  if (templates.isPending)
    return <Loader2 className="h-5 w-5 animate-spin text-slate-400" aria-label="Loading templates" />;
  if (templates.isError)
    return (
      <div className="space-y-2" role="alert">
        <p className="text-sm text-red-600">Could not load templates: {templates.error.message}</p>
        <Button variant="outline" onClick={() => templates.refetch()}>
          Retry
        </Button>
      </div>
    );
  if (templates.data.length === 0) return <p className="text-sm text-slate-500">No templates in this category.</p>;
  return (
    <section aria-label="Templates" className="space-y-2">
      <h3 className="text-sm font-semibold">Choose a template</h3>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {templates.data.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              aria-pressed={chosen?.id === t.id}
              aria-label={t.name}
              onClick={() => onChoose(t)}
              className={cn(
                'flex h-full w-full flex-col gap-2 rounded-lg border p-3 text-left text-sm',
                chosen?.id === t.id
                  ? 'border-brand-600 ring-2 ring-brand-500/30'
                  : 'border-slate-200 hover:bg-slate-50',
              )}
            >
              {t.imageUrl ? (
                <img src={t.imageUrl} alt="" className="aspect-[4/5] w-full rounded bg-slate-50 object-contain" />
              ) : (
                <span className="flex aspect-[4/5] w-full items-center justify-center rounded bg-slate-100 text-slate-400">
                  No image
                </span>
              )}
              <span className="font-medium">{t.name}</span>
              <span className="line-clamp-2 text-slate-500">{t.description}</span>
              <span className="font-semibold">{money(t.price)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
