import type { MockupAdjustments, TMockupTemplate } from '@podforge/contract';
import {
  ADJUSTMENT_LIMITS,
  computePlacement,
  DEFAULT_ADJUSTMENTS,
  drawPlacement,
  MOCKUP_CANVAS,
} from '@podforge/contract/plain';
import { Download, RotateCcw } from 'lucide-react';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { useMockupTemplates } from '@/api/mockups/get-mockup-templates';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { nearestColor } from '@/lib/colors';
import { PrintReadinessBadge } from './print-readiness-badge';
import { useLoadedImage } from './use-loaded-image';

export type MockupDesignSource = { url: string; width: number; height: number; name?: string; vector?: boolean };

export type MockupSelection = { templateId: string; color: string; adjustments: MockupAdjustments };

type Props = {
  productType: string;
  design: MockupDesignSource | null;
  onChange?: (selection: MockupSelection) => void;
  /** The picked server render (2000x2500), offered next to the canvas download; null before one is rendered. */
  fullSize?: { url: string; width: number; height: number } | null;
  /**
   * The blank's catalogue colours: the Colour choice offers only these, by their catalogue names, each drawn in the
   * template colour nearest its hex. Without them, the template's own colours.
   */
  colors?: readonly { name: string; hex: string }[];
};

/** The colours the Colour choice offers: the blank's (each with its nearest template colour) or the template's. */
function colourChoices(
  template: TMockupTemplate | null,
  colors: readonly { name: string; hex: string }[] | undefined,
): { value: string; name: string; templateColor: string }[] {
  if (!template) return [];
  if (!colors || colors.length === 0) {
    return template.colors.map((c) => ({ value: c.id, name: c.name, templateColor: c.id }));
  }
  return colors.flatMap((c) => {
    const match = nearestColor(c.hex, template.colors);
    return match ? [{ value: c.name, name: c.name, templateColor: match.id }] : [];
  });
}

const SLIDERS: { key: keyof MockupAdjustments; label: string; unit: string }[] = [
  { key: 'scale', label: 'Scale', unit: '%' },
  { key: 'rotation', label: 'Rotation', unit: '°' },
  { key: 'x', label: 'X', unit: '' },
  { key: 'y', label: 'Y', unit: '' },
  { key: 'opacity', label: 'Opacity', unit: '%' },
];

const clampTo = (key: 'x' | 'y', value: number) =>
  Math.round(Math.min(ADJUSTMENT_LIMITS[key].max, Math.max(ADJUSTMENT_LIMITS[key].min, value)));

/** Download name: the product type and a timestamp, e.g. mockup-tshirt-20261122-131502.png. */
export function mockupFileName(productType: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `mockup-${productType}-${stamp}.png`;
}

/**
 * The mockup editor: the design on a real template, placed with the shared geometry the server renders with.
 */
export function MockupPreview({ productType, design, onChange, fullSize, colors }: Props) {
  const templatesQuery = useMockupTemplates(productType);
  const templates: TMockupTemplate[] = templatesQuery.data?.templates ?? [];
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [color, setColor] = useState<string | null>(null);
  const [adjustments, setAdjustments] = useState<MockupAdjustments>(DEFAULT_ADJUSTMENTS);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ pointerId: number; startX: number; startY: number; x: number; y: number } | null>(null);

  // Spec: the template selection resets to the first template when the product type changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: productType is the trigger, not a value read here.
  useEffect(() => {
    setTemplateId(null);
    setColor(null);
  }, [productType]);

  const template = templates.find((t) => t.id === templateId) ?? templates[0] ?? null;
  const choices = colourChoices(template, colors);
  const choice = choices.find((c) => c.value === color) ?? choices[0] ?? null;
  const colorId = choice?.templateColor ?? null;
  const templateUrl =
    template && colorId ? template.previewUrl.replace(/\/[^/]+\.preview\.png$/, `/${colorId}.preview.png`) : null;
  const templateImage = useLoadedImage(templateUrl);
  const designImage = useLoadedImage(design?.url);

  useEffect(() => {
    if (template && colorId) onChange?.({ templateId: template.id, color: colorId, adjustments });
  }, [template, colorId, adjustments, onChange]);

  useEffect(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, MOCKUP_CANVAS.width, MOCKUP_CANVAS.height);
    if (templateImage) {
      ctx.drawImage(templateImage, 0, 0, MOCKUP_CANVAS.width, MOCKUP_CANVAS.height);
    } else {
      ctx.fillStyle = '#e2e8f0';
      ctx.fillRect(0, 0, MOCKUP_CANVAS.width, MOCKUP_CANVAS.height);
    }
    if (template && designImage && design) {
      const placement = computePlacement({ area: template.designArea, design, adjustments });
      drawPlacement(ctx, designImage, placement);
    }
  }, [templateImage, designImage, template, design, adjustments]);

  const setValue = (key: keyof MockupAdjustments, value: number) => setAdjustments((a) => ({ ...a, [key]: value }));

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture?.(e.pointerId);
    e.currentTarget.focus();
    drag.current = { pointerId: e.pointerId, startX: e.clientX, startY: e.clientY, x: adjustments.x, y: adjustments.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    // The canvas may be drawn smaller than 400x500 on narrow screens: convert screen pixels to canvas units.
    const rect = e.currentTarget.getBoundingClientRect();
    const unit = rect.width > 0 ? MOCKUP_CANVAS.width / rect.width : 1;
    setAdjustments((a) => ({
      ...a,
      x: clampTo('x', d.x + (e.clientX - d.startX) * unit),
      y: clampTo('y', d.y + (e.clientY - d.startY) * unit),
    }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const step = e.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    setAdjustments((a) => ({ ...a, x: clampTo('x', a.x + move[0]), y: clampTo('y', a.y + move[1]) }));
  };

  const download = () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    canvas.toBlob((blob) => {
      if (!blob) {
        toast({ title: 'Download failed', description: 'The mockup could not be exported.', variant: 'destructive' });
        return;
      }
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = mockupFileName(productType);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }, 'image/png');
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[400px_1fr]" data-testid="mockup-preview">
      <div className="space-y-3">
        <canvas
          ref={canvasRef}
          width={MOCKUP_CANVAS.width}
          height={MOCKUP_CANVAS.height}
          tabIndex={0}
          aria-label="Mockup canvas: drag or use the arrow keys to move the design"
          className="w-full max-w-[400px] cursor-move touch-none rounded-lg border border-slate-200 bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          data-template={template?.id ?? ''}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
        />
        {template && !templateImage && (
          <p className="text-sm text-slate-500" role="status">
            Loading template…
          </p>
        )}
        {design && <PrintReadinessBadge productType={productType} design={design} scale={adjustments.scale} />}
      </div>
      <div className="space-y-4">
        <label className="block space-y-1 text-sm font-medium">
          <span>Template</span>
          <NativeSelect
            value={template?.id ?? ''}
            onChange={(e) => setTemplateId(e.target.value)}
            disabled={templates.length === 0}
          >
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </NativeSelect>
        </label>
        <label className="block space-y-1 text-sm font-medium">
          <span>Colour</span>
          <NativeSelect value={choice?.value ?? ''} onChange={(e) => setColor(e.target.value)} disabled={!template}>
            {choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.name}
              </option>
            ))}
          </NativeSelect>
        </label>
        {SLIDERS.map(({ key, label, unit }) => (
          <label key={key} className="block space-y-1 text-sm">
            <span className="flex justify-between font-medium">
              <span>{label}</span>
              <span className="tabular-nums text-slate-500" data-testid={`value-${key}`}>
                {adjustments[key]}
                {unit}
              </span>
            </span>
            <input
              type="range"
              aria-label={label}
              className="w-full accent-brand-600"
              min={ADJUSTMENT_LIMITS[key].min}
              max={ADJUSTMENT_LIMITS[key].max}
              step={ADJUSTMENT_LIMITS[key].step}
              value={adjustments[key]}
              onChange={(e) => setValue(key, Number(e.target.value))}
            />
          </label>
        ))}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setAdjustments(DEFAULT_ADJUSTMENTS)}>
            <RotateCcw /> Reset
          </Button>
          <Button onClick={download} disabled={!templateImage}>
            <Download /> Download Mockup
          </Button>
          {fullSize && (
            <Button variant="outline" asChild>
              <a href={fullSize.url} download={mockupFileName(productType)}>
                <Download /> Full size ({fullSize.width} x {fullSize.height})
              </a>
            </Button>
          )}
        </div>
        {!fullSize && (
          <p className="text-xs text-slate-500" data-testid="full-size-hint">
            Download Mockup saves this preview; Generate Mockups renders the full 2000 x 2500 image to download.
          </p>
        )}
        {templatesQuery.isError && <p className="text-sm text-red-600">Templates could not be loaded.</p>}
      </div>
    </div>
  );
}
