import type { TIntegration } from '@podforge/contract';
import { CalendarClock, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { StoreSelect } from '@/components/stores/store-select';
import { Button } from '@/components/ui/button';
import { ScheduleTimeFields } from './schedule-time-fields';
import { useScheduleStores } from './use-schedule-stores';

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
  const [storeId, setStoreId] = useState(stores[0]?.id ?? '');
  const { date, time, setDate, setTime, schedule, isPending } = useScheduleStores({ productId, now });
  const store = stores.find((s) => s.id === storeId) ?? null;

  const submit = async () => {
    if (await schedule(store ? [store] : [])) {
      setDate('');
      setTime('');
    }
  };

  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_10rem_8rem_auto] sm:items-end"
      aria-label="Schedule Product Upload"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <StoreSelect stores={stores} value={storeId} onChange={setStoreId} className="text-sm" />
      <ScheduleTimeFields date={date} time={time} now={now()} onDateChange={setDate} onTimeChange={setTime} />
      <Button type="submit" disabled={isPending}>
        {isPending ? <Loader2 className="animate-spin" /> : <CalendarClock />}
        Schedule Upload
      </Button>
    </form>
  );
}
