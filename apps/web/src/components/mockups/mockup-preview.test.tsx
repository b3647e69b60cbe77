import { DESIGN_AREAS } from '@podforge/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { MockupPreview, mockupFileName } from './mockup-preview';

const set = (productType: 'tshirt' | 'mug', ids: string[]) => ({
  productType,
  templates: ids.map((id) => ({
    id,
    name: `Template ${id}`,
    productType,
    imageUrl: `/templates/mockups/${productType}/${id}/white.png`,
    previewUrl: `/templates/mockups/${productType}/${id}/white.preview.png`,
    width: 2000,
    height: 2500,
    designArea: DESIGN_AREAS[productType],
    colors: [
      { id: 'white', name: 'White', hex: '#fff' },
      { id: 'heather-grey', name: 'Heather Grey', hex: '#9b9ea3' },
      { id: 'royal-blue', name: 'Royal Blue', hex: '#2851a3' },
    ],
  })),
});

function Harness() {
  const [productType, setProductType] = useState('tshirt');
  return (
    <>
      <button type="button" onClick={() => setProductType('mug')}>
        Switch to mug
      </button>
      <MockupPreview productType={productType} design={null} />
    </>
  );
}

describe('MockupPreview', () => {
  beforeEach(() => {
    // jsdom has no canvas; the drawing itself is covered by the browser test and the server comparison test.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/mockups/templates?productType=tshirt': () => json(set('tshirt', ['tshirt-front', 'tshirt-back'])),
        '/api/mockups/templates?productType=mug': () => json(set('mug', ['mug-right', 'mug-left'])),
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('resets to the first template when the product type changes', async () => {
    renderWithProviders(<Harness />);
    const select = await screen.findByRole('combobox', { name: 'Template' });
    await waitFor(() => expect(select).toHaveValue('tshirt-front'));
    fireEvent.change(select, { target: { value: 'tshirt-back' } });
    expect(select).toHaveValue('tshirt-back');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to mug' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Template' })).toHaveValue('mug-right'));
  });

  it('rates a vector design print-ready at any size (issue 28 point 5), a raster one of the same pixels by them', () => {
    const { unmount } = renderWithProviders(
      <MockupPreview productType="tshirt" design={{ url: 'x.svg', width: 100, height: 100, vector: true }} />,
    );
    fireEvent.change(screen.getByRole('slider', { name: 'Scale' }), { target: { value: '200' } });
    expect(screen.getByTestId('print-readiness')).toHaveAttribute('data-level', 'ready');
    expect(screen.getByTestId('print-readiness')).toHaveTextContent(
      'Print ready (vector) · sharp at any size, drawn at 150 DPI',
    );
    unmount();
    renderWithProviders(<MockupPreview productType="tshirt" design={{ url: 'x.png', width: 100, height: 100 }} />);
    expect(screen.getByTestId('print-readiness')).toHaveAttribute('data-level', 'low');
  });

  it('moves sliders within their ranges, nudges with arrow keys and resets', async () => {
    renderWithProviders(<MockupPreview productType="tshirt" design={{ url: 'x.png', width: 4500, height: 5400 }} />);
    const scale = screen.getByRole('slider', { name: 'Scale' });
    expect(scale).toHaveAttribute('min', '10');
    expect(scale).toHaveAttribute('max', '200');
    expect(scale).toHaveAttribute('step', '5');
    expect(screen.getByRole('slider', { name: 'Rotation' })).toHaveAttribute('min', '-180');
    expect(screen.getByRole('slider', { name: 'Opacity' })).toHaveAttribute('min', '10');
    expect(screen.getByTestId('print-readiness')).toHaveTextContent('Print ready · 338 DPI');
    fireEvent.change(scale, { target: { value: '150' } });
    expect(screen.getByTestId('value-scale')).toHaveTextContent('150%');
    expect(screen.getByTestId('print-readiness')).toHaveTextContent('OK for most products · 225 DPI');
    const canvas = screen.getByLabelText(/Mockup canvas/);
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    fireEvent.keyDown(canvas, { key: 'ArrowUp', shiftKey: true });
    expect(screen.getByTestId('value-x')).toHaveTextContent('1');
    expect(screen.getByTestId('value-y')).toHaveTextContent('-10');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByTestId('value-scale')).toHaveTextContent('100%');
    expect(screen.getByTestId('value-x')).toHaveTextContent('0');
  });

  it('offers the full 2000 x 2500 server render next to Download Mockup once one is picked', async () => {
    function Rendered() {
      const [picked, setPicked] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setPicked(true)}>
            Pick a render
          </button>
          <MockupPreview
            productType="tshirt"
            design={null}
            fullSize={picked ? { url: '/api/mockups/m1/file', width: 2000, height: 2500 } : null}
          />
        </>
      );
    }
    renderWithProviders(<Rendered />);
    expect(await screen.findByTestId('full-size-hint')).toHaveTextContent('full 2000 x 2500 image');
    expect(screen.queryByRole('link', { name: /Full size/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Pick a render' }));
    const link = screen.getByRole('link', { name: 'Full size (2000 x 2500)' });
    expect(link).toHaveAttribute('href', '/api/mockups/m1/file');
    expect(link.getAttribute('download')).toMatch(/^mockup-tshirt-\d{8}-\d{6}\.png$/);
    expect(screen.getByRole('button', { name: 'Download Mockup' })).toBeInTheDocument();
  });

  it('the t-shirt design area is centred in the 400-unit frame, as the template is drawn', () => {
    const area = DESIGN_AREAS.tshirt;
    expect(area.x + area.width / 2).toBe(200);
  });

  it('names the download after the product type and a timestamp', () => {
    expect(mockupFileName('mug', new Date(2026, 10, 22, 9, 5, 7))).toBe('mockup-mug-20261122-090507.png');
  });

  it('offers only the blank’s catalogue colours, by their catalogue names, drawn in the nearest template colour (#28)', async () => {
    const changes: { color: string }[] = [];
    renderWithProviders(
      <MockupPreview
        productType="tshirt"
        design={null}
        colors={[
          { name: 'White', hex: '#ffffff' },
          { name: 'Athletic Heather', hex: '#cececc' },
        ]}
        onChange={(s) => changes.push(s)}
      />,
    );
    const colour = screen.getByRole('combobox', { name: 'Colour' });
    await waitFor(() => expect(colour).not.toBeDisabled());
    // Not the template's Heather Grey nor its Royal Blue, which this blank does not come in.
    expect([...colour.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['White', 'Athletic Heather']);
    fireEvent.change(colour, { target: { value: 'Athletic Heather' } });
    await waitFor(() => expect(changes.at(-1)?.color).toBe('heather-grey'));
  });
});
