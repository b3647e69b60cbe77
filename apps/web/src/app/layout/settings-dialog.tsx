import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useDashboardStats } from '@/api/dashboard/get-dashboard-stats';
import { AiModelsSummary } from '@/components/ai/ai-model-notice';
import { PricingSettings } from '@/components/pricing/pricing-settings';
import { Button } from '@/components/ui/button';
import { AccountSettings } from '@/features/account/components/account-settings';

type Props = { open: boolean; onClose: () => void };

/** The header's settings and avatar buttons open this: plan, this month's AI credits and where connections live. */
export function SettingsDialog({ open, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const stats = useDashboardStats();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close?.();
  }, [open]);

  const credits = stats.data?.aiCredits;
  return (
    <dialog
      ref={ref}
      aria-labelledby="settings-title"
      onClose={onClose}
      onCancel={onClose}
      className="m-auto max-h-[calc(100vh-2rem)] w-[min(28rem,calc(100vw-2rem))] overflow-y-auto rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex items-center justify-between border-b border-slate-100 px-5 py-4">
        <h2 id="settings-title" className="text-lg font-semibold">
          Workspace settings
        </h2>
        <Button variant="ghost" size="icon" aria-label="Close settings" onClick={onClose}>
          <X />
        </Button>
      </div>
      <div className="space-y-5 px-5 py-4 text-sm">
        <section>
          <h3 className="font-medium text-slate-900">Plan</h3>
          <p className="mt-1 flex items-center gap-1.5 text-slate-600">
            <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden="true" /> Pro Plan
          </p>
        </section>
        <section>
          <h3 className="font-medium text-slate-900">AI credits this month</h3>
          {credits ? (
            <>
              <p className="mt-1 text-slate-600" data-testid="settings-credits">
                {credits.used} of {credits.allowance} used · {credits.remaining} left · resets on{' '}
                {new Date(credits.resetsAt).toLocaleDateString()}
              </p>
              <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100">
                <div
                  className="h-full bg-brand-600"
                  style={{
                    width: `${credits.allowance ? Math.min(100, (credits.used / credits.allowance) * 100) : 100}%`,
                  }}
                />
              </div>
            </>
          ) : (
            <p className="mt-1 text-slate-500">{stats.isLoading ? 'Loading…' : 'Not available right now.'}</p>
          )}
        </section>
        <section>
          <h3 className="font-medium text-slate-900">AI models</h3>
          <AiModelsSummary enabled={open} />
        </section>
        <section>
          <h3 className="font-medium text-slate-900">Pricing</h3>
          <p className="mt-1 text-slate-600">
            The pricing editor warns below the target margin and counts each store's fee in profit and margin.
          </p>
          <PricingSettings enabled={open} />
        </section>
        <section>
          <h3 className="font-medium text-slate-900">Stores and fulfilment</h3>
          <p className="mt-1 text-slate-600">
            Connect Shopify and Printful, and see their status, on the Integrations page.
          </p>
          <Link
            to="/integrations"
            onClick={onClose}
            className="mt-2 inline-block font-medium text-brand-600 hover:underline"
          >
            Manage integrations
          </Link>
        </section>
        <section>
          <h3 className="font-medium text-slate-900">Your workspace</h3>
          <p className="mt-1 text-slate-600">
            Your designs and products are saved in this workspace. Add a passkey to open it from other browsers, and
            invite your team below. Press F8 to jump to notifications.
          </p>
        </section>
        <AccountSettings enabled={open} />
      </div>
    </dialog>
  );
}
