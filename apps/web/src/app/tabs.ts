import {
  Grid3x3,
  Layers,
  LayoutDashboard,
  Link2,
  type LucideIcon,
  Package,
  PlusCircle,
  ShoppingBag,
  Sparkles,
  Upload,
} from 'lucide-react';

/** Sidebar tabs (spec section 2 'Dashboard shell'): ids are part of the URL, so keep them stable. */
export const TABS = [
  { id: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { id: 'create-product', label: 'Create Product', icon: PlusCircle },
  { id: 'upload', label: 'Upload Design', icon: Upload },
  { id: 'products', label: 'Product Picker', icon: Grid3x3 },
  { id: 'ai-generator', label: 'AI Generator', icon: Sparkles },
  { id: 'bulk', label: 'Bulk Create', icon: Layers },
  { id: 'my-products', label: 'My Products', icon: Package },
  { id: 'orders', label: 'Orders', icon: ShoppingBag },
  { id: 'integrations', label: 'Integrations', icon: Link2 },
] as const satisfies readonly { id: string; label: string; icon: LucideIcon }[];

export type TabId = (typeof TABS)[number]['id'];

/** The shell also accepts 'create' for the create-product tab. */
const ALIASES: Record<string, TabId> = { create: 'create-product' };

export function resolveTab(raw: string | null): TabId | null {
  const id = raw ?? 'dashboard';
  if (id in ALIASES) return ALIASES[id] ?? null;
  return TABS.some((t) => t.id === id) ? (id as TabId) : null;
}

/** Tabs with a route of their own keep it; the others live in `/?tab=`. */
export function tabPath(id: TabId): string {
  switch (id) {
    case 'dashboard':
      return '/';
    case 'integrations':
      return '/integrations';
    case 'create-product':
      return '/create-product';
    default:
      return `/?tab=${id}`;
  }
}
