import { fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { NativeSelect } from './native-select';

describe('NativeSelect', () => {
  it('is a native select named by its label, forwarding its ref, props and changes', () => {
    const ref = createRef<HTMLSelectElement>();
    const onChange = vi.fn();
    render(
      <label>
        <span>Colour</span>
        <NativeSelect ref={ref} value="red" onChange={onChange}>
          <option value="red">Red</option>
          <option value="blue">Blue</option>
        </NativeSelect>
      </label>,
    );
    const select = screen.getByRole('combobox', { name: 'Colour' });
    expect(select.tagName).toBe('SELECT');
    expect(ref.current).toBe(select);
    expect(select).toHaveValue('red');
    fireEvent.change(select, { target: { value: 'blue' } });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(select).toHaveClass('block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm');
  });

  it('merges className so a later class replaces a conflicting default', () => {
    render(<NativeSelect aria-label="Price" className="inline-block w-auto py-0 h-10" />);
    const select = screen.getByRole('combobox', { name: 'Price' });
    expect(select).toHaveClass('inline-block w-auto py-0 h-10 rounded-md px-3 text-sm');
    expect(select).not.toHaveClass('block');
    expect(select).not.toHaveClass('w-full');
    expect(select).not.toHaveClass('py-2');
  });
});
