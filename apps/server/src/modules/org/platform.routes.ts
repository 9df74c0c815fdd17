import {
  AGENCY_NAME_TAKEN_MSG,
  APPLY_STATUS,
  approveAgencyApplyCall,
  CODE,
  deleteWhiteOrderCall,
  fieldLabel,
  listAgencyApplyCall,
  listWhiteOrderCall,
  MSG,
  rejectAgencyApplyCall,
  saveWhiteOrderCall,
  WHITELIST_TYPE_NAMES,
  type WhitelistType,
} from '@dzy/shared';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Queryable, setScope } from '../../db/client.js';
import { countOf, listPage, pageIds, type Sort } from '../../db/paging.js';
import { agencyApplications, organisations, users, whitelistOrders } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { type SessionCtx, scopeOf } from '../../plugins/session.js';
import { provisionAgency } from './provision.js';
import { regionCities, regionName, regionText } from './regions.js';

const APPLICANT = 'applicant';
const applicant = alias(users, APPLICANT);
const reviewer = alias(users, 'reviewer');

/** A LIKE pattern matching `text` anywhere, with its wildcards taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Platform calls are for operators only: a second check besides the operator-only permission. */
function requireOperator(session: SessionCtx) {
  if (!session.isOperator) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
}

const APPLY_NOT_FOUND = '申请不存在';
const APPLY_DONE = '该申请已审核，请刷新列表';

/** The application, locked for this transaction; 404 when unknown, 409 when already reviewed. */
async function pendingApplication(tx: Queryable, id: number) {
  const [row] = await tx
    .select({ a: agencyApplications, phone: applicant.phone })
    .from(agencyApplications)
    .innerJoin(applicant, eq(applicant.id, agencyApplications.applicantId))
    .where(eq(agencyApplications.id, id))
    .for('update', { of: agencyApplications });
  if (!row) throw new AppError(CODE.NOT_FOUND, APPLY_NOT_FOUND);
  if (row.a.status !== APPLY_STATUS.pending) throw new AppError(CODE.CONFLICT, APPLY_DONE);
  return row;
}

/** Whether `busiVal` names a province (6-digit code) or an agency (its id); its name, or null. */
async function busiName(tx: Queryable, busiVal: string): Promise<string | null> {
  if (/^\d{2}0000$/.test(busiVal) && regionCities(busiVal)) return regionName(busiVal);
  if (!/^[1-9]\d{0,9}$/.test(busiVal) || Number(busiVal) > 2_147_483_647) return null;
  const [org] = await tx
    .select({ name: organisations.name, orgType: organisations.orgType })
    .from(organisations)
    .where(eq(organisations.id, Number(busiVal)));
  return org && org.orgType !== 'kjgc' ? org.name : null;
}

export const platformCalls = [
  serve(listAgencyApplyCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const filters: SQL[] = [];
    if (body.status !== undefined) filters.push(eq(agencyApplications.status, body.status));
    if (body.keyword) {
      const like = contains(body.keyword);
      const any = or(
        ilike(agencyApplications.agencyName, like),
        ilike(agencyApplications.agencyTax, like),
        ilike(applicant.phone, like),
      );
      if (any) filters.push(any);
    }
    const where = filters.length ? (and(...filters) as SQL) : sql`true`;
    const { pageNo, pageSize, cursor, ...filter } = body;
    // The applicant's table only for a keyword (their phone); one aggregate gives the total and the pending badge.
    const from = body.keyword
      ? sql`${agencyApplications} join ${users} as ${sql.identifier(APPLICANT)} on ${applicant.id} = ${agencyApplications.applicantId}`
      : sql`${agencyApplications}`;
    const descending = body.sortOrder !== 'ascend';
    // Not yet reviewed sorts last either way (as nulls last did): keys must not be null.
    const reviewed = sql`coalesce(${agencyApplications.reviewedAt}, ${descending ? '-infinity' : 'infinity'}::timestamptz)`;
    const sort: Sort =
      body.sortField === 'reviewedAt'
        ? { name: 'reviewedAt', keys: [reviewed, agencyApplications.id], desc: descending }
        : body.sortField === 'agencyName'
          ? { name: 'agencyName', keys: [agencyApplications.agencyName, agencyApplications.id], desc: descending }
          : { name: 'createdAt', keys: [agencyApplications.createdAt, agencyApplications.id], desc: descending };
    const { sums } = await countOf(tx, from, sql`true`, {
      matching: sql`count(*) filter (where ${where})`,
      pending: sql`count(*) filter (where ${agencyApplications.status} = ${APPLY_STATUS.pending})`,
    });
    const matching = Number(sums.matching);
    const page = await pageIds(tx, {
      from,
      where,
      sort,
      ask: { pageNo, pageSize, cursor },
      filter,
      total: async () => matching,
    });
    const found = page.ids.length
      ? await tx
          .select({
            a: agencyApplications,
            applicantPhone: applicant.phone,
            applicantName: applicant.hymc,
            reviewerName: reviewer.hymc,
          })
          .from(agencyApplications)
          .innerJoin(applicant, eq(applicant.id, agencyApplications.applicantId))
          .leftJoin(reviewer, eq(reviewer.id, agencyApplications.reviewerId))
          .where(inArray(agencyApplications.id, page.ids))
      : [];
    const byId = new Map(found.map((r) => [r.a.id, r]));
    const rows = page.ids.flatMap((id) => byId.get(id) ?? []);
    return {
      list: rows.map(({ a, ...r }) => ({
        id: a.id,
        agencyName: a.agencyName,
        agencyTax: a.agencyTax,
        agencyType: a.agencyType,
        sssf: a.sssf,
        ssds: a.ssds,
        ssqx: a.ssqx,
        regionName: regionText(a.sssf, a.ssds, a.ssqx),
        address: a.address,
        agencyScale: a.agencyScale,
        staffNum: a.staffNum,
        link: a.link,
        linkPhone: a.linkPhone,
        status: a.status as 0 | 1 | 2,
        reason: a.reason,
        applicantPhone: r.applicantPhone,
        applicantName: r.applicantName,
        reviewerName: r.reviewerName,
        reviewedAt: a.reviewedAt?.toISOString() ?? null,
        agencyId: a.agencyId,
        createdAt: a.createdAt.toISOString(),
      })),
      total: matching,
      pendingCount: Number(sums.pending),
      cursor: page.cursor,
    };
  }),

  // Creates the organisation with the applicant as its administrator (provisionAgency).
  serve(approveAgencyApplyCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const { a, phone } = await pendingApplication(tx, body.id);
    const [taken] = await tx
      .select({ id: organisations.id })
      .from(organisations)
      .where(eq(organisations.name, a.agencyName))
      .limit(1);
    if (taken) throw new AppError(CODE.CONFLICT, `${AGENCY_NAME_TAKEN_MSG}，请驳回该申请`);
    const [org] = await tx
      .insert(organisations)
      .values({
        orgType: a.agencyType,
        name: a.agencyName,
        taxNo: a.agencyTax,
        sssf: a.sssf,
        ssds: a.ssds,
        ssqx: a.ssqx,
        address: a.address,
        scale: a.agencyScale,
        staffNum: a.staffNum,
        link: a.link,
        linkPhone: a.linkPhone,
      })
      .returning({ id: organisations.id });
    if (!org) throw new Error('organisation insert returned nothing');
    // Row-level security admits the new agency's roles, posts and memberships only in its own scope.
    await setScope(tx, { ...scopeOf(session), agencyId: org.id });
    await provisionAgency(tx, org.id, a.applicantId);
    await tx
      .update(agencyApplications)
      .set({ status: APPLY_STATUS.approved, reviewerId: session.userId, reviewedAt: new Date(), agencyId: org.id })
      .where(eq(agencyApplications.id, a.id));
    await audit(tx, req, { agencyId: org.id, userId: session.userId }, 'platform.agency_approve', String(a.id), {
      agencyName: a.agencyName,
      applicantId: a.applicantId,
    });
    await deps.sms.send(
      tx,
      phone,
      `【代账云】您申请创建的${a.agencyType === 'kjgc' ? '会计工厂' : '代理机构'}“${a.agencyName}”已审核通过，您是该机构的管理员，请登录后使用。`,
    );
    return { agencyId: org.id };
  }),

  serve(rejectAgencyApplyCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const { a, phone } = await pendingApplication(tx, body.id);
    await tx
      .update(agencyApplications)
      .set({ status: APPLY_STATUS.rejected, reason: body.reason, reviewerId: session.userId, reviewedAt: new Date() })
      .where(eq(agencyApplications.id, a.id));
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'platform.agency_reject', String(a.id), {
      agencyName: a.agencyName,
      reason: body.reason,
    });
    await deps.sms.send(
      tx,
      phone,
      `【代账云】您申请创建的代理机构“${a.agencyName}”未通过审核，原因：${body.reason}。您可修改后重新提交申请。`,
    );
    return null;
  }),

  serve(listWhiteOrderCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const filters: SQL[] = [];
    if (body.type) filters.push(eq(whitelistOrders.type, body.type));
    if (body.busiVal) filters.push(eq(whitelistOrders.busiVal, body.busiVal));
    const where = filters.length ? (and(...filters) as SQL) : sql`true`;
    const { pageNo, pageSize, cursor, ...filter } = body;
    const sort = { name: 'createdAt', keys: [whitelistOrders.createdAt, whitelistOrders.id], desc: true };
    const ask = { pageNo, pageSize, cursor };
    const {
      list: rows,
      total,
      cursor: cursors,
    } = await listPage(tx, { from: sql`${whitelistOrders}`, where, sort, ask, filter }, (ids) =>
      tx.select().from(whitelistOrders).where(inArray(whitelistOrders.id, ids)),
    );
    const orgIds = rows.flatMap((r) =>
      /^[1-9]\d{0,9}$/.test(r.busiVal) && !/^\d{2}0000$/.test(r.busiVal) ? [Number(r.busiVal)] : [],
    );
    const orgs = orgIds.length
      ? await tx
          .select({ id: organisations.id, name: organisations.name })
          .from(organisations)
          .where(inArray(organisations.id, orgIds))
      : [];
    const orgName = new Map(orgs.map((o) => [String(o.id), o.name]));
    return {
      list: rows.map((r) => ({
        id: r.id,
        type: r.type as WhitelistType,
        typeName: WHITELIST_TYPE_NAMES[r.type as WhitelistType] ?? r.type,
        busiVal: r.busiVal,
        busiName: regionName(r.busiVal) || orgName.get(r.busiVal) || '',
        createdAt: r.createdAt.toISOString(),
      })),
      total,
      cursor: cursors,
    };
  }),

  serve(saveWhiteOrderCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const name = await busiName(tx, body.busiVal);
    if (name === null)
      throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('busiVal')}：请输入代理机构ID或省份编码（如130000）`);
    const [row] = await tx
      .insert(whitelistOrders)
      .values({ type: body.type, busiVal: body.busiVal })
      .onConflictDoNothing()
      .returning({ id: whitelistOrders.id });
    if (!row) throw new AppError(CODE.CONFLICT, '该白名单已存在');
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'platform.whiteorder_add', String(row.id), {
      type: body.type,
      busiVal: body.busiVal,
      busiName: name,
    });
    return { id: row.id };
  }),

  serve(deleteWhiteOrderCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const [row] = await tx.delete(whitelistOrders).where(eq(whitelistOrders.id, body.id)).returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, '白名单不存在');
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'platform.whiteorder_delete', String(row.id), {
      type: row.type,
      busiVal: row.busiVal,
    });
    return null;
  }),
];
