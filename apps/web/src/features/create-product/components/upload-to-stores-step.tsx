import { Loader2, Store } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { useUploadToStores } from '@/api/products/upload-to-stores';
import { ScheduleSwitch } from '@/components/schedules/schedule-switch';
import { ScheduleTimeFields } from '@/components/schedules/schedule-time-fields';
import { ScheduledUploads } from '@/components/schedules/scheduled-uploads';
import { useScheduleStores } from '@/components/schedules/use-schedule-stores';
import { StorePicker } from '@/components/stores/store-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';

/** Spec section 2 'Upload to Stores': the connected stores, picked with checkboxes, pushed now or at a set time. */
export function UploadToStoresStep({ productId, now = () => new Date() }: { productId: string; now?: () => Date }) {
  const integrations = useConnectedStores();
  const { stores } = integrations;
  const [selected, setSelected] = useState<string[]>([]);
  const [scheduling, setScheduling] = useState(false);
  const upload = useUploadToStores(productId);
  const schedule = useScheduleStores({ productId, now });

  const chosen = stores.filter((s) => selected.includes(s.id));

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
        // Pushes waiting for a store's spent request limit are not failed: they resume by themselves.
        const waiting = results.flatMap((r) => (r.waiting ? [r.waiting] : []));
        if (waiting.length > 0) {
          toast({
            title: 'Upload Waiting',
            description: `Product uploaded to ${ok} of ${results.length} stores. ${waiting.join(' ')}`,
          });
          setSelected([]);
          return;
        }
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
    if (await schedule.schedule(chosen)) setSelected([]);
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
          <StorePicker stores={stores} selected={selected} onChange={setSelected} />
          <p className="text-sm text-slate-600" data-testid="stores-selected">
            {chosen.length} of {stores.length} stores selected
          </p>
          <ScheduleSwitch checked={scheduling} onChange={setScheduling} label="Schedule Upload" />
          {scheduling && (
            <div className="grid gap-3 sm:grid-cols-2">
              <ScheduleTimeFields
                date={schedule.date}
                time={schedule.time}
                now={now()}
                onDateChange={schedule.setDate}
                onTimeChange={schedule.setTime}
              />
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
