import {
  ACCOUNT_MSG,
  type AgencyAccount,
  accountListCall,
  benefitPlanName,
  CODE,
  chinaToday,
  grantListCall,
  QYZT_LABELS,
  qyztOf,
  service365Active,
  service365StatusCall,
  setting365SaveZhztCall,
  settingSaveZhztByAgencyIdCall,
  settingSaveZhztCall,
  zhztInfoCall,
} from '@dzy/shared';
import { and, desc, eq, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { agencyAccounts, benefitGrants, organisations, serviceProviders, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { startDailyTimer } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { requireOperator } from '../message/announcement.routes.js';
import { service365Of } from './service365.js';

type OrgRow = Pick<
  typeof organisations.$inferSelect,
  'id' | 'name' | 'qyzt' | 'sfgxbzts' | 'licenceCustomers' | 'orgType'
>;
type AccountRow = typeof agencyAccounts.$inferSelect;

const ORG_COLS = {
  id: organisations.id,
  name: organisations.name,
  qyzt: organisations.qyzt,
  sfgxbzts: organisations.sfgxbzts,
  licenceCustomers: organisations.licenceCustomers,
  orgType: organisations.orgType,
};

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** Clients (not deleted) per agency, through agency_client_counts() (own agency, or any for the operator). */
async function clientCounts(tx: Queryable, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const res = (await tx.execute(
    sql`select agency_id, n from agency_client_counts(${`{${ids.join(',')}}`}::int[])`,
  )) as unknown as { rows: { agency_id: number; n: number }[] };
  return new Map(res.rows.map((r) => [Number(r.agency_id), Number(r.n)]));
}

/**
 * Brings organisations.qyzt (what the benefit checks and dialogs read) in step with the account's expiry,
 * China's today; an agency without a granted plan keeps the status it has.
 */
async function syncQyzt(tx: Queryable, org: OrgRow, acc: AccountRow | undefined, today = chinaToday()) {
  if (!acc?.expiresOn) return org.qyzt;
  const qyzt = qyztOf(acc.expiresOn, today, acc.remindDays);
  if (qyzt !== org.qyzt) await tx.update(organisations).set({ qyzt }).where(eq(organisations.id, org.id));
  return qyzt;
}

async function accountsOf(tx: Queryable, orgs: readonly OrgRow[]): Promise<AgencyAccount[]> {
  const ids = orgs.map((o) => o.id);
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ a: agencyAccounts, providerName: serviceProviders.name })
    .from(agencyAccounts)
    .leftJoin(serviceProviders, eq(serviceProviders.id, agencyAccounts.providerId))
    .where(inArray(agencyAccounts.agencyId, ids));
  const byId = new Map(rows.map((r) => [r.a.agencyId, r]));
  const used = await clientCounts(tx, ids);
  const today = chinaToday();
  const out: AgencyAccount[] = [];
  for (const org of orgs) {
    const r = byId.get(org.id);
    const acc = r?.a;
    const qyzt = await syncQyzt(tx, org, acc, today);
    out.push({
      agencyId: org.id,
      agencyName: org.name,
      plan: acc?.plan ?? '',
      planLabel: benefitPlanName(acc?.plan ?? ''),
      startsOn: acc?.startsOn ?? null,
      expiresOn: acc?.expiresOn ?? null,
      daysLeft: acc?.expiresOn ? daysBetween(today, acc.expiresOn) : null,
      qyzt,
      qyztLabel: QYZT_LABELS[qyzt] ?? '未开通',
      clientCount: org.licenceCustomers,
      clientsUsed: used.get(org.id) ?? 0,
      remindDays: acc?.remindDays ?? 30,
      sfgxbzts: org.sfgxbzts,
      service365: acc?.service365 ?? '',
      service365ExpiresOn: acc?.service365ExpiresOn ?? null,
      service365Active: service365Active(acc?.service365 ?? '', acc?.service365ExpiresOn ?? null, today),
      providerId: acc?.providerId ?? null,
      providerName: r?.providerName ?? '',
    });
  }
  return out;
}

/** An agency (dls or kd; a factory has no account of its own) the operator names; 404 otherwise. */
async function agencyFor(tx: Queryable, agencyId: number): Promise<OrgRow> {
  const [org] = await tx.select(ORG_COLS).from(organisations).where(eq(organisations.id, agencyId));
  if (!org || org.orgType === 'kjgc') throw new AppError(CODE.NOT_FOUND, ACCOUNT_MSG.agencyNotFound);
  return org;
}

async function accountOf(tx: Queryable, agencyId: number): Promise<AgencyAccount> {
  const [one] = await accountsOf(tx, [await agencyFor(tx, agencyId)]);
  if (!one) throw new AppError(CODE.NOT_FOUND, ACCOUNT_MSG.agencyNotFound);
  return one;
}

function ownAgency(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, ACCOUNT_MSG.agencyNotFound);
  return session.agencyId;
}

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const ORDER = { name: 'id', keys: [organisations.id], desc: false };

export const accountStatusCalls = [
  serve(zhztInfoCall, async ({ session, tx }) => accountOf(tx, ownAgency(session))),

  serve(service365StatusCall, async ({ session, tx }) => {
    const s = await service365Of(tx, session.agencyId);
    return { ...s, msg: s.active ? '' : ACCOUNT_MSG.service365Off };
  }),

  serve(settingSaveZhztCall, async ({ body, session, tx, req }) => {
    const agencyId = ownAgency(session);
    if (!session.isAdmin || session.orgType === 'kjgc') throw new AppError(CODE.NO_PERMISSION, ACCOUNT_MSG.adminOnly);
    await agencyFor(tx, agencyId);
    await tx
      .insert(agencyAccounts)
      .values({ agencyId, remindDays: body.remindDays })
      .onConflictDoUpdate({
        target: agencyAccounts.agencyId,
        set: { remindDays: body.remindDays, updatedAt: new Date() },
      });
    await tx.update(organisations).set({ sfgxbzts: body.sfgxbzts }).where(eq(organisations.id, agencyId));
    await audit(tx, req, session, 'account.status_setting', `agency:${agencyId}`, { ...body });
    return accountOf(tx, agencyId);
  }),

  serve(settingSaveZhztByAgencyIdCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const org = await agencyFor(tx, body.agencyId);
    const today = chinaToday();
    if (body.expiresOn < today) throw new AppError(CODE.BAD_REQUEST, ACCOUNT_MSG.expiresPast);
    if (body.clientCount !== null) {
      const used = (await clientCounts(tx, [org.id])).get(org.id) ?? 0;
      if (body.clientCount < used) throw new AppError(CODE.BAD_REQUEST, ACCOUNT_MSG.clientsBelowUsed(used));
    }
    const startsOn = body.startsOn ?? today;
    await tx
      .insert(agencyAccounts)
      .values({ agencyId: org.id, plan: body.plan, startsOn, expiresOn: body.expiresOn, clientCount: body.clientCount })
      .onConflictDoUpdate({
        target: agencyAccounts.agencyId,
        set: {
          plan: body.plan,
          startsOn,
          expiresOn: body.expiresOn,
          clientCount: body.clientCount,
          updatedAt: new Date(),
        },
      });
    // The authorised count is the licence the client book already enforces (assertLicence); a new grant
    // reminds the agency again.
    await tx
      .update(organisations)
      .set({ licenceCustomers: body.clientCount, sfgxbzts: '0' })
      .where(eq(organisations.id, org.id));
    await tx.insert(benefitGrants).values({
      agencyId: org.id,
      plan: body.plan,
      startsOn,
      expiresOn: body.expiresOn,
      clientCount: body.clientCount,
      remark: body.remark,
      grantedBy: session.userId,
    });
    await audit(tx, req, session, 'account.benefit_grant', `agency:${org.id}`, {
      plan: body.plan,
      startsOn,
      expiresOn: body.expiresOn,
      clientCount: body.clientCount,
    });
    return accountOf(tx, org.id);
  }),

  serve(setting365SaveZhztCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const org = await agencyFor(tx, body.agencyId);
    if (body.expiresOn && body.service365 === '1' && body.expiresOn < chinaToday()) {
      throw new AppError(CODE.BAD_REQUEST, ACCOUNT_MSG.expiresPast);
    }
    const expires = body.service365 === '1' ? body.expiresOn : null;
    await tx
      .insert(agencyAccounts)
      .values({ agencyId: org.id, service365: body.service365, service365ExpiresOn: expires })
      .onConflictDoUpdate({
        target: agencyAccounts.agencyId,
        set: { service365: body.service365, service365ExpiresOn: expires, updatedAt: new Date() },
      });
    await audit(tx, req, session, 'account.service365', `agency:${org.id}`, {
      service365: body.service365,
      expiresOn: expires,
    });
    return accountOf(tx, org.id);
  }),

  serve(accountListCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const { pageNo, pageSize, cursor, keyword } = body;
    const conds: SQL[] = [ne(organisations.orgType, 'kjgc')];
    if (keyword) conds.push(ilike(organisations.name, contains(keyword)));
    const where = and(...conds) as SQL;
    const page = await listPage(
      tx,
      { from: sql`${organisations}`, where, sort: ORDER, ask: { pageNo, pageSize, cursor }, filter: { keyword } },
      (ids) => tx.select(ORG_COLS).from(organisations).where(inArray(organisations.id, ids)),
    );
    const accounts = await accountsOf(tx, page.list);
    return { ...page, list: accounts.map((a) => ({ ...a, id: a.agencyId })) };
  }),

  serve(grantListCall, async ({ body, session, tx }) => {
    requireOperator(session);
    await agencyFor(tx, body.agencyId);
    const rows = await tx
      .select({ g: benefitGrants, by: users.hymc, phone: users.phone })
      .from(benefitGrants)
      .innerJoin(users, eq(users.id, benefitGrants.grantedBy))
      .where(eq(benefitGrants.agencyId, body.agencyId))
      .orderBy(desc(benefitGrants.id))
      .limit(50);
    return rows.map(({ g, by, phone }) => ({
      id: g.id,
      plan: g.plan,
      planLabel: benefitPlanName(g.plan),
      startsOn: g.startsOn,
      expiresOn: g.expiresOn,
      clientCount: g.clientCount,
      remark: g.remark,
      grantedBy: by || phone,
      createdAt: g.createdAt.toISOString(),
    }));
  }),
];

/**
 * The daily sweep (refresh_benefit_status in 0036): every agency's qyzt from its account's expiry, so the
 * benefit checks and dialogs (which read organisations.qyzt) turn 即将到期 and 已到期 on the day.
 */
export async function refreshBenefitStatus(db: Database, date: string): Promise<number> {
  const res = (await db.app.execute(sql`select refresh_benefit_status(${date}::date) as n`)) as unknown as {
    rows: { n: number }[];
  };
  return Number(res.rows[0]?.n ?? 0);
}

export const accountStatusModule: ServerModule = {
  name: 'account-status',
  calls: accountStatusCalls,
  routes(app, deps) {
    startDailyTimer(app, 'benefit status', (date) => refreshBenefitStatus(deps.db, date));
  },
};
