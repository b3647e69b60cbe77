import type { TAiDesignStyle } from '@podforge/contract';
import { describe, expect, it } from 'vitest';
import { composeDesignSvg, designPlan, letteringOf, yearOf } from './offline-designs';

const request = (prompt: string, style: Exclude<TAiDesignStyle, 'photo'>, seed = 0) => ({
  prompt,
  style,
  size: 1024,
  n: 4,
  seed,
});

/** The drawn text of an SVG in order (curved text is one <text> a letter). */
const textOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join('');

describe('offline design variations', () => {
  it.each(['vector-clean', 'line-art', 'vintage-crest'] as const)(
    "four variations of 'cat astronaut' (%s) differ in layout, motif and palette",
    (style) => {
      const plans = [0, 1, 2, 3].map((i) => designPlan(request('cat astronaut', style), i));
      const distinct = (key: 'palette' | 'motif' | 'layout') => new Set(plans.map((p) => p[key])).size;
      expect(distinct('palette')).toBe(4);
      expect(distinct('motif')).toBe(4);
      // Every style has at least three layouts; vintage crests have three, so four crests repeat one.
      expect(distinct('layout')).toBe(style === 'vintage-crest' ? 3 : 4);
      // The prompt's own words pick the first motifs: a cat's paw, then the astronaut's star.
      expect(plans.slice(0, 2).map((p) => p.motif)).toEqual(['paw', 'star']);
      const svgs = [0, 1, 2, 3].map((i) => composeDesignSvg(request('cat astronaut', style), i));
      expect(new Set(svgs).size).toBe(4);
    },
  );

  it('keeps the same look for the same prompt and seed, and another seed starts elsewhere', () => {
    const a = composeDesignSvg(request('cat astronaut', 'vector-clean'), 1);
    expect(composeDesignSvg(request('cat astronaut', 'vector-clean'), 1)).toBe(a);
    expect(composeDesignSvg(request('cat astronaut', 'vector-clean', 7), 1)).not.toBe(a);
  });

  it("keeps a prompt's year as written ('est. 2024'), never a made-up one, and not as a lettering word", () => {
    expect(yearOf('Retro Diner est. 2024')).toBe('2024');
    expect(yearOf('Since 1975 family bakery')).toBe('1975');
    expect(yearOf('cat astronaut')).toBeNull();
    expect(letteringOf('Retro Diner est. 2024')).toEqual({ main: ['RETRO', 'DINER'], extra: [] });
    for (const style of ['vector-clean', 'line-art', 'vintage-crest'] as const) {
      for (let i = 0; i < 4; i++) {
        const text = textOf(composeDesignSvg(request('Retro Diner est. 2024', style), i));
        expect(text, `${style} ${i}`).toContain('EST. 2024');
        expect(text).not.toMatch(/EST\. (?!2024)\d{4}/);
      }
      const plain = textOf(composeDesignSvg(request('cat astronaut', style), 0));
      expect(plain).not.toMatch(/EST\.\s*\d{4}/);
    }
  });
});
