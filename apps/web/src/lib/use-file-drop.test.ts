import { describe, expect, it } from 'vitest';
import { isDesignFile } from './use-file-drop';

describe('isDesignFile', () => {
  it('takes PNG, JPEG, SVG and PDF by MIME type or by extension, and nothing else', () => {
    const file = (name: string, type = '') => new File(['x'], name, { type });
    expect(isDesignFile(file('a.png', 'image/png'))).toBe(true);
    expect(isDesignFile(file('photo', 'image/jpeg'))).toBe(true);
    expect(isDesignFile(file('LOGO.SVG'))).toBe(true);
    expect(isDesignFile(file('print.pdf'))).toBe(true);
    expect(isDesignFile(file('notes.txt', 'text/plain'))).toBe(false);
    expect(isDesignFile(file('anim.gif', 'image/gif'))).toBe(false);
  });
});
