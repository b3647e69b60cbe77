/**
 * The look of every text field, number, date and textarea: one place for the border, focus ring and the red border
 * of a field marked `aria-invalid`.
 */
export const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500';
