import type { TIntegration } from '@podforge/contract';
import {
  platformLabel,
  SCHEDULE_MISSING_MESSAGE,
  SCHEDULE_PAST_MESSAGE,
  scheduleIsPast,
} from '@podforge/contract/plain';
import { useState } from 'react';
import { useScheduleUpload } from '@/api/products/schedule-upload';
import { toast } from '@/components/ui/use-toast';
import { failureDescription } from '@/lib/failure-notice';

/**
 * Spec section 2 'Schedule Product Upload' as both places that schedule use it (the schedule form, the simple flow's
 * Upload to Stores): the date and time, 'Missing Information' and 'Invalid Date' before the call (the contract's
 * rule, which the server applies too), then one schedule per store, 'Upload Scheduled' or 'Scheduling Failed' with the
 * server's reason. `schedule` resolves true once every store is scheduled.
 */
export function useScheduleStores({ productId, now }: { productId: string; now: () => Date }) {
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const mutation = useScheduleUpload();

  const schedule = async (stores: readonly TIntegration[]): Promise<boolean> => {
    if (stores.length === 0 || !date || !time) {
      toast({ title: 'Missing Information', description: SCHEDULE_MISSING_MESSAGE, variant: 'destructive' });
      return false;
    }
    if (scheduleIsPast(new Date(`${date}T${time}`), now())) {
      toast({ title: 'Invalid Date', description: SCHEDULE_PAST_MESSAGE, variant: 'destructive' });
      return false;
    }
    try {
      for (const store of stores) {
        await mutation.mutateAsync({
          productId,
          platform: store.platform,
          integrationId: store.id,
          scheduledDate: date,
          scheduledTime: time,
        });
      }
      const platforms = [...new Set(stores.map((s) => platformLabel(s.platform)))].join(', ');
      toast({
        title: 'Upload Scheduled',
        description: `Product upload to ${platforms} has been scheduled.`,
        variant: 'success',
      });
      return true;
    } catch (error) {
      toast({
        title: 'Scheduling Failed',
        description: failureDescription('Failed to schedule upload. Please try again.', error),
        variant: 'destructive',
      });
      return false;
    }
  };

  return { date, time, setDate, setTime, schedule, isPending: mutation.isPending };
}
