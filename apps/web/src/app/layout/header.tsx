import { Settings, UserCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export function Header({ onOpenSettings }: { onOpenSettings: () => void }) {
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center justify-between border-b border-slate-200 bg-white px-4 md:px-6">
      <Link to="/" className="flex items-center gap-3">
        <img src="/favicon.svg" alt="Podforge logo" className="h-8 w-8" />
        <span className="text-lg font-bold tracking-tight">Podforge</span>
        <span className="hidden rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700 sm:inline">
          AI Product Designer
        </span>
      </Link>
      <div className="flex items-center gap-3">
        <span className="flex items-center gap-1.5 text-sm font-medium text-slate-700">
          <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden="true" />
          Pro Plan
        </span>
        <Button variant="ghost" size="icon" aria-label="Settings" onClick={onOpenSettings}>
          <Settings />
        </Button>
        <Button variant="ghost" size="icon" aria-label="Account" onClick={onOpenSettings}>
          <UserCircle2 />
        </Button>
      </div>
    </header>
  );
}
