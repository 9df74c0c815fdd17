import {
  CODE,
  deleteAnnouncementCall,
  listAnnouncementsAdminCall,
  MSG,
  NO_MESSAGE_TEXT,
  provinceOf,
  publishAnnouncementCall,
  selectAnnouncementsCall,
  sendSystemMsgCall,
} from '@dzy/shared';
import { and, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { setScope } from '../../db/client.js';
import { listPage, NO_CURSORS } from '../../db/paging.js';
import { announcements, memberships, organisations, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { type SessionCtx, scopeOf } from '../../plugins/session.js';
import { regionName } from '../org/regions.js';
import { notifyEvent } from './notify.js';
import { backgroundImageOf, hasVisibleContent, sanitizeAnnouncement } from './sanitize.js';

/** Platform calls: the operator-only permission, and the operator flag checked again here. */
export function requireOperator(session: SessionCtx) {
  if (!session.isOperator) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
}

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type AnnouncementRow = typeof announcements.$inferSelect;

/** What readers get: the content sanitised again on the way out (defence in depth). */
function shown(r: AnnouncementRow) {
  const messageInfo = sanitizeAnnouncement(r.messageInfo);
  return {
    id: r.id,
    messageTitle: r.messageTitle,
    fbTime: r.fbTime.toISOString(),
    messageInfo,
    bgImage: backgroundImageOf(messageInfo),
  };
}

/** Newest first (index announcements_fb_time_idx on fb_time, id). */
const NEWEST = { name: 'fbTime', keys: [announcements.fbTime, announcements.id], desc: true };

export const announcementCalls = [
  // Announcements for everyone and for the province of the caller's agency, newest first.
  serve(selectAnnouncementsCall, async ({ body, session, tx }) => {
    let province = '';
    if (session.agencyId !== null) {
      const [agency] = await tx
        .select({ sssf: organisations.sssf })
        .from(organisations)
        .where(eq(organisations.id, session.agencyId));
      province = provinceOf(agency?.sssf);
    }
    const where = province
      ? or(isNull(announcements.sssf), eq(announcements.sssf, province))
      : isNull(announcements.sssf);
    const { pageNo, pageSize, cursor } = body;
    const page = await listPage(
      tx,
      {
        from: sql`${announcements}`,
        where: where as SQL,
        sort: NEWEST,
        ask: { pageNo, pageSize, cursor },
        filter: province,
      },
      (ids) => tx.select().from(announcements).where(inArray(announcements.id, ids)),
    );
    if (page.total === 0) return new Answer(CODE.EMPTY, NO_MESSAGE_TEXT, { list: [], total: 0, cursor: NO_CURSORS });
    return { ...page, list: page.list.map(shown) };
  }),

  serve(publishAnnouncementCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const messageInfo = sanitizeAnnouncement(body.messageInfo);
    if (!hasVisibleContent(messageInfo)) throw new AppError(CODE.BAD_REQUEST, '公告内容：请输入公告内容');
    if (body.sssf && !regionName(body.sssf)) throw new AppError(CODE.BAD_REQUEST, '省份：请选择省份');
    const [row] = await tx
      .insert(announcements)
      .values({ messageTitle: body.messageTitle, messageInfo, sssf: body.sssf || null, publisherId: session.userId })
      .returning({ id: announcements.id });
    if (!row) throw new Error('announcement insert returned nothing');
    await audit(tx, req, session, 'announcement.publish', String(row.id), {
      messageTitle: body.messageTitle,
      sssf: body.sssf || null,
      sanitised: messageInfo.length !== body.messageInfo.trim().length,
    });
    return { id: row.id };
  }),

  serve(listAnnouncementsAdminCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const filters: SQL[] = [];
    if (body.keyword) filters.push(ilike(announcements.messageTitle, contains(body.keyword)));
    if (body.sssf === '') filters.push(isNull(announcements.sssf));
    else if (body.sssf && body.sssf !== 'all') filters.push(eq(announcements.sssf, body.sssf));
    const where = filters.length ? (and(...filters) as SQL) : sql`true`;
    const { pageNo, pageSize, cursor, ...filter } = body;
    const sort = { ...NEWEST, desc: body.sortOrder !== 'ascend' };
    const page = await listPage(
      tx,
      { from: sql`${announcements}`, where, sort, ask: { pageNo, pageSize, cursor }, filter },
      async (ids) =>
        (
          await tx
            .select({ a: announcements, publisherName: users.hymc, publisherPhone: users.phone })
            .from(announcements)
            .leftJoin(users, eq(users.id, announcements.publisherId))
            .where(inArray(announcements.id, ids))
        ).map((r) => ({ ...r, id: r.a.id })),
    );
    return {
      cursor: page.cursor,
      total: page.total,
      list: page.list.map(({ a, publisherName, publisherPhone }) => ({
        ...shown(a),
        sssf: a.sssf ?? '',
        provinceName: a.sssf ? regionName(a.sssf) || a.sssf : '全部机构',
        publisherName: publisherName || publisherPhone || '',
      })),
    };
  }),

  serve(deleteAnnouncementCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const [row] = await tx.delete(announcements).where(eq(announcements.id, body.id)).returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, '公告不存在或已删除');
    await audit(tx, req, session, 'announcement.delete', String(row.id), { messageTitle: row.messageTitle });
    return null;
  }),

  // A system reminder from the platform to one user, in every agency they work in.
  serve(sendSystemMsgCall, async ({ body, session, tx, req, deps, afterCommit }) => {
    requireOperator(session);
    const [target] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, body.phone));
    if (!target) throw new AppError(CODE.NOT_FOUND, '该手机号尚未注册');
    // Read the target's memberships as them (row-level security shows a user their own).
    await setScope(tx, { agencyId: null, userId: target.id, kjgcId: null });
    const places = await tx
      .selectDistinct({ agencyId: memberships.agencyId })
      .from(memberships)
      .where(eq(memberships.userId, target.id));
    if (places.length === 0) throw new AppError(CODE.NOT_FOUND, '该用户尚未加入代理机构');
    let created = 0;
    for (const { agencyId } of places) {
      await setScope(tx, { ...scopeOf(session), agencyId });
      const sent = await notifyEvent(tx, deps.push, afterCommit, {
        event: 'reminder',
        agencyId,
        userIds: [target.id],
        detail: body.content,
      });
      created += sent.length;
    }
    await setScope(tx, scopeOf(session));
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'message.system', String(target.id), {
      phone: body.phone,
      content: body.content,
      agencies: places.map((p) => p.agencyId),
    });
    return { count: created };
  }),
];
