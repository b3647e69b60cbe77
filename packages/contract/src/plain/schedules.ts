/** Spec section 8 'Schedule': a scheduled upload needs a store, a date and a time. */
export const SCHEDULE_MISSING_MESSAGE = 'Please fill in all required fields.';
export const SCHEDULE_PAST_MESSAGE = 'Please select a future date and time.';

/**
 * A scheduled upload must run after now: the server refuses one that would not (400, SCHEDULE_PAST_MESSAGE) and the
 * browser says so before sending it. (How far ahead one may go is the server's own limit.)
 */
export const scheduleIsPast = (runAt: Date, now: Date) => runAt.getTime() <= now.getTime();
