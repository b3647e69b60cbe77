import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { Loader2, Store } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useIntegrations } from '@/api/integrations/get-integrations';
import { useScheduleUpload } from '@/api/products/schedule-upload';
import { useUploadToStores } from '@/api/products/upload-to-stores';
import { ScheduleTimeFields } from '@/components/schedules/schedule-time-fields';
import { ScheduledUploads } from '@/components/schedules/scheduled-uploads';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { failureDescription } from '@/lib/failure-notice';

/** Spec section 2 'Upload to Stores': the connected stores, picked with checkboxes, pushed now or at a set time. */
export function UploadToStoresStep({ productId, now = () => new Date() }: { productId: string; now?: () => Date }) {
  const integrations = useIntegrations();
  const stores = (integrations.data ?? []).filter((i) => i.kind === 'store' && i.isConnected);
  const [selected, setSelected] = useState<string[]>([]);
  const [scheduling, setScheduling] = useState(false);
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const upload = useUploadToStores(productId);
  const schedule = useScheduleUpload();

  const chosen = stores.filter((s) => selected.includes(s.id));
  const toggle = (id: string) => setSelected((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  const uploadNow = () => {
    if (chosen.length === 0) {
      toast({
        title: 'No Stores Selected',
        description: 'Please select at least one store to upload to.',
        variant: 'destructive',
      });
      return;
    }
    upload.mutate(chosen, {
      onSuccess: (results) => {
        const ok = results.filter((r) => r.ok).length;
        if (ok === 0) {
          toast({
            title: 'Upload Failed',
            description: 'Failed to upload product to stores. Please try again.',
            variant: 'destructive',
          });
          return;
        }
        toast({
          title: 'Upload Complete',
          description: `Product uploaded to ${ok} of ${results.length} stores.`,
          variant: 'success',
        });
        setSelected([]);
      },
      onError: () =>
        toast({
          title: 'Upload Failed',
          description: 'Failed to upload product to stores. Please try again.',
          variant: 'destructive',
        }),
    });
  };

  const scheduleSelected = async () => {
    if (chosen.length === 0 || !date || !time) {
      toast({
        title: 'Missing Information',
        description: 'Please fill in all required fields.',
        variant: 'destructive',
      });
      return;
    }
    if (new Date(`${date}T${time}`).getTime() <= now().getTime()) {
      toast({ title: 'Invalid Date', description: 'Please select a future date and time.', variant: 'destructive' });
      return;
    }
    try {
      for (const store of chosen) {
        await schedule.mutateAsync({
          productId,
          platform: store.platform,
          integrationId: store.id,
          scheduledDate: date,
          scheduledTime: time,
        });
      }
      const platforms = [...new Set(chosen.map((s) => platformLabel(s.platform)))].join(', ');
      toast({
        title: 'Upload Scheduled',
        description: `Product upload to ${platforms} has been scheduled.`,
        variant: 'success',
      });
      setSelected([]);
    } catch (error) {
      toast({
        title: 'Scheduling Failed',
        description: failureDescription('Failed to schedule upload. Please try again.', error),
        variant: 'destructive',
      });
    }
  };

  if (integrations.isPending) {
    return (
      <Card>
        <CardContent className="space-y-3 pt-6" data-testid="stores-loading">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </CardContent>
      </Card>
    );
  }

  if (integrations.isError) {
    return (
      <Card>
        <CardContent className="space-y-3 py-10 text-center">
          <p className="text-sm text-red-600">Your stores could not be loaded: {integrations.error.message}</p>
          <Button variant="outline" onClick={() => integrations.refetch()}>
            Retry
          </Button>
        </CardContent>
      </Card>
    );
  }

  if (stores.length === 0) {
    // The schedules still show: a run that failed because its store was disconnected says so here.
    return (
      <div className="space-y-6">
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
            <Store className="h-10 w-10 text-slate-400" aria-hidden />
            <p className="text-lg font-semibold">No Connected Stores</p>
            <p className="text-sm text-slate-500">Connect your stores in the Integrations tab to upload products.</p>
            <Button asChild>
              <Link to="/integrations">Go to Integrations</Link>
            </Button>
          </CardContent>
        </Card>
        <ScheduledUploads productId={productId} />
      </div>
    );
  }

  const busy = upload.isPending || schedule.isPending;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-row items-center justify-between gap-3">
          <CardTitle className="text-base">Choose stores</CardTitle>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setSelected(stores.map((s) => s.id))}>
              Select All
            </Button>
            <Button size="sm" variant="outline" onClick={() => setSelected([])}>
              Deselect All
            </Button>
          </div>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="space-y-2">
            {stores.map((store: TIntegration) => (
              <li key={store.id}>
                <label className="flex items-center gap-3 rounded-lg border border-slate-200 p-3 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-600"
                    checked={selected.includes(store.id)}
                    onChange={() => toggle(store.id)}
                  />
                  <span className="font-medium">{store.name}</span>
                  <span className="text-slate-500">{platformLabel(store.platform)}</span>
                </label>
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-600" data-testid="stores-selected">
            {chosen.length} of {stores.length} stores selected
          </p>
          <label className="flex items-center gap-3 text-sm font-medium">
            <input
              type="checkbox"
              role="switch"
              aria-checked={scheduling}
              className="h-4 w-4 accent-brand-600"
              checked={scheduling}
              onChange={(e) => setScheduling(e.target.checked)}
            />
            Schedule Upload
          </label>
          {scheduling && (
            <div className="grid gap-3 sm:grid-cols-2">
              <ScheduleTimeFields date={date} time={time} now={now()} onDateChange={setDate} onTimeChange={setTime} />
            </div>
          )}
          <div className="flex justify-end">
            {scheduling ? (
              <Button onClick={scheduleSelected} disabled={chosen.length === 0 || busy}>
                {busy && <Loader2 className="animate-spin" />}
                Schedule Upload
              </Button>
            ) : (
              <Button onClick={uploadNow} disabled={chosen.length === 0 || busy}>
                {busy && <Loader2 className="animate-spin" />}
                Upload Now
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
      <ScheduledUploads productId={productId} />
    </div>
  );
}
