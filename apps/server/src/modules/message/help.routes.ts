import {
  CHAT_STATUS,
  CODE,
  createChatSessionCall,
  getHotlinesCall,
  getLastChatSessionCall,
  hasPerm,
  helpPanelHides,
  insertServiceLogCall,
  MSG,
  saveHotlinesCall,
  serviceEntListCall,
  updateChatSessionCall,
} from '@dzy/shared';
import { and, asc, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Queryable, setScope } from '../../db/client.js';
import { listPage, NO_CURSORS } from '../../db/paging.js';
import { chatSessions, enterprises, hotlines, memberships, organisations, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { type SessionCtx, scopeOf } from '../../plugins/session.js';
import { requireOperator } from './announcement.routes.js';

/** A chat session waits this long for the user; an older unanswered one is no longer offered. */
export const CHAT_PENDING_MS = 30 * 60_000;

const requireAgency = (session: SessionCtx): number => {
  if (session.agencyId === null) throw new AppError(CODE.BAD_REQUEST, '请先加入或创建代理机构');
  return session.agencyId;
};

type ChatRow = typeof chatSessions.$inferSelect;

async function chatItem(tx: Queryable, r: ChatRow) {
  const [ent] = r.qysh
    ? await tx
        .select({ qymc: enterprises.qymc })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, r.agencyId), eq(enterprises.qysh, r.qysh)))
        .limit(1)
    : [];
  return {
    id: r.id,
    qysh: r.qysh,
    qymc: ent?.qymc ?? '',
    url: r.url,
    status: r.status,
    createTime: r.createdAt.toISOString(),
  };
}

async function hotlineList(tx: Queryable, agencyId: number) {
  return tx
    .select({ id: hotlines.id, rxmc: hotlines.rxmc, rxnr: hotlines.rxnr })
    .from(hotlines)
    .where(eq(hotlines.agencyId, agencyId))
    .orderBy(asc(hotlines.sort), asc(hotlines.id));
}

export const helpCalls = [
  serve(getHotlinesCall, async ({ session, tx }) => {
    if (session.agencyId === null) return { list: [], showAiAndHotline: true, editable: false };
    const [agency] = await tx
      .select({ sssf: organisations.sssf, orgType: organisations.orgType })
      .from(organisations)
      .where(eq(organisations.id, session.agencyId));
    const show = !helpPanelHides({ sssf: agency?.sssf, orgType: agency?.orgType });
    return {
      list: show ? await hotlineList(tx, session.agencyId) : [],
      showAiAndHotline: show,
      editable: hasPerm(session.perms, 'agency:info:edit') && session.orgType !== 'kjgc',
    };
  }),

  // The administrator replaces the agency's hotline list as a whole.
  serve(saveHotlinesCall, async ({ body, session, tx, req }) => {
    const agencyId = requireAgency(session);
    if (session.orgType === 'kjgc') throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    const before = await hotlineList(tx, agencyId);
    await tx.delete(hotlines).where(eq(hotlines.agencyId, agencyId));
    if (body.list.length > 0) {
      await tx.insert(hotlines).values(body.list.map((h, i) => ({ agencyId, rxmc: h.rxmc, rxnr: h.rxnr, sort: i })));
    }
    const list = await hotlineList(tx, agencyId);
    await audit(tx, req, session, 'hotline.save', String(agencyId), {
      before: before.map(({ rxmc, rxnr }) => ({ rxmc, rxnr })),
      after: body.list,
    });
    return { list };
  }),

  // Platform customer service opens a session with a user; it is pushed to their open pages.
  serve(createChatSessionCall, async ({ body, session, tx, req, deps, afterCommit }) => {
    requireOperator(session);
    const [target] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, body.phone));
    if (!target) throw new AppError(CODE.NOT_FOUND, '该手机号尚未注册');
    await setScope(tx, { agencyId: null, userId: target.id, kjgcId: null });
    const [place] = await tx
      .select({ agencyId: memberships.agencyId })
      .from(memberships)
      .where(eq(memberships.userId, target.id))
      .orderBy(desc(memberships.isAdmin), asc(memberships.id))
      .limit(1);
    if (!place) throw new AppError(CODE.NOT_FOUND, '该用户尚未加入代理机构');
    await setScope(tx, { ...scopeOf(session), agencyId: place.agencyId });
    const [row] = await tx
      .insert(chatSessions)
      .values({ agencyId: place.agencyId, userId: target.id, qysh: body.qysh, url: body.url })
      .returning();
    if (!row) throw new Error('chat session insert returned nothing');
    const item = await chatItem(tx, row);
    await setScope(tx, scopeOf(session));
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'chat.create', String(row.id), {
      phone: body.phone,
      agencyId: place.agencyId,
    });
    afterCommit(() => deps.push.publish([target.id], { type: 'chat', data: { ...item, agencyId: place.agencyId } }));
    return { id: row.id };
  }),

  serve(getLastChatSessionCall, async ({ session, tx }) => {
    if (session.agencyId === null) return new Answer(CODE.EMPTY, '暂无会话', null);
    const [row] = await tx
      .select()
      .from(chatSessions)
      .where(
        and(
          eq(chatSessions.agencyId, session.agencyId),
          eq(chatSessions.userId, session.userId),
          eq(chatSessions.status, CHAT_STATUS.received),
          gt(chatSessions.createdAt, new Date(Date.now() - CHAT_PENDING_MS)),
        ),
      )
      .orderBy(desc(chatSessions.createdAt), desc(chatSessions.id))
      .limit(1);
    if (!row) return new Answer(CODE.EMPTY, '暂无会话', null);
    return chatItem(tx, row);
  }),

  serve(updateChatSessionCall, async ({ body, session, tx, req }) => {
    const agencyId = requireAgency(session);
    const [row] = await tx
      .select()
      .from(chatSessions)
      .where(
        and(eq(chatSessions.id, body.id), eq(chatSessions.agencyId, agencyId), eq(chatSessions.userId, session.userId)),
      )
      .for('update');
    if (!row) throw new AppError(CODE.NOT_FOUND, '会话不存在');
    if (row.status !== CHAT_STATUS.received) throw new AppError(CODE.CONFLICT, '该会话已处理');
    const [updated] = await tx
      .update(chatSessions)
      .set({ status: body.status })
      .where(eq(chatSessions.id, row.id))
      .returning();
    if (!updated) throw new AppError(CODE.NOT_FOUND, '会话不存在');
    await audit(tx, req, session, body.status === CHAT_STATUS.accepted ? 'chat.accept' : 'chat.refuse', String(row.id));
    return chatItem(tx, updated);
  }),

  // The enterprise chooser of online service: the caller's data scope, by name or tax number.
  serve(serviceEntListCall, async ({ body, session, tx }) => {
    const agencyId = session.agencyId;
    if (agencyId === null) return new Answer(CODE.EMPTY, '暂无企业', { list: [], total: 0, cursor: NO_CURSORS });
    const q = body.qymc;
    const where = and(
      eq(enterprises.agencyId, agencyId),
      isNull(enterprises.deletedAt),
      dataScope(session, enterprises.allocateUser),
      nameOrTaxNumber(enterprises.qymc, enterprises.qysh, q),
    );
    const { pageNum, pageSize, cursor, ...filter } = body;
    // By name in the index's order (enterprises_agency_name_id_idx), as the enterprise chooser.
    const sort = { name: 'qymc', keys: [enterprises.qymc, enterprises.id], desc: false };
    const page = await listPage(
      tx,
      { from: sql`${enterprises}`, where: where as SQL, sort, ask: { pageNo: pageNum, pageSize, cursor }, filter },
      (ids) =>
        tx
          .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh, qybm: enterprises.qybm })
          .from(enterprises)
          .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, ids))),
    );
    return { ...page, list: page.list.map((r) => ({ id: r.id, qymc: r.qymc, qysh: r.qysh || r.qybm })) };
  }),

  // Online service for one enterprise: recorded for the service team, who then open a session.
  serve(insertServiceLogCall, async ({ body, session, tx, req }) => {
    const agencyId = requireAgency(session);
    const [ent] = await tx
      .select({ id: enterprises.id, qymc: enterprises.qymc })
      .from(enterprises)
      .where(
        and(
          eq(enterprises.agencyId, agencyId),
          isNull(enterprises.deletedAt),
          or(eq(enterprises.qysh, body.qysh), eq(enterprises.qybm, body.qysh)),
          dataScope(session, enterprises.allocateUser),
        ),
      )
      .limit(1);
    if (!ent) throw new AppError(CODE.NOT_FOUND, '企业不存在或不在您的客户范围内');
    await audit(tx, req, session, 'webcall.request', String(ent.id), { qysh: body.qysh, qymc: ent.qymc });
    return { qymc: ent.qymc };
  }),
];
