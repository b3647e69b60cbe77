import { Package, PlusCircle, Sparkles, Store } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ActionTileContent, actionTileClass } from './action-tile';

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
        {ACTIONS.map(({ target, title, description, icon }) => (
          <button key={target} type="button" onClick={() => onSelect(target)} className={actionTileClass}>
            <ActionTileContent icon={icon} title={title} description={description} />
          </button>
        ))}
      </CardContent>
    </Card>
  );
}
