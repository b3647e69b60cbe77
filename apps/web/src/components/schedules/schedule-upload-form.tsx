import type { TIntegration } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { CalendarClock, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useScheduleUpload } from '@/api/products/schedule-upload';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { failureDescription } from '@/lib/failure-notice';
import { ScheduleTimeFields } from './schedule-time-fields';

type Props = {
  productId: string;
  /** The connected stores it may go to (spec: 'a list of platforms'). */
  stores: TIntegration[];
  now?: () => Date;
};

/**
 * Spec section 2 'Schedule Product Upload': store (platform), date (minimum today) and time; 'Missing Information'
 * and 'Invalid Date' before the call, 'Upload Scheduled' after it, 'Scheduling Failed' with the server's reason.
 */
export function ScheduleUploadForm({ productId, stores, now = () => new Date() }: Props) {
  const id = useId();
  const [storeId, setStoreId] = useState(stores[0]?.id ?? '');
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const schedule = useScheduleUpload();
  const store = stores.find((s) => s.id === storeId) ?? null;

  const submit = () => {
    if (!store || !date || !time) {
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
    schedule.mutate(
      { productId, platform: store.platform, integrationId: store.id, scheduledDate: date, scheduledTime: time },
      {
        onSuccess: () => {
          toast({
            title: 'Upload Scheduled',
            description: `Product upload to ${platformLabel(store.platform)} has been scheduled.`,
            variant: 'success',
          });
          setDate('');
          setTime('');
        },
        onError: (error) =>
          toast({
            title: 'Scheduling Failed',
            description: failureDescription('Failed to schedule upload. Please try again.', error),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_10rem_8rem_auto] sm:items-end"
      aria-label="Schedule Product Upload"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-store`}>
        <span>Store</span>
        <NativeSelect id={`${id}-store`} value={storeId} onChange={(e) => setStoreId(e.target.value)}>
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({platformLabel(s.platform)})
            </option>
          ))}
        </NativeSelect>
      </label>
      <ScheduleTimeFields date={date} time={time} now={now()} onDateChange={setDate} onTimeChange={setTime} />
      <Button type="submit" disabled={schedule.isPending}>
        {schedule.isPending ? <Loader2 className="animate-spin" /> : <CalendarClock />}
        Schedule Upload
      </Button>
    </form>
  );
}
