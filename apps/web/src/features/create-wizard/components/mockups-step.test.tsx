import { DESIGN_AREAS, type TMockup } from '@podforge/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { MockupsStep } from './mockups-step';

const DESIGN_ID = '11111111-1111-4111-8111-111111111111';
const JOB_ID = '22222222-2222-4222-8222-222222222222';
const mockup = (n: number) => ({
  id: `m${n}`,
  templateId: 'tshirt-front',
  color: `c${n}`,
  url: `/api/mockups/m${n}/file`,
  previewUrl: `/api/mockups/m${n}/preview`,
  width: 2000,
  height: 2500,
});

describe('MockupsStep', () => {
  let polls = 0;
  let batchBody: unknown = null;
  beforeEach(() => {
    batchBody = null;
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    polls = 0;
    const fetchRoutes = fakeFetch({
      '/api/mockups/templates?productType=tshirt': () =>
        json({
          productType: 'tshirt',
          templates: [
            {
              id: 'tshirt-front',
              name: 'T-shirt front',
              productType: 'tshirt',
              imageUrl: '/templates/mockups/tshirt/tshirt-front/white.png',
              previewUrl: '/templates/mockups/tshirt/tshirt-front/white.preview.png',
              width: 2000,
              height: 2500,
              designArea: DESIGN_AREAS.tshirt,
              colors: [{ id: 'white', name: 'White', hex: '#fff' }],
            },
          ],
        }),
      '/api/mockups/batch': () =>
        json({ jobId: JOB_ID, status: 'running', done: 0, total: 3, mockups: [], error: null }, 202),
      [`/api/mockups/batch/${JOB_ID}`]: () => {
        polls += 1;
        const done = Math.min(3, polls);
        return json({
          jobId: JOB_ID,
          status: done === 3 ? 'done' : 'running',
          done,
          total: 3,
          mockups: Array.from({ length: done }, (_, i) => mockup(i)),
          error: null,
        });
      },
    });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') batchBody = JSON.parse(String(init.body));
      return fetchRoutes(input);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('renders the given design on the chosen template in every colour, with real progress, and picks one', async () => {
    const changes: [string[], string | null][] = [];
    function Harness() {
      const [state, setState] = useState<{ mockups: TMockup[]; selected: string | null }>({
        mockups: [],
        selected: null,
      });
      return (
        <MockupsStep
          design={{ id: DESIGN_ID, name: 'Sunset', width: 4500, height: 5400, url: '/d.png' }}
          productType="tshirt"
          mockups={state.mockups}
          selectedMockupId={state.selected}
          onMockupsChange={(mockups, selected) => {
            changes.push([mockups.map((m) => m.id), selected]);
            setState({ mockups, selected });
          }}
          onBack={() => {}}
          onNext={onNext}
        />
      );
    }
    const onNext = vi.fn();
    renderWithProviders(<Harness />);
    expect(screen.getByRole('button', { name: 'Continue to Details' })).toBeDisabled();
    const generate = screen.getByRole('button', { name: 'Generate Mockups' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    await waitFor(() => expect(screen.getByTestId('mockup-progress')).toHaveTextContent('3 of 3 rendered'), {
      timeout: 3000,
    });
    expect(polls).toBe(3);
    expect(batchBody).toMatchObject({
      designId: DESIGN_ID,
      productType: 'tshirt',
      templateIds: ['tshirt-front'],
      async: true,
      adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
    });
    expect(screen.getAllByTestId('mockup-result')).toHaveLength(3);
    // The editor's colour (white) was not rendered here, so the first render is picked.
    await waitFor(() => expect(changes.at(-1)).toEqual([['m0', 'm1', 'm2'], 'm0']));
    fireEvent.click(screen.getAllByTestId('mockup-result')[2] as HTMLElement);
    expect(screen.getAllByTestId('mockup-result')[2]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Regenerate Mockups' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to Details' }));
    expect(onNext).toHaveBeenCalledOnce();
  });

  it('renders only the chosen colour when every colour is not wanted', async () => {
    renderWithProviders(
      <MockupsStep
        design={{ id: DESIGN_ID, name: 'Sunset', width: 4500, height: 5400, url: '/d.png' }}
        productType="tshirt"
        mockups={[]}
        selectedMockupId={null}
        onMockupsChange={() => {}}
        onBack={() => {}}
        onNext={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: /Render every colour/ }));
    const generate = screen.getByRole('button', { name: 'Generate Mockups' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    await waitFor(() => expect(batchBody).toMatchObject({ templateIds: ['tshirt-front'], colors: ['white'] }));
  });
});
