import { MESSAGE_EVENT_TEXT, messageText } from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { messageSettings, messages } from '../../db/schema/index.js';
import type { PushHub } from '../../plugins/push.js';

/**
 * The events that create messages, each switched by the recipient's message setting
 * (foundation.md §3): customer allocation, new contract, new work order, fee reminder.
 * System reminders (msgStyleBig 2) are always delivered.
 */
export const MESSAGE_EVENTS = {
  fp: { setting: 'msgFp', msgStyleBig: 1 },
  xjht: { setting: 'msgXjht', msgStyleBig: 1 },
  xjgd: { setting: 'msgXjgd', msgStyleBig: 1 },
  sftx: { setting: 'msgSftx', msgStyleBig: 2 },
  reminder: { setting: null, msgStyleBig: 2 },
} as const;
export type MessageEvent = keyof typeof MESSAGE_EVENTS;

export interface Notice {
  event: MessageEvent;
  agencyId: number;
  userIds: readonly number[];
  content: string;
  /** The page the details link opens (foundation.md §2: chosen by msgStyleSmall). */
  msgStyleSmall: string;
  targetId?: number | null;
}

/**
 * Creates the messages of one event for the users whose settings accept it, in the caller's
 * transaction, and pushes them once it commits. Returns the users notified.
 */
export async function notify(
  tx: Tx,
  push: PushHub,
  afterCommit: (fn: () => Promise<void>) => void,
  notice: Notice,
): Promise<number[]> {
  const ids = [...new Set(notice.userIds)];
  if (ids.length === 0) return [];
  const { setting, msgStyleBig } = MESSAGE_EVENTS[notice.event];
  let recipients = ids;
  if (setting) {
    const off = await tx
      .select({ userId: messageSettings.userId })
      .from(messageSettings)
      .where(
        and(
          eq(messageSettings.agencyId, notice.agencyId),
          inArray(messageSettings.userId, ids),
          eq(messageSettings[setting], 0),
        ),
      );
    const muted = new Set(off.map((r) => r.userId));
    recipients = ids.filter((id) => !muted.has(id));
  }
  if (recipients.length === 0) return [];
  const rows = await tx
    .insert(messages)
    .values(
      recipients.map((userId) => ({
        agencyId: notice.agencyId,
        userId,
        msgStyleBig,
        msgStyleSmall: notice.msgStyleSmall,
        content: notice.content,
        targetId: notice.targetId ?? null,
      })),
    )
    .returning();
  afterCommit(async () => {
    for (const row of rows) {
      await push.publish([row.userId], {
        type: 'news',
        data: {
          id: row.id,
          content: row.content,
          msgStyleBig: row.msgStyleBig,
          msgStyleSmall: row.msgStyleSmall,
          targetId: row.targetId,
          createdAt: row.createdAt.toISOString(),
        },
      });
    }
  });
  return recipients;
}

/**
 * notify() with the event's own label and details page: the text becomes 【label】detail (the bell cuts
 * the label to 6 characters) and msgStyleSmall the event's page (customer, contract, workorder, fee).
 */
export function notifyEvent(
  tx: Tx,
  push: PushHub,
  afterCommit: (fn: () => Promise<void>) => void,
  notice: Omit<Notice, 'content' | 'msgStyleSmall'> & { detail: string; label?: string; msgStyleSmall?: string },
): Promise<number[]> {
  const text = MESSAGE_EVENT_TEXT[notice.event];
  return notify(tx, push, afterCommit, {
    event: notice.event,
    agencyId: notice.agencyId,
    userIds: notice.userIds,
    targetId: notice.targetId ?? null,
    content: messageText(notice.label ?? text.label, notice.detail),
    msgStyleSmall: notice.msgStyleSmall ?? text.msgStyleSmall,
  });
}
