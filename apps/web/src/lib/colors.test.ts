import { describe, expect, it } from 'vitest';
import { nearestColor, parseHex } from './colors';

const templateColors = [
  { id: 'white', hex: '#ffffff' },
  { id: 'black', hex: '#111111' },
  { id: 'navy', hex: '#1f2a44' },
  { id: 'red', hex: '#c8102e' },
  { id: 'heather-grey', hex: '#b5b5b5' },
];

describe('nearestColor', () => {
  it('picks the template colour nearest to a catalogue colour', () => {
    expect(nearestColor('#0b0b0b', templateColors)?.id).toBe('black');
    expect(nearestColor('#fefefe', templateColors)?.id).toBe('white');
    expect(nearestColor('#212642', templateColors)?.id).toBe('navy');
    expect(nearestColor('#a4232f', templateColors)?.id).toBe('red');
    expect(nearestColor('#9b969c', templateColors)?.id).toBe('heather-grey');
  });

  it('reads short hex, ignores broken candidates and answers null for nothing to match', () => {
    expect(parseHex('#abc')).toEqual({ r: 0xaa, g: 0xbb, b: 0xcc });
    expect(parseHex('black')).toBeNull();
    expect(nearestColor('#000', [{ id: 'x', hex: 'nope' }, ...templateColors])?.id).toBe('black');
    expect(nearestColor('not a colour', templateColors)).toBeNull();
    expect(nearestColor('#000000', [])).toBeNull();
  });
});
