import { eq } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { sandboxStates } from '../../db/schema';

/** A built-in store sandbox's state: one JSON row per platform. */

export async function sandboxStateOf(db: Db, platform: string): Promise<unknown> {
  const [row] = await db.select().from(sandboxStates).where(eq(sandboxStates.platform, platform));
  return row?.state;
}

export async function saveSandboxState(db: Db, platform: string, state: object, now: Date): Promise<void> {
  await db
    .insert(sandboxStates)
    .values({ platform, state, updatedAt: now })
    .onConflictDoUpdate({ target: sandboxStates.platform, set: { state, updatedAt: now } });
}
