import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useDashboardStats } from '@/api/dashboard/get-dashboard-stats';
import { AiModelNotice } from '@/components/ai/ai-model-notice';
import { ContentGenerator } from './content-generator';
import { DesignGenerator } from './design-generator';
import { QuickHelpers } from './quick-helpers';
import { RecentGenerations } from './recent-generations';

/** Spec section 2 'AI Generator (full page)', with the AI design generator and the quick helpers of section 7. */
export function AiGeneratorScreen() {
  const stats = useDashboardStats();
  const credits = stats.data?.aiCredits;
  const { hash } = useLocation();

  // The dashboard's shortcuts open a section: '#design-generator' (Generate a design), '#content-generator' (Write a
  // listing without a design). It is scrolled to and its first field focused.
  useEffect(() => {
    if (hash !== '#design-generator' && hash !== '#content-generator') return;
    const section = document.getElementById(hash.slice(1));
    section?.scrollIntoView?.({ block: 'start' });
    section?.querySelector<HTMLElement>('textarea, input')?.focus();
  }, [hash]);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold tracking-tight">AI Generator</h1>
          <p className="text-slate-500">Generate titles, descriptions, tags and designs that sell.</p>
        </div>
        {credits && (
          <p className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700" data-testid="ai-credits">
            {credits.remaining} of {credits.allowance} AI credits left this month
          </p>
        )}
      </div>
      <AiModelNotice />
      <section id="content-generator" aria-label="Listing from keywords">
        <ContentGenerator />
      </section>
      <section id="design-generator" aria-label="AI design generator">
        <DesignGenerator />
      </section>
      <div className="grid gap-6 xl:grid-cols-2">
        <QuickHelpers />
        <RecentGenerations />
      </div>
    </div>
  );
}
