import {
  alertMessageInfoCall,
  CODE,
  getMsgSettingsCall,
  KJGC_SETTING_ONLY_MSG,
  type MsgSettings,
  markNewsKnownCall,
  NEWS_MAX,
  NO_MESSAGE_TEXT,
  selectMsgListCall,
  selectNewsCall,
  updateMsgSettingsCall,
} from '@dzy/shared';
import { and, count, desc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { messageSettings, messages } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { announcementCalls } from './announcement.routes.js';
import { helpCalls } from './help.routes.js';
import { messageJobs, startDailySchedule } from './message.jobs.js';
import { registerPushSocket } from './push.socket.js';

const NO_AGENCY_MSG = '请先加入或创建代理机构';

type MessageRow = typeof messages.$inferSelect;

const newsItem = (r: MessageRow) => ({
  id: r.id,
  content: r.content,
  msgStyleBig: r.msgStyleBig,
  msgStyleSmall: r.msgStyleSmall,
  targetId: r.targetId,
  createTime: r.createdAt.toISOString(),
});

/** The caller's own messages in the agency the session acts for. */
const own = (session: SessionCtx) =>
  and(eq(messages.agencyId, session.agencyId ?? -1), eq(messages.userId, session.userId));

const DEFAULT_SETTINGS: MsgSettings = { msg_fp: 1, msg_xjht: 1, msg_xjgd: 1, msg_sftx: 1 };

async function settingsOf(tx: Queryable, session: SessionCtx): Promise<MsgSettings> {
  if (session.agencyId === null) return DEFAULT_SETTINGS;
  const [row] = await tx
    .select()
    .from(messageSettings)
    .where(and(eq(messageSettings.agencyId, session.agencyId), eq(messageSettings.userId, session.userId)));
  if (!row) return DEFAULT_SETTINGS;
  const bit = (v: number) => (v === 0 ? 0 : 1);
  return { msg_fp: bit(row.msgFp), msg_xjht: bit(row.msgXjht), msg_xjgd: bit(row.msgXjgd), msg_sftx: bit(row.msgSftx) };
}

export const messageModule: ServerModule = {
  name: 'message',
  calls: [
    // The bell (foundation.md §7): at most 3 messages not yet marked known, newest first.
    serve(selectNewsCall, async ({ session, tx }) => {
      if (session.agencyId === null) return { list: [], total: 0 };
      const where = and(own(session), eq(messages.known, false));
      const rows = await tx
        .select()
        .from(messages)
        .where(where)
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(NEWS_MAX);
      const [total] = await tx.select({ n: count() }).from(messages).where(where);
      return { list: rows.map(newsItem), total: total?.n ?? 0 };
    }),

    serve(alertMessageInfoCall, async ({ body, session, tx }) => {
      const now = new Date();
      if (session.agencyId === null) return { list: [], pushTime: now.toISOString() };
      const since = body.pushTime ? new Date(body.pushTime) : new Date(now.getTime() - 24 * 3600_000);
      const rows = await tx
        .select()
        .from(messages)
        .where(and(own(session), eq(messages.known, false), gt(messages.createdAt, since)))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(NEWS_MAX);
      return { list: rows.map(newsItem), pushTime: now.toISOString() };
    }),

    // Every id must be the caller's own message, else nothing changes (404).
    serve(markNewsKnownCall, async ({ body, session, tx }) => {
      if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, '消息不存在');
      const found = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(and(own(session), inArray(messages.id, body.ids)));
      if (found.length !== body.ids.length) throw new AppError(CODE.NOT_FOUND, '消息不存在');
      await tx
        .update(messages)
        .set({ known: true })
        .where(and(own(session), inArray(messages.id, body.ids)));
      return { count: found.length };
    }),

    serve(selectMsgListCall, async ({ body, session, tx }) => {
      const empty = new Answer(CODE.EMPTY, NO_MESSAGE_TEXT, { list: [], total: 0, cursor: { next: null, prev: null } });
      if (session.agencyId === null) return empty;
      const { pageNo, pageSize, cursor, ...filter } = body;
      const where = and(own(session), eq(messages.msgStyleBig, body.msg_style_big)) as SQL;
      // Newest first: the index (user_id, msg_style_big, created_at, id).
      const page = await listPage(
        tx,
        {
          from: sql`${messages}`,
          where,
          sort: { name: 'created', keys: [messages.createdAt, messages.id], desc: true },
          ask: { pageNo, pageSize, cursor },
          filter,
        },
        (ids) => tx.select().from(messages).where(inArray(messages.id, ids)),
      );
      if (page.total === 0) return empty;
      return {
        list: page.list.map((r) => ({
          id: r.id,
          content: r.content,
          createTime: r.createdAt.toISOString(),
          msgStyleSmall: r.msgStyleSmall,
          targetId: r.targetId,
          known: r.known,
        })),
        total: page.total,
        cursor: page.cursor,
      };
    }),

    serve(getMsgSettingsCall, async ({ session, tx }) => settingsOf(tx, session)),

    serve(updateMsgSettingsCall, async ({ body, session, tx, req }) => {
      if (session.agencyId === null) throw new AppError(CODE.BAD_REQUEST, NO_AGENCY_MSG);
      if (
        session.orgType === 'kjgc' &&
        (body.msg_xjht !== undefined || body.msg_xjgd !== undefined || body.msg_sftx !== undefined)
      ) {
        throw new AppError(CODE.BAD_REQUEST, KJGC_SETTING_ONLY_MSG);
      }
      const before = await settingsOf(tx, session);
      const next: MsgSettings = {
        msg_fp: body.msg_fp ?? before.msg_fp,
        msg_xjht: body.msg_xjht ?? before.msg_xjht,
        msg_xjgd: body.msg_xjgd ?? before.msg_xjgd,
        msg_sftx: body.msg_sftx ?? before.msg_sftx,
      };
      const values = { msgFp: next.msg_fp, msgXjht: next.msg_xjht, msgXjgd: next.msg_xjgd, msgSftx: next.msg_sftx };
      await tx
        .insert(messageSettings)
        .values({ agencyId: session.agencyId, userId: session.userId, ...values })
        .onConflictDoUpdate({ target: [messageSettings.agencyId, messageSettings.userId], set: values });
      await audit(tx, req, session, 'message.settings', String(session.userId), { before, after: next });
      return next;
    }),

    ...announcementCalls,
    ...helpCalls,
  ],
  routes(app, deps) {
    registerPushSocket(app, deps);
    startDailySchedule(app, deps);
  },
  jobs: messageJobs,
};
