import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ListingEditor, type ListingText } from './listing-editor';

function Editor(
  props: Omit<React.ComponentProps<typeof ListingEditor>, 'value' | 'onChange'> & { start: ListingText },
) {
  const { start, ...rest } = props;
  const [value, setValue] = useState(start);
  return <ListingEditor {...rest} value={value} onChange={(patch) => setValue((v) => ({ ...v, ...patch }))} />;
}

const start = { title: 'Retro Sunset Tee', description: 'Soft cotton.', tagsText: 'retro, sunset' };

describe('ListingEditor', () => {
  it('edits title, description and tags, and shows the marketplace problems it is given', () => {
    const onChange = vi.fn();
    render(<ListingEditor value={start} onChange={onChange} problems={['Etsy titles are at most 140 characters.']} />);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'New' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Warm.' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'a, b' } });
    expect(onChange.mock.calls).toEqual([[{ title: 'New' }], [{ description: 'Warm.' }], [{ tagsText: 'a, b' }]]);
    expect(screen.getByTestId('listing-problems')).toHaveTextContent('Etsy titles are at most 140 characters.');
    expect(screen.queryByRole('button', { name: 'Copy title' })).not.toBeInTheDocument();
  });

  it('shows the tags hint, or copy buttons and the tag count when copyable, and the extra fields it is given', () => {
    const { unmount } = render(<Editor start={start} problems={[]} tagsHint="Separate tags with commas." />);
    expect(screen.getByText('Separate tags with commas.')).toBeInTheDocument();
    expect(screen.queryByTestId('listing-problems')).not.toBeInTheDocument();
    unmount();
    render(
      <Editor start={start} problems={[]} copyable tagsLabel="Tags (comma separated)">
        <p>Price and variants</p>
      </Editor>,
    );
    expect(screen.getByRole('button', { name: 'Copy title' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy description' })).toBeInTheDocument();
    expect(screen.getByText('2 tags')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Tags (comma separated)'), { target: { value: 'a, b, , a, c' } });
    expect(screen.getByText('3 tags')).toBeInTheDocument();
    expect(screen.getByText('Price and variants')).toBeInTheDocument();
  });
});
