import { eq } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { workspaceSettings } from '../../db/schema';

/** The workspace's settings row (none until it first saves one). */

export type SettingsValues = Omit<typeof workspaceSettings.$inferInsert, 'workspaceId'>;

export async function settingsRow(db: Db, workspaceId: string) {
  const [row] = await db.select().from(workspaceSettings).where(eq(workspaceSettings.workspaceId, workspaceId));
  return row;
}

export async function saveSettings(db: Db, workspaceId: string, values: SettingsValues): Promise<void> {
  await db
    .insert(workspaceSettings)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values });
}
