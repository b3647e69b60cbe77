import { FileText, Palette, Tags, Wand2 } from 'lucide-react';
import { Link } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

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
    to: '/create-product?step=design',
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
        {SHORTCUTS.map(({ to, title, description, icon: Icon }) => (
          <Link
            key={to}
            to={to}
            className="flex items-start gap-3 rounded-lg border border-slate-200 p-4 transition-colors hover:border-brand-500 hover:bg-brand-50"
          >
            <Icon className="mt-0.5 h-5 w-5 text-brand-600" aria-hidden="true" />
            <span>
              <span className="block font-medium">{title}</span>
              <span className="block text-sm text-slate-500">{description}</span>
            </span>
          </Link>
        ))}
      </CardContent>
    </Card>
  );
}
