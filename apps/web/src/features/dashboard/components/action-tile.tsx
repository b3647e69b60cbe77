import type { LucideIcon } from 'lucide-react';

export const actionTileClass =
  'flex items-start gap-3 rounded-lg border border-slate-200 p-4 text-left transition-colors hover:border-brand-500 hover:bg-brand-50';

/** The icon, title and description of a quick action or AI shortcut; the caller supplies the button or link. */
export function ActionTileContent({
  icon: Icon,
  title,
  description,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
}) {
  return (
    <>
      <Icon className="mt-0.5 h-5 w-5 text-brand-600" aria-hidden="true" />
      <span>
        <span className="block font-medium">{title}</span>
        <span className="block text-sm text-slate-500">{description}</span>
      </span>
    </>
  );
}
