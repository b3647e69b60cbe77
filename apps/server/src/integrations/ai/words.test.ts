import { describe, expect, it } from 'vitest';
import { cleanDesignName, pick, seededRandom, titleCase } from './words';

describe('cleanDesignName', () => {
  it.each([
    ['retro-sunset_cat-v2.png', 'Retro Sunset Cat'],
    ['RetroSunsetCat.PNG', 'Retro Sunset Cat'],
    ['mountain-sunrise-4500x5400-300dpi.png', 'Mountain Sunrise'],
    ['CoffeeLover_FINAL_v3_copy (2).png', 'Coffee Lover'],
    ['skull roses final FINAL copy 2.jpeg', 'Skull Roses'],
    ['designs/2024/cat_mom@2x.svg', 'Cat Mom'],
    ['NYC_skyline-print-ready_v12.pdf', 'NYC Skyline'],
    ['I_LOVE_TACOS.png', 'I Love Tacos'],
    ['9-lives-cat.png', '9 Lives Cat'],
    ['lord_of_the_fries.png.png', 'Lord of the Fries'],
    ['Mr.Whiskers.png', 'Mr Whiskers'],
    ['new york state of mind.png', 'New York State of Mind'],
    ['IMG_20240115123456.png', ''],
    ['untitled-design-final.png', ''],
    ['ai-mountain-hiking-club-est-2024-3fa9c2d1.png', 'Mountain Hiking Club Est 2024'],
    ['AI_cat_astronaut_copy_final_9f86d081884c7d65.png', 'Cat Astronaut'],
  ])('%s -> %s', (filename, expected) => {
    expect(cleanDesignName(filename)).toBe(expected);
  });
});

describe('titleCase', () => {
  it('capitalises words, keeps small words and short acronyms', () => {
    expect(titleCase('a day at the beach in LA')).toBe('A Day at the Beach in LA');
    expect(titleCase('GOOD VIBES ONLY')).toBe('Good Vibes Only');
  });
});

describe('pick', () => {
  const options = ['a', 'b', 'c', 'd'];
  it('always takes the plainest wording at creativity 1', () => {
    const random = seededRandom(42);
    expect(new Set(Array.from({ length: 50 }, () => pick(options, random, 1)))).toEqual(new Set(['a']));
  });
  it('reaches every wording at creativity 10, the same sequence for the same seed', () => {
    const run = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 50 }, () => pick(options, random, 10));
    };
    expect(new Set(run(7))).toEqual(new Set(options));
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });
});
