import { STORE_PLATFORMS } from '@podforge/contract';
import { describe, expect, it } from 'vitest';
import type { BulkItemRow, BulkPushRow, BulkRunRow } from './bulk.repository';
import { expectedFinish } from './bulk.service';

const start = new Date('2026-11-27T12:00:00.000Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
const run = { status: 'running', startedAt: start, createdAt: start } as BulkRunRow;

const item = (id: string, status: BulkItemRow['status'], doneAfter?: number) =>
  ({ id, status, productId: status === 'done' ? `p-${id}` : null, updatedAt: at(doneAfter ?? 0) }) as BulkItemRow;

const push = (
  itemId: string,
  store: string,
  status: BulkPushRow['status'],
  took?: [number, number],
  scheduleId: string | null = status === 'scheduled' ? 's-1' : null,
) => ({
  push: {
    itemId,
    integrationId: store,
    status,
    scheduleId,
    startedAt: took ? at(took[0]) : null,
    finishedAt: took ? at(took[1]) : null,
  } as BulkPushRow,
  platform: STORE_PLATFORMS[0],
  storeName: store,
  schedule: null,
});

describe('a bulk run’s expected finish', () => {
  const now = at(20);

  it('adds what is left to make at this attempt’s pace to the last product’s pushes', () => {
    // 2 made in 10 s, 2 to make (10 s more); shop A pushes in 2 s, shop B in 3 s: the last product's pushes 5 s.
    const items = [item('1', 'done', 6), item('2', 'done', 10), item('3', 'pending'), item('4', 'running')];
    const pushes = [
      push('1', 'A', 'pushed', [6, 8]),
      push('1', 'B', 'pushed', [8, 11]),
      ...['2', '3', '4'].flatMap((i) => [push(i, 'A', 'pending'), push(i, 'B', 'pending')]),
    ];
    expect(expectedFinish(run, items, pushes, now)).toEqual(at(20 + 15));
  });

  it('follows the pushes when they are behind the making', () => {
    // Everything made; 6 pushes of 2 s left to shop A.
    const items = ['1', '2', '3', '4', '5', '6', '7'].map((i) => item(i, 'done', 5));
    const pushes = [push('1', 'A', 'pushed', [5, 7]), ...items.slice(1).map((i) => push(i.id, 'A', 'pending'))];
    expect(expectedFinish(run, items, pushes, now)).toEqual(at(20 + 12));
  });

  it('leaves out the pushes of products that failed, and says nothing it cannot know', () => {
    const items = [item('1', 'done', 5), item('2', 'failed')];
    const pushed = push('1', 'A', 'pushed', [5, 7]);
    expect(expectedFinish(run, items, [pushed, push('2', 'A', 'pending')], now)).toBeNull();
    // A store with pushes left and none finished yet: no pace to go by.
    expect(expectedFinish(run, items, [push('1', 'A', 'pushing')], now)).toBeNull();
    // Nothing made yet by this attempt.
    expect(
      expectedFinish({ ...run, startedAt: at(6) }, [item('1', 'done', 5), item('2', 'pending')], [], now),
    ).toBeNull();
    expect(expectedFinish({ ...run, status: 'done' }, items, [pushed], now)).toBeNull();
  });

  it('takes no pace from a push the store’s spent limit deferred, and adds nothing for that store’s pushes left', () => {
    // Shop A's day was spent mid-push: it was deferred (a scheduled push with no schedule), and so will the rest be.
    const items = [item('1', 'done', 5), item('2', 'done', 10), item('3', 'pending')];
    const pushes = [
      push('1', 'A', 'scheduled', [5, 35], null),
      push('2', 'A', 'pending'),
      push('3', 'A', 'pending'),
      push('1', 'B', 'pushed', [5, 8]),
      push('2', 'B', 'pending'),
      push('3', 'B', 'pending'),
    ];
    // 1 left to make at 5 s; shop B's 2 pushes of 3 s: max(5 + 3, 6) = 8 s.
    expect(expectedFinish(run, items, pushes, now)).toEqual(at(20 + 8));
  });
});
