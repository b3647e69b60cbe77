import { inputClass } from '@/components/ui/input';
import { todayInputValue } from '@/lib/schedules';

/** The Date and Time inputs of a scheduled upload (the schedule dialog and Create Product's Upload to Stores step). */
export function ScheduleTimeFields({
  date,
  time,
  now,
  onDateChange,
  onTimeChange,
}: {
  date: string;
  time: string;
  now: Date;
  onDateChange: (date: string) => void;
  onTimeChange: (time: string) => void;
}) {
  return (
    <>
      <label className="block space-y-1 text-sm font-medium">
        <span>Date</span>
        <input
          type="date"
          className={inputClass}
          min={todayInputValue(now)}
          value={date}
          onChange={(e) => onDateChange(e.target.value)}
        />
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Time</span>
        <input type="time" className={inputClass} value={time} onChange={(e) => onTimeChange(e.target.value)} />
      </label>
    </>
  );
}
