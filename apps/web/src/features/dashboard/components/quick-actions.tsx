import { Package, PlusCircle, Sparkles, Store } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

export type QuickActionTarget = 'upload' | 'ai-generator' | 'my-products' | 'integrations';

const ACTIONS = [
  { target: 'upload', title: 'New Product', description: 'Upload design and create', icon: PlusCircle },
  { target: 'ai-generator', title: 'AI Generator', description: 'Generate titles and descriptions', icon: Sparkles },
  { target: 'my-products', title: 'View Products', description: 'Manage your catalog', icon: Package },
  { target: 'integrations', title: 'Upload to Store', description: 'Push to Shopify/Etsy', icon: Store },
] as const;

export function QuickActions({ onSelect }: { onSelect: (target: QuickActionTarget) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        {ACTIONS.map(({ target, title, description, icon: Icon }) => (
          <button
            key={target}
            type="button"
            onClick={() => onSelect(target)}
            className="flex items-start gap-3 rounded-lg border border-slate-200 p-4 text-left transition-colors hover:border-brand-500 hover:bg-brand-50"
          >
            <Icon className="mt-0.5 h-5 w-5 text-brand-600" aria-hidden="true" />
            <span>
              <span className="block font-medium">{title}</span>
              <span className="block text-sm text-slate-500">{description}</span>
            </span>
          </button>
        ))}
      </CardContent>
    </Card>
  );
}
