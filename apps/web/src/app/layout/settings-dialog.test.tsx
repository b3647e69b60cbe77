import type { TAiStatus, TDashboardStats } from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settings } from '@/test/catalog-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { SettingsDialog } from './settings-dialog';

const stats = {
  aiCredits: { allowance: 200, used: 12, remaining: 188, resetsAt: '2026-12-01T00:00:00.000Z' },
} as TDashboardStats;

function open(status: TAiStatus) {
  vi.stubGlobal(
    'fetch',
    fakeFetch({
      'GET /api/dashboard/stats': () => json(stats),
      'GET /api/settings': () => json(settings),
      'GET /api/ai/status': () => json(status),
      // The account part (features/account has its own tests).
      'GET /api/auth/me': () => json({ memberId: 'm', workspaceId: 'w', role: 'viewer', name: null, passkeys: 1 }),
      'GET /api/auth/passkeys': () => json([]),
      'GET /api/auth/sessions': () => json([]),
      'GET /api/workspace/members': () => json([]),
    }),
  );
  renderWithProviders(<SettingsDialog open onClose={() => {}} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('SettingsDialog, AI models', () => {
  it('names the models with their shutdown dates and shows the server’s warnings', async () => {
    const warning =
      'The AI provider will retire the model for AI listing text (gpt-4o-mini) on 2027-01-14, in 48 days: the operator must choose another (OPENAI_MODEL) before then.';
    open({
      provider: 'openai',
      text: { model: 'gpt-4o-mini', shutdownDate: '2027-01-14', retired: false },
      image: { model: 'dall-e-2', shutdownDate: null, retired: true },
      warnings: [warning],
      checkedAt: '2026-11-27T09:00:00.000Z',
    });
    const models = await screen.findByTestId('ai-models');
    expect(models).toHaveTextContent('Listing text: gpt-4o-mini · shuts down on 2027-01-14');
    expect(models).toHaveTextContent('Designs: dall-e-2 · retired by the provider');
    expect(within(models).getByTestId('ai-model-notice')).toHaveTextContent(warning);
  });

  it('says the built-in writer is used when the server has no key', async () => {
    open({
      provider: 'offline',
      text: { model: null, shutdownDate: null, retired: false },
      image: { model: null, shutdownDate: null, retired: false },
      warnings: [],
      checkedAt: null,
    });
    expect(await screen.findByTestId('ai-models')).toHaveTextContent('The built-in offline writer');
    expect(screen.queryByTestId('ai-model-notice')).not.toBeInTheDocument();
  });
});
