import type { TAiDesignSize, TAiDesignStyle } from '@podforge/contract';
import {
  AI_DESIGN_MAX_VARIATIONS,
  AI_DESIGN_SIZES,
  AI_DESIGN_STYLE_LABELS,
  AI_DESIGN_STYLES,
} from '@podforge/contract/plain';
import { useId } from 'react';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { cn } from '@/lib/utils';

/** Spec section 3 'AI design request' as the seller fills it in. */
export type AiDesignDraft = { prompt: string; size: TAiDesignSize; n: number; style: TAiDesignStyle };

/** Spec section 9 defaults: 1024x1024, one variation, vector-clean. */
export const EMPTY_AI_DESIGN: AiDesignDraft = { prompt: '', size: '1024x1024', n: 1, style: 'vector-clean' };

/** Prompt, size, variations and style: the AI design form of the AI Generator and the wizard's Design step. */
export function AiDesignFields({
  value,
  onChange,
  placeholder,
  className,
}: {
  value: AiDesignDraft;
  onChange: (value: AiDesignDraft) => void;
  placeholder: string;
  className?: string;
}) {
  const id = useId();
  const set = (patch: Partial<AiDesignDraft>) => onChange({ ...value, ...patch });
  return (
    <div className={cn('grid gap-4', className)}>
      <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-prompt`}>
        <span>Prompt</span>
        <textarea
          id={`${id}-prompt`}
          className={inputClass}
          rows={2}
          maxLength={1000}
          placeholder={placeholder}
          value={value.prompt}
          onChange={(e) => set({ prompt: e.target.value })}
        />
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Size</span>
        <NativeSelect value={value.size} onChange={(e) => set({ size: e.target.value as TAiDesignSize })}>
          {AI_DESIGN_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect>
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Variations</span>
        <NativeSelect value={String(value.n)} onChange={(e) => set({ n: Number(e.target.value) })}>
          {Array.from({ length: AI_DESIGN_MAX_VARIATIONS }, (_, i) => i + 1).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </NativeSelect>
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Design style</span>
        <NativeSelect value={value.style} onChange={(e) => set({ style: e.target.value as TAiDesignStyle })}>
          {AI_DESIGN_STYLES.map((s) => (
            <option key={s} value={s}>
              {AI_DESIGN_STYLE_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
      </label>
    </div>
  );
}
