import {
  CODE,
  deleteStationCall,
  saveStationCall,
  saveStationMembersCall,
  stationCandidatesCall,
  stationListCall,
  stationMembersCall,
} from '@dzy/shared';
import { and, asc, desc, eq, ilike, inArray, max, ne, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import { memberships, stationMembers, stations, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { likeTerm } from '../../lib/search.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import {
  isAgencyMember,
  isUniqueViolation,
  requireMembers,
  selectMembers,
  shownPhone,
  tenantOf,
} from '../role/member.repo.js';

export const STATION_NAME_TAKEN = '岗位名称已存在';
export const DEFAULT_STATION_UNDELETABLE = '默认岗位不可删除';

async function requireStation(tx: Queryable, agencyId: number, id: number) {
  const [row] = await tx
    .select()
    .from(stations)
    .where(and(eq(stations.id, id), eq(stations.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, '岗位不存在或无权访问');
  return row;
}

/** Current members of the agency in the post (someone who left keeps no post here). */
function postMembers(tx: Queryable, agencyId: number, stationId: number) {
  return tx
    .select({ userId: users.id, hymc: users.hymc, phone: users.phone })
    .from(stationMembers)
    .innerJoin(users, eq(users.id, stationMembers.userId))
    .innerJoin(memberships, and(eq(memberships.userId, stationMembers.userId), isAgencyMember(agencyId)))
    .where(and(eq(stationMembers.agencyId, agencyId), eq(stationMembers.stationId, stationId)))
    .orderBy(desc(memberships.isAdmin), asc(memberships.id));
}

export const stationModule: ServerModule = {
  name: 'station',
  calls: [
    serve(stationListCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const where = and(
        eq(stations.agencyId, agencyId),
        body.name ? ilike(stations.name, likeTerm(body.name)) : undefined,
      );
      // Table names spelt out: inside a subquery drizzle leaves columns unqualified.
      const memberCount = sql<number>`(
        select count(*)::int from station_members sm
        join memberships m on m.user_id = sm.user_id and m.agency_id = ${agencyId} and m.org_id = ${agencyId}
        where sm.station_id = "stations"."id"
      )`;
      const { pageNo, pageSize, cursor, ...filter } = body;
      const descending = body.sortOrder === 'descend';
      // An agency has tens of stations: the member-count sort is a per-row count, no index needed.
      const sort: Sort =
        body.sortField === 'name'
          ? { name: 'name', keys: [stations.name, stations.id], desc: descending }
          : body.sortField === 'memberCount'
            ? { name: 'memberCount', keys: [memberCount, stations.id], desc: descending }
            : body.sortField === 'createdAt'
              ? { name: 'createdAt', keys: [stations.createdAt, stations.id], desc: descending }
              : {
                  name: 'default',
                  keys: [sql`(case when ${stations.isDefault} then 0 else 1 end)`, stations.sort, stations.id],
                  desc: false,
                };
      const ask = { pageNo, pageSize, cursor };
      const page = await listPage(tx, { from: sql`${stations}`, where: where as SQL, sort, ask, filter }, (ids) =>
        tx
          .select({
            id: stations.id,
            name: stations.name,
            isDefault: stations.isDefault,
            createdAt: stations.createdAt,
            memberCount,
          })
          .from(stations)
          .where(and(eq(stations.agencyId, agencyId), inArray(stations.id, ids))),
      );
      return { ...page, list: page.list.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
    }),

    serve(saveStationCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const before = body.id === undefined ? null : await requireStation(tx, agencyId, body.id);
      const [taken] = await tx
        .select({ id: stations.id })
        .from(stations)
        .where(
          and(
            eq(stations.agencyId, agencyId),
            eq(stations.name, body.name),
            before ? ne(stations.id, before.id) : undefined,
          ),
        );
      if (taken) throw new AppError(CODE.CONFLICT, STATION_NAME_TAKEN);
      try {
        if (before) {
          await tx.update(stations).set({ name: body.name }).where(eq(stations.id, before.id));
          await audit(tx, req, session, 'station.update', `station:${before.id}`, {
            before: before.name,
            after: body.name,
          });
          return { id: before.id };
        }
        const [last] = await tx
          .select({ sort: max(stations.sort) })
          .from(stations)
          .where(eq(stations.agencyId, agencyId));
        const [row] = await tx
          .insert(stations)
          .values({ agencyId, name: body.name, sort: (last?.sort ?? 0) + 1 })
          .returning({ id: stations.id });
        if (!row) throw new Error('station insert returned nothing');
        await audit(tx, req, session, 'station.create', `station:${row.id}`, { name: body.name });
        return { id: row.id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, STATION_NAME_TAKEN);
        throw err;
      }
    }),

    serve(deleteStationCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const station = await requireStation(tx, agencyId, body.id);
      if (station.isDefault) throw new AppError(CODE.BAD_REQUEST, DEFAULT_STATION_UNDELETABLE);
      const members = await postMembers(tx, agencyId, station.id);
      // station_members rows go with the post (on delete cascade).
      await tx.delete(stations).where(eq(stations.id, station.id));
      await audit(tx, req, session, 'station.delete', `station:${station.id}`, {
        name: station.name,
        userIds: members.map((m) => m.userId),
      });
      return null;
    }),

    serve(stationMembersCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      await requireStation(tx, agencyId, body.stationId);
      const rows = await postMembers(tx, agencyId, body.stationId);
      return rows.map((m) => ({ ...m, phone: shownPhone(session, m) }));
    }),

    serve(saveStationMembersCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const station = await requireStation(tx, agencyId, body.stationId);
      const members = await requireMembers(tx, agencyId, body.userIds);
      const before = await tx
        .select({ userId: stationMembers.userId })
        .from(stationMembers)
        .where(eq(stationMembers.stationId, station.id));
      await tx.delete(stationMembers).where(eq(stationMembers.stationId, station.id));
      if (members.length > 0) {
        await tx
          .insert(stationMembers)
          .values(members.map((m) => ({ agencyId, stationId: station.id, userId: m.userId })));
      }
      const had = new Set(before.map((b) => b.userId));
      const now = new Set(members.map((m) => m.userId));
      await audit(tx, req, session, 'station.members_change', `station:${station.id}`, {
        name: station.name,
        added: [...now].filter((u) => !had.has(u)),
        removed: [...had].filter((u) => !now.has(u)),
      });
      return null;
    }),

    serve(stationCandidatesCall, async ({ session, tx }) => {
      const rows = await selectMembers(tx, tenantOf(session));
      return rows.map(({ userId, hymc, phone }) => ({ userId, hymc, phone: shownPhone(session, { userId, phone }) }));
    }),
  ],
};
