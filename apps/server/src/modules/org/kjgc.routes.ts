import {
  AGENCY_APPLY_PENDING_MSG,
  AGENCY_NAME_TAKEN_MSG,
  APPLY_STATUS,
  BIND_STATUS,
  BIND_STATUS_NAMES,
  CODE,
  decideBindCall,
  endBindCall,
  fieldLabel,
  getAgencyInfoListCall,
  getEntListCall,
  getTgDLSAndTgKHCall,
  getUserKjgcRelationCall,
  handoverCall,
  KJGC_MSG,
  requestBindCall,
  saveKjgcApplyInfoCall,
  switchKjgcAgencyCall,
  TGKH_PREVIEW,
  takeBackCall,
} from '@dzy/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { listPage } from '../../db/paging.js';
import {
  agencyApplications,
  enterprises,
  kjgcBindings,
  kjgcHandovers,
  memberships,
  organisations,
  sessions,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { clientKeyword } from '../../lib/search.js';
import { requireWhitelist } from '../../lib/whitelist.js';
import { serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { requireDictValue } from '../system/dict.routes.js';
import { agencyNameTaken } from './agency.routes.js';
import { agencySideOf, boundAgencies, factoryOf, inAgency, reselectAgency } from './kjgc.service.js';
import { regionChainValid } from './regions.js';

const factory = alias(organisations, 'kjgc_org');
const agency = alias(organisations, 'agency_org');
const bindNotFound = () => new AppError(CODE.NOT_FOUND, KJGC_MSG.bindNotFound);

export const kjgcCalls = [
  // Like an agency application, with type kjgc; the operator reviews it on the same page (入驻审核).
  serve(saveKjgcApplyInfoCall, async ({ body, session, tx, req }) => {
    const chain = regionChainValid(body.sssf, body.ssds, body.ssqx);
    if (chain === 'city') throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('ssds')}：请选择地区`);
    if (chain === 'county') throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('ssqx')}：请选择区县`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agency_apply'), ${session.userId})`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agency_name'), hashtext(${body.agencyName}))`);
    const [pending] = await tx
      .select({ id: agencyApplications.id })
      .from(agencyApplications)
      .where(
        and(eq(agencyApplications.applicantId, session.userId), eq(agencyApplications.status, APPLY_STATUS.pending)),
      )
      .limit(1);
    if (pending) throw new AppError(CODE.CONFLICT, AGENCY_APPLY_PENDING_MSG);
    if (await agencyNameTaken(tx, body.agencyName)) throw new AppError(CODE.CONFLICT, AGENCY_NAME_TAKEN_MSG);
    // The schema lets any 1-999 through (the operator may extend 机构规模): only an enabled dictionary code is kept.
    await requireDictValue(tx, 'agency_scale', String(body.agencyScale), '机构规模', '请选择机构规模');
    const [row] = await tx
      .insert(agencyApplications)
      .values({
        applicantId: session.userId,
        agencyName: body.agencyName,
        agencyTax: body.agencyTax,
        agencyType: 'kjgc',
        sssf: body.sssf,
        ssds: body.ssds,
        ssqx: body.ssqx,
        address: body.address,
        agencyScale: body.agencyScale,
        staffNum: body.staffNum,
        link: body.link || session.hymc,
        linkPhone: body.linkPhone ?? session.phone,
      })
      .returning({ id: agencyApplications.id });
    if (!row) throw new Error('application insert returned nothing');
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'kjgc.apply', String(row.id), {
      agencyName: body.agencyName,
      agencyTax: body.agencyTax,
    });
    return new Answer(CODE.OK, KJGC_MSG.applyOk, { id: row.id });
  }),

  serve(getUserKjgcRelationCall, async ({ session, tx }) => {
    const [apply] = await tx
      .select({ status: agencyApplications.status, reason: agencyApplications.reason })
      .from(agencyApplications)
      .where(and(eq(agencyApplications.applicantId, session.userId), eq(agencyApplications.agencyType, 'kjgc')))
      .orderBy(desc(agencyApplications.createdAt), desc(agencyApplications.id))
      .limit(1);
    const isKjgc = session.orgType === 'kjgc';
    const agencies = isKjgc && session.orgId !== null ? await boundAgencies(tx, session.orgId) : [];
    const current = agencies.find((a) => a.agencyId === session.kjgcDlsId);
    // The bound agency's administrator (foundation.md §3: kjgcDlsYhId, kjgcDlsSjh), read in its tenant.
    const [admin] = current
      ? await tx
          .select({ id: users.id, phone: users.phone })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(and(eq(memberships.orgId, current.agencyId), eq(memberships.isAdmin, true)))
          .limit(1)
      : [];
    return {
      isKjgc,
      kjgcId: isKjgc ? session.orgId : null,
      kjgcMc: isKjgc ? session.orgName : null,
      kjgcDlsId: current?.agencyId ?? null,
      kjgcDlsMc: current?.agencyName ?? null,
      kjgcDlsYhId: admin?.id ?? null,
      kjgcDlsSjh: admin?.phone ?? null,
      agencies: agencies.map(({ agencyId, agencyName, agencyTax }) => ({ agencyId, agencyName, agencyTax })),
      applyStatus: (apply?.status as 0 | 1 | 2 | undefined) ?? null,
      applyReason: apply ? apply.reason : null,
    };
  }),

  // The factory's agencies, each with the clients it handed over (the first TGKH_PREVIEW; the rest by getEntList).
  serve(getTgDLSAndTgKHCall, async ({ session, tx }) => {
    const kjgcId = factoryOf(session);
    const agencies = await boundAgencies(tx, kjgcId);
    const list = [];
    for (const a of agencies) {
      const clients = await inAgency(tx, session, a.agencyId, async () => {
        const [count] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(kjgcHandovers)
          .where(and(eq(kjgcHandovers.kjgcId, kjgcId), eq(kjgcHandovers.agencyId, a.agencyId)));
        const rows = await tx
          .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
          .from(kjgcHandovers)
          .innerJoin(enterprises, eq(enterprises.id, kjgcHandovers.enterpriseId))
          .where(and(eq(kjgcHandovers.kjgcId, kjgcId), eq(kjgcHandovers.agencyId, a.agencyId)))
          .orderBy(desc(kjgcHandovers.createdAt), desc(kjgcHandovers.enterpriseId))
          .limit(TGKH_PREVIEW);
        return { count: count?.n ?? 0, rows };
      });
      list.push({
        agencyId: a.agencyId,
        agencyName: a.agencyName,
        agencyTax: a.agencyTax,
        current: a.agencyId === session.kjgcDlsId,
        tgkhCount: clients.count,
        tgkh: clients.rows,
      });
    }
    return { list };
  }),

  serve(getEntListCall, async ({ body, session, tx }) => {
    const { pageNo, pageSize, cursor, ...filter } = body;
    const filters: SQL[] = [];
    let agencyId: number;
    if (session.orgType === 'kjgc') {
      const kjgcId = factoryOf(session);
      const target = body.agencyId ?? session.kjgcDlsId;
      const bound = await boundAgencies(tx, kjgcId);
      if (target === null || !bound.some((a) => a.agencyId === target)) throw bindNotFound();
      agencyId = target;
      filters.push(eq(kjgcHandovers.kjgcId, kjgcId));
    } else {
      agencyId = await agencySideOf(tx, session);
      if (body.kjgcId !== undefined) filters.push(eq(kjgcHandovers.kjgcId, body.kjgcId));
    }
    filters.push(eq(kjgcHandovers.agencyId, agencyId));
    if (body.keyword) {
      const any = clientKeyword(body.keyword);
      if (any) filters.push(any);
    }
    const where = and(...filters) as SQL;
    // The clients join only for a keyword: without one it filters nothing, and it would run the factory's
    // policy on enterprises over every hand-over for the count (bench 53: 2.5 s → 0.13 s at 100,000).
    const from = body.keyword
      ? sql`${kjgcHandovers} join ${enterprises} on ${enterprises.id} = ${kjgcHandovers.enterpriseId}`
      : sql`${kjgcHandovers}`;
    const sort = { name: 'handedAt', keys: [kjgcHandovers.createdAt, kjgcHandovers.enterpriseId], desc: true };
    return inAgency(tx, session, agencyId, async () => {
      const page = await listPage(tx, { from, where, sort, ask: { pageNo, pageSize, cursor }, filter }, (ids) =>
        tx
          .select({
            id: enterprises.id,
            qymc: enterprises.qymc,
            qysh: enterprises.qysh,
            agencyId: kjgcHandovers.agencyId,
            kjgcId: kjgcHandovers.kjgcId,
            kjgcMc: factory.name,
            handedAt: kjgcHandovers.createdAt,
          })
          .from(kjgcHandovers)
          .innerJoin(enterprises, eq(enterprises.id, kjgcHandovers.enterpriseId))
          .innerJoin(factory, eq(factory.id, kjgcHandovers.kjgcId))
          .where(inArray(kjgcHandovers.enterpriseId, ids)),
      );
      return { ...page, list: page.list.map((r) => ({ ...r, handedAt: r.handedAt.toISOString() })) };
    });
  }),

  // Both sides list their relations: an agency its factories, a factory its agencies.
  serve(getAgencyInfoListCall, async ({ body, session, tx }) => {
    const { pageNo, pageSize, cursor, ...filter } = body;
    const side =
      session.orgType === 'kjgc'
        ? eq(kjgcBindings.kjgcId, factoryOf(session))
        : eq(kjgcBindings.agencyId, await agencySideOf(tx, session));
    const where = (body.status === undefined ? side : and(side, eq(kjgcBindings.status, body.status))) as SQL;
    const sort = { name: 'createdAt', keys: [kjgcBindings.createdAt, kjgcBindings.id], desc: true };
    const page = await listPage(
      tx,
      { from: sql`${kjgcBindings}`, where, sort, ask: { pageNo, pageSize, cursor }, filter },
      (ids) =>
        tx
          .select({
            b: kjgcBindings,
            kjgcMc: factory.name,
            kjgcTax: factory.taxNo,
            agencyName: agency.name,
            agencyTax: agency.taxNo,
            tgkhCount: sql<number>`(select count(*)::int from ${kjgcHandovers} where ${kjgcHandovers.bindingId} = ${kjgcBindings.id})`,
          })
          .from(kjgcBindings)
          .innerJoin(factory, eq(factory.id, kjgcBindings.kjgcId))
          .innerJoin(agency, eq(agency.id, kjgcBindings.agencyId))
          .where(inArray(kjgcBindings.id, ids))
          .then((rows) => rows.map((r) => ({ ...r, id: r.b.id }))),
    );
    return {
      total: page.total,
      cursor: page.cursor,
      list: page.list.map(({ b, ...r }) => ({
        id: b.id,
        kjgcId: b.kjgcId,
        kjgcMc: r.kjgcMc,
        kjgcTax: r.kjgcTax,
        agencyId: b.agencyId,
        agencyName: r.agencyName,
        agencyTax: r.agencyTax,
        status: b.status as 0 | 1 | 2 | 3,
        statusName: BIND_STATUS_NAMES[b.status] ?? '',
        tgkhCount: r.tgkhCount,
        // The agency this session acts for (a factory's choice is per session: migration 0039).
        current: b.status === BIND_STATUS.bound && session.orgType === 'kjgc' && b.agencyId === session.kjgcDlsId,
        createdAt: b.createdAt.toISOString(),
        decidedAt: b.decidedAt?.toISOString() ?? null,
        endedAt: b.endedAt?.toISOString() ?? null,
      })),
    };
  }),

  // The factory asks an agency (found by its tax number, on the dljghdkjgcmenu white list) to bind.
  serve(requestBindCall, async ({ body, session, tx, req }) => {
    const kjgcId = factoryOf(session);
    const [target] = await tx
      .select({ id: organisations.id, name: organisations.name })
      .from(organisations)
      .where(and(eq(organisations.taxNo, body.agencyTax), inArray(organisations.orgType, ['dls', 'kd'])))
      .limit(1);
    if (!target) throw new AppError(CODE.NOT_FOUND, KJGC_MSG.agencyUnknown);
    await requireWhitelist(tx, target.id, 'dljghdkjgcmenu', KJGC_MSG.agencyNotOpen);
    const [row] = await tx
      .insert(kjgcBindings)
      .values({ kjgcId, agencyId: target.id, requestedBy: session.userId })
      .onConflictDoNothing()
      .returning({ id: kjgcBindings.id });
    if (!row) throw new AppError(CODE.CONFLICT, KJGC_MSG.bindExists);
    await audit(tx, req, session, 'kjgc.bind_request', String(row.id), { kjgcId, agencyId: target.id });
    return { id: row.id };
  }),

  // The agency's administrator accepts or refuses; on acceptance an unbound factory starts acting for it.
  serve(decideBindCall, async ({ body, session, tx, req }) => {
    const agencyId = await agencySideOf(tx, session);
    const [b] = await tx
      .select()
      .from(kjgcBindings)
      .where(and(eq(kjgcBindings.id, body.id), eq(kjgcBindings.agencyId, agencyId)))
      .for('update');
    if (!b) throw bindNotFound();
    if (b.status !== BIND_STATUS.pending) throw new AppError(CODE.CONFLICT, KJGC_MSG.bindNotPending);
    await tx
      .update(kjgcBindings)
      .set({
        status: body.accept ? BIND_STATUS.bound : BIND_STATUS.refused,
        decidedBy: session.userId,
        decidedAt: new Date(),
      })
      .where(eq(kjgcBindings.id, b.id));
    if (body.accept) {
      await tx
        .update(organisations)
        .set({ kjgcDlsId: agencyId })
        .where(and(eq(organisations.id, b.kjgcId), isNull(organisations.kjgcDlsId)));
    }
    await audit(tx, req, session, body.accept ? 'kjgc.bind_accept' : 'kjgc.bind_refuse', String(b.id), {
      kjgcId: b.kjgcId,
    });
    return null;
  }),

  // Either side's administrator ends a binding (or withdraws a pending one); the clients come back at once.
  serve(endBindCall, async ({ body, session, tx, req }) => {
    const side =
      session.orgType === 'kjgc'
        ? eq(kjgcBindings.kjgcId, factoryOf(session))
        : eq(kjgcBindings.agencyId, await agencySideOf(tx, session));
    const [b] = await tx
      .select()
      .from(kjgcBindings)
      .where(and(eq(kjgcBindings.id, body.id), side))
      .for('update');
    if (!b) throw bindNotFound();
    if (b.status !== BIND_STATUS.bound && b.status !== BIND_STATUS.pending)
      throw new AppError(CODE.CONFLICT, KJGC_MSG.bindNotPending);
    // Handovers are the agency's rows: removed in its scope.
    const taken = await inAgency(tx, session, b.agencyId, () =>
      tx.delete(kjgcHandovers).where(eq(kjgcHandovers.bindingId, b.id)).returning({ id: kjgcHandovers.enterpriseId }),
    );
    await tx
      .update(kjgcBindings)
      .set({ status: BIND_STATUS.ended, endedBy: session.userId, endedAt: new Date() })
      .where(eq(kjgcBindings.id, b.id));
    await reselectAgency(tx, b.kjgcId, b.agencyId);
    await audit(tx, req, session, 'kjgc.unbind', String(b.id), {
      kjgcId: b.kjgcId,
      agencyId: b.agencyId,
      clientsTakenBack: taken.length,
    });
    return null;
  }),

  serve(handoverCall, async ({ body, session, tx, req }) => {
    const agencyId = await agencySideOf(tx, session);
    const [b] = await tx
      .select()
      .from(kjgcBindings)
      .where(and(eq(kjgcBindings.id, body.bindingId), eq(kjgcBindings.agencyId, agencyId)));
    if (!b) throw bindNotFound();
    if (b.status !== BIND_STATUS.bound) throw new AppError(CODE.CONFLICT, KJGC_MSG.bindNotBound);
    const ids = [...new Set(body.aeiIds)];
    const found = await tx
      .select({ id: enterprises.id, kjgcId: kjgcHandovers.kjgcId })
      .from(enterprises)
      .leftJoin(kjgcHandovers, eq(kjgcHandovers.enterpriseId, enterprises.id))
      .where(and(inArray(enterprises.id, ids), eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt)));
    if (found.length !== ids.length) throw new AppError(CODE.NOT_FOUND, KJGC_MSG.clientNotFound);
    if (found.some((f) => f.kjgcId !== null && f.kjgcId !== b.kjgcId))
      throw new AppError(CODE.CONFLICT, KJGC_MSG.clientTaken);
    const rows = await tx
      .insert(kjgcHandovers)
      .values(
        ids.map((id) => ({ enterpriseId: id, agencyId, kjgcId: b.kjgcId, bindingId: b.id, createdBy: session.userId })),
      )
      .onConflictDoNothing()
      .returning({ id: kjgcHandovers.enterpriseId });
    await audit(tx, req, session, 'kjgc.handover', String(b.id), { kjgcId: b.kjgcId, aeiIds: rows.map((r) => r.id) });
    return { count: rows.length };
  }),

  serve(takeBackCall, async ({ body, session, tx, req }) => {
    const agencyId = await agencySideOf(tx, session);
    const ids = [...new Set(body.aeiIds)];
    const rows = await tx
      .delete(kjgcHandovers)
      .where(and(inArray(kjgcHandovers.enterpriseId, ids), eq(kjgcHandovers.agencyId, agencyId)))
      .returning({ id: kjgcHandovers.enterpriseId, kjgcId: kjgcHandovers.kjgcId });
    if (!rows.length) throw new AppError(CODE.NOT_FOUND, KJGC_MSG.notHandedOver);
    await audit(tx, req, session, 'kjgc.take_back', String(agencyId), { aeiIds: rows.map((r) => r.id) });
    return { count: rows.length };
  }),

  // Picks which bound agency this session acts for (the top bar's select); another user or sign-in of the
  // same factory keeps its own. The session's next request is scoped to it (buildCtx checks the binding).
  serve(switchKjgcAgencyCall, async ({ body, session, tx, req }) => {
    const kjgcId = factoryOf(session);
    const bound = await boundAgencies(tx, kjgcId);
    if (!bound.some((a) => a.agencyId === body.agencyId)) throw bindNotFound();
    await tx.update(sessions).set({ kjgcDlsId: body.agencyId }).where(eq(sessions.id, session.sessionId));
    await audit(tx, req, session, 'kjgc.switch_agency', String(kjgcId), {
      from: session.kjgcDlsId,
      to: body.agencyId,
    });
    return null;
  }),
];
