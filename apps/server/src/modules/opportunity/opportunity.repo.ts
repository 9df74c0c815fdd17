import {
  CODE,
  DEFAULT_OPP_STAGES,
  fenToYuan,
  OPP_MSG,
  type OppDuplicate,
  type OppFilter,
  type OppItem,
  type OppStage,
} from '@dzy/shared';
import { and, asc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { Sort } from '../../db/paging.js';
import {
  memberships,
  opportunities,
  opportunitySettings,
  opportunityStages,
  serviceItems,
  users,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { likeTerm } from '../../lib/search.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';

export type OppRow = typeof opportunities.$inferSelect;

/** The caller's tenant; every opportunity call needs one. */
export function tenantOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
  return session.agencyId;
}

/** A time as China's wall clock, 'YYYY-MM-DD HH:mm'. */
export function chinaTime(d: Date): string {
  const p = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const v = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${v('year')}-${v('month')}-${v('day')} ${v('hour')}:${v('minute')}`;
}

/** 'YYYY-MM-DD HH:mm' in China → the instant. */
export const fromChinaTime = (v: string) => new Date(`${v.replace(' ', 'T')}:00+08:00`);
/** The first instant of a China date. */
export const chinaDayStart = (date: string) => new Date(`${date}T00:00:00+08:00`);

/** The agency's stages in order; an agency without any gets the defaults first. */
export async function stagesOf(tx: Queryable, agencyId: number): Promise<OppStage[]> {
  const read = () =>
    tx
      .select({
        id: opportunityStages.id,
        name: opportunityStages.name,
        kind: opportunityStages.kind,
        sort: opportunityStages.sort,
      })
      .from(opportunityStages)
      .where(eq(opportunityStages.agencyId, agencyId))
      .orderBy(asc(opportunityStages.sort), asc(opportunityStages.id));
  const rows = await read();
  if (rows.length > 0) return rows;
  await tx
    .insert(opportunityStages)
    .values(DEFAULT_OPP_STAGES.map((s, i) => ({ agencyId, name: s.name, kind: s.kind, sort: i + 1 })))
    .onConflictDoNothing();
  return read();
}

export async function autoReleaseDaysOf(tx: Queryable, agencyId: number): Promise<number> {
  const [row] = await tx
    .select({ days: opportunitySettings.autoReleaseDays })
    .from(opportunitySettings)
    .where(eq(opportunitySettings.agencyId, agencyId));
  return row?.days ?? 0;
}

export async function requireStage(tx: Queryable, agencyId: number, stageId: number) {
  const stages = await stagesOf(tx, agencyId);
  const s = stages.find((x) => x.id === stageId);
  if (!s) throw new AppError(CODE.NOT_FOUND, OPP_MSG.stageNotFound);
  return s;
}

/** The agency's enabled or disabled service items with these ids; an unknown one is a 404. */
export async function requireServices(tx: Queryable, agencyId: number, ids: readonly number[]) {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await tx
    .select({ id: serviceItems.id })
    .from(serviceItems)
    .where(and(eq(serviceItems.agencyId, agencyId), inArray(serviceItems.id, wanted)));
  if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, OPP_MSG.serviceNotFound);
  return wanted;
}

/** Whether the user works in the agency. */
export async function requireMember(tx: Queryable, agencyId: number, userId: number) {
  const [row] = await tx
    .select({ userId: memberships.userId, hymc: users.hymc })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.agencyId, agencyId), eq(memberships.userId, userId)))
    .limit(1);
  if (!row) throw new AppError(CODE.BAD_REQUEST, OPP_MSG.userNotMember);
  return row;
}

/** What the caller sees outside the pool: owned opportunities within their data scope. */
export const ownedScope = (session: SessionCtx, agencyId: number): SQL =>
  and(
    eq(opportunities.agencyId, agencyId),
    isNotNull(opportunities.ownerId),
    dataScope(session, opportunities.ownerId),
  ) as SQL;

/** The pool: the agency's opportunities without an owner. */
export const poolScope = (agencyId: number): SQL =>
  and(eq(opportunities.agencyId, agencyId), isNull(opportunities.ownerId)) as SQL;

/** Whether the caller may see the pool. */
export const seesPool = (session: SessionCtx) =>
  session.isAdmin || session.perms.includes('*:*:*') || session.perms.includes('opportunity:pool:view');

/**
 * The opportunities with these ids in `scope` (owned within the data scope, or the pool), locked FOR UPDATE.
 * An unknown, another agency's or an unseen id is a 404, said the same way.
 */
export async function requireOpps(tx: Queryable, scope: SQL, ids: readonly number[], msg: string = OPP_MSG.notFound) {
  const wanted = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(opportunities)
    .where(and(scope, inArray(opportunities.id, wanted)))
    .orderBy(opportunities.id)
    .for('update');
  if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, msg);
  return rows;
}

/** One opportunity the caller may look at: owned within scope, or in the pool for pool viewers. */
export async function requireVisible(tx: Queryable, session: SessionCtx, id: number, lock = false) {
  const agencyId = tenantOf(session);
  const scope = seesPool(session)
    ? or(ownedScope(session, agencyId), poolScope(agencyId))
    : ownedScope(session, agencyId);
  const q = tx
    .select()
    .from(opportunities)
    .where(and(scope, eq(opportunities.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
  return row;
}

// --- the same company ----------------------------------------------------------------------------

/**
 * A company name as compared for duplicates: no white space (ASCII or full-width), brackets of either
 * width as ASCII, lower case. 杭州云帆（电子）商务 and 杭州云帆 (电子) 商务 are the same company.
 */
export function companyKey(name: string): string {
  return name
    .replace(/[\s\u3000]+/g, '')
    .replace(/（/g, '(')
    .replace(/）/g, ')')
    .toLowerCase();
}
const companyKeySql = sql`lower(translate(regexp_replace(${opportunities.companyName}, '[[:space:]\u3000]+', '', 'g'), '（）', '()'))`;

/**
 * The agency's opportunities for the same company that are not lost (in the pipeline, in the pool or
 * converted), at most 5, newest first; `exceptId` leaves out the one being edited. The whole agency is
 * searched — a colleague's lead is exactly what the warning is for — and `canOpen` says whether the caller
 * may open each (their data scope, or the pool for pool viewers). An agency holds thousands of
 * opportunities, not millions: the comparison walks the agency's rows on opportunities_agency_id_idx.
 */
export async function sameCompany(
  tx: Queryable,
  session: SessionCtx,
  agencyId: number,
  companyName: string,
  exceptId?: number,
): Promise<OppDuplicate[]> {
  const key = companyKey(companyName);
  if (!key) return [];
  const visible = seesPool(session)
    ? or(ownedScope(session, agencyId), poolScope(agencyId))
    : ownedScope(session, agencyId);
  const rows = await tx
    .select({
      id: opportunities.id,
      companyName: opportunities.companyName,
      stageName: opportunityStages.name,
      ownerName: users.hymc,
      ownerId: opportunities.ownerId,
      convertedAt: opportunities.convertedAt,
      enterpriseId: opportunities.enterpriseId,
      createdAt: opportunities.createdAt,
      canOpen: sql<boolean>`coalesce(${visible as SQL}, false)`,
    })
    .from(opportunities)
    .innerJoin(opportunityStages, eq(opportunityStages.id, opportunities.stageId))
    .leftJoin(users, eq(users.id, opportunities.ownerId))
    .where(
      and(
        eq(opportunities.agencyId, agencyId),
        sql`${companyKeySql} = ${key}`,
        sql`${opportunityStages.kind} <> 'lost'`,
        exceptId === undefined ? undefined : sql`${opportunities.id} <> ${exceptId}`,
      ),
    )
    .orderBy(sql`${opportunities.id} desc`)
    .limit(5);
  return rows.map((r) => ({
    id: r.id,
    companyName: r.companyName,
    stageName: r.stageName,
    ownerName: r.ownerName ?? '',
    inPool: r.ownerId === null,
    converted: r.convertedAt !== null || r.enterpriseId !== null,
    createdAt: chinaTime(r.createdAt),
    canOpen: Boolean(r.canOpen),
  }));
}

// --- list ----------------------------------------------------------------------------------------

export const OPP_SORT_OF: Record<NonNullable<OppFilter['sort']>, Sort> = {
  created: { name: 'created', keys: [opportunities.id], desc: true },
  followed: { name: 'followed', keys: [opportunities.followedAt, opportunities.id], desc: true },
  amount: { name: 'amount', keys: [opportunities.amountFen, opportunities.id], desc: true },
};

export function oppWhere(scope: SQL, f: Omit<OppFilter, 'sort'>, now: Date, today: string): SQL {
  const conds: (SQL | undefined)[] = [scope];
  if (f.keyword) {
    const term = likeTerm(f.keyword);
    conds.push(
      or(
        ilike(opportunities.companyName, term),
        ilike(opportunities.contactName, term),
        ilike(opportunities.phone, term),
      ),
    );
  }
  if (f.stageId) conds.push(eq(opportunities.stageId, f.stageId));
  if (f.source) conds.push(eq(opportunities.source, f.source));
  if (f.ownerId) conds.push(eq(opportunities.ownerId, f.ownerId));
  const start = chinaDayStart(today);
  const end = new Date(start.getTime() + 86_400_000);
  if (f.due === 'overdue') conds.push(sql`${opportunities.nextFollowAt} < ${now.toISOString()}::timestamptz`);
  if (f.due === 'today') {
    conds.push(
      sql`${opportunities.nextFollowAt} >= ${start.toISOString()}::timestamptz and ${opportunities.nextFollowAt} < ${end.toISOString()}::timestamptz`,
    );
  }
  if (f.due === 'week') {
    conds.push(
      sql`${opportunities.nextFollowAt} >= ${start.toISOString()}::timestamptz and ${opportunities.nextFollowAt} < ${new Date(start.getTime() + 7 * 86_400_000).toISOString()}::timestamptz`,
    );
  }
  return and(...conds) as SQL;
}

/** The rows for these ids (any order), with stage, owner and service names. */
export async function oppItems(tx: Queryable, agencyId: number, ids: readonly number[]): Promise<OppItem[]> {
  if (ids.length === 0) return [];
  const creator = sql<string>`(select u.hymc from users u where u.id = ${opportunities.createdBy})`;
  const rows = await tx
    .select({
      o: opportunities,
      stageName: opportunityStages.name,
      stageKind: opportunityStages.kind,
      ownerName: users.hymc,
      createdByName: creator,
      followCount: sql<number>`(select count(*)::int from opportunity_followups f where f.opportunity_id = ${opportunities.id})`,
    })
    .from(opportunities)
    .innerJoin(opportunityStages, eq(opportunityStages.id, opportunities.stageId))
    .leftJoin(users, eq(users.id, opportunities.ownerId))
    .where(and(eq(opportunities.agencyId, agencyId), inArray(opportunities.id, [...ids])));
  const serviceIds = [...new Set(rows.flatMap((r) => r.o.serviceIds))];
  const names = serviceIds.length
    ? await tx
        .select({ id: serviceItems.id, name: serviceItems.serviceName })
        .from(serviceItems)
        .where(and(eq(serviceItems.agencyId, agencyId), inArray(serviceItems.id, serviceIds)))
    : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return rows.map(({ o, ...r }) => ({
    id: o.id,
    companyName: o.companyName,
    contactName: o.contactName,
    phone: o.phone,
    source: o.source,
    serviceIds: o.serviceIds,
    serviceNames: o.serviceIds.flatMap((id) => nameOf.get(id) ?? []).join('、'),
    expectAmount: fenToYuan(o.amountFen),
    stageId: o.stageId,
    stageName: r.stageName,
    stageKind: r.stageKind,
    ownerId: o.ownerId,
    ownerName: r.ownerName ?? '',
    remark: o.remark,
    followedAt: chinaTime(o.followedAt),
    nextFollowAt: o.nextFollowAt ? chinaTime(o.nextFollowAt) : null,
    followCount: Number(r.followCount),
    enterpriseId: o.enterpriseId,
    contractId: o.contractId,
    releasedAt: o.releasedAt ? chinaTime(o.releasedAt) : null,
    createdAt: chinaTime(o.createdAt),
    createdByName: r.createdByName ?? '',
  }));
}
