import { DESIGN_AREAS, mockupProductType, printReadiness } from '@podforge/contract/plain';
import { cn } from '@/lib/utils';

const TONES = {
  ready: 'border-green-200 bg-green-50 text-green-800',
  ok: 'border-amber-200 bg-amber-50 text-amber-800',
  low: 'border-red-200 bg-red-50 text-red-800',
} as const;

/**
 * The ready rule at the design's placed size (effective DPI, or print-ready at any size for vector art); the same
 * function answers GET /api/mockups/print-readiness.
 */
export function PrintReadinessBadge(props: {
  productType: string;
  design: { width: number; height: number; vector?: boolean };
  scale: number;
}) {
  const productType = mockupProductType(props.productType);
  const { dpi, level, label, vector } = printReadiness({
    area: DESIGN_AREAS[productType],
    design: props.design,
    scale: props.scale,
    productType,
    vector: props.design.vector,
  });
  return (
    <div
      className={cn('rounded-md border px-3 py-2 text-sm', TONES[level])}
      data-testid="print-readiness"
      data-level={level}
    >
      <span className="font-semibold">{label}</span> ·{' '}
      {vector ? `sharp at any size, drawn at ${dpi} DPI` : `${dpi} DPI at this size`}
    </div>
  );
}
