import { FileText, Palette, Tags, Wand2 } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ActionTileContent, actionTileClass } from './action-tile';

const SHORTCUTS = [
  {
    to: '/create-product',
    title: 'Create a product with AI',
    description: 'From design to listing in one flow',
    icon: Wand2,
  },
  {
    to: '/create-product?step=details',
    title: 'Write a listing',
    description: 'Title and description that sell',
    icon: FileText,
  },
  {
    to: '/create-product?step=details&focus=tags',
    title: 'Suggest tags',
    description: 'Keywords buyers search for',
    icon: Tags,
  },
  {
    // The AI design generator itself (the simple flow's design step only uploads).
    to: '/?tab=ai-generator#design-generator',
    title: 'Generate a design',
    description: 'Typographic and vector artwork',
    icon: Palette,
  },
] as const;

export function AiShortcuts() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>AI Shortcuts</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        {SHORTCUTS.map(({ to, title, description, icon }) => (
          <Link key={to} to={to} className={actionTileClass}>
            <ActionTileContent icon={icon} title={title} description={description} />
          </Link>
        ))}
      </CardContent>
    </Card>
  );
}
