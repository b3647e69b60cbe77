import {
  DEFAULT_ORDER_CONFIRMATION,
  DEFAULT_STORE_FEES,
  DEFAULT_TARGET_MARGIN,
  type TWorkspaceSettings,
  ZUpdateWorkspaceSettings,
} from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { parseInput } from '../../lib/validate';
import type { SettingsDeps } from './settings.deps';
import { saveSettings, settingsRow } from './settings.repository';

/** The workspace's settings (pricing, order confirmation), with the defaults for what it never set. */
export async function getSettings(db: Db, workspaceId: string): Promise<TWorkspaceSettings> {
  const row = await settingsRow(db, workspaceId);
  return {
    targetMargin: row?.targetMargin == null ? DEFAULT_TARGET_MARGIN : Number(row.targetMargin),
    storeFees: { ...DEFAULT_STORE_FEES, ...(row?.storeFees ?? {}) },
    orderConfirmation: row?.orderConfirmation
      ? { mode: row.orderConfirmation, delayMinutes: row.orderDelayMinutes ?? DEFAULT_ORDER_CONFIRMATION.delayMinutes }
      : DEFAULT_ORDER_CONFIRMATION,
  };
}

export async function settingsRoutes(app: FastifyInstance, { deps }: { deps: SettingsDeps }) {
  app.get('/api/settings', async (request) => getSettings(deps.db, request.workspaceId));

  app.patch('/api/settings', async (request) => {
    const input = parseInput(ZUpdateWorkspaceSettings, request.body, 'body');
    const current = await getSettings(deps.db, request.workspaceId);
    const next: TWorkspaceSettings = {
      targetMargin: input.targetMargin ?? current.targetMargin,
      storeFees: { ...current.storeFees, ...(input.storeFees ?? {}) },
      orderConfirmation: input.orderConfirmation ?? current.orderConfirmation,
    };
    const values = {
      targetMargin: next.targetMargin.toFixed(2),
      storeFees: next.storeFees,
      orderConfirmation: next.orderConfirmation.mode,
      orderDelayMinutes: next.orderConfirmation.delayMinutes,
      updatedAt: deps.now(),
    };
    await saveSettings(deps.db, request.workspaceId, values);
    return next;
  });
}
