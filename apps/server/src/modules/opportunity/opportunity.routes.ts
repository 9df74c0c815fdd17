import {
  CODE,
  getOppSettingCall,
  hasPerm,
  OPP_MSG,
  OPP_TRANSFER_KINDS,
  oppClaimCall,
  oppConvertCall,
  oppDeleteCall,
  oppDetailCall,
  oppFollowDeleteCall,
  oppFollowListCall,
  oppFollowSaveCall,
  oppListCall,
  oppOwnersCall,
  oppPoolDeleteCall,
  oppPoolListCall,
  oppReleaseCall,
  oppStageCall,
  oppTransferCall,
  oppTransferListCall,
  saveOppCall,
  saveOppSettingCall,
  yuanToFen,
} from '@dzy/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { listPage } from '../../db/paging.js';
import {
  contracts,
  memberships,
  opportunities,
  opportunityFollowups,
  opportunitySettings,
  opportunityStages,
  opportunityTransfers,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { opportunityDailyJob, startOpportunitySchedule } from './opportunity.jobs.js';
import {
  autoReleaseDaysOf,
  chinaTime,
  fromChinaTime,
  OPP_SORT_OF,
  oppItems,
  oppWhere,
  ownedScope,
  poolScope,
  requireMember,
  requireOpps,
  requireServices,
  requireStage,
  requireVisible,
  sameCompany,
  stagesOf,
  tenantOf,
} from './opportunity.repo.js';
import { assertOpen, convertOpportunity, moveOwner, notifyTransferred } from './opportunity.service.js';

async function settingOf(tx: Parameters<typeof stagesOf>[0], agencyId: number) {
  return { autoReleaseDays: await autoReleaseDaysOf(tx, agencyId), stages: await stagesOf(tx, agencyId) };
}

export const opportunityModule: ServerModule = {
  name: 'opportunity',
  jobs: [opportunityDailyJob],
  routes(app, deps) {
    startOpportunitySchedule(app, deps);
  },
  calls: [
    // --- setting ---------------------------------------------------------------------------------
    serve(getOppSettingCall, async ({ session, tx }) => settingOf(tx, tenantOf(session))),

    serve(saveOppSettingCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const before = await stagesOf(tx, agencyId);
      const byId = new Map(before.map((s) => [s.id, s]));
      for (const s of body.stages)
        if (s.id !== undefined && !byId.has(s.id)) throw new AppError(CODE.NOT_FOUND, OPP_MSG.stageNotFound);
      const kept = new Set(body.stages.flatMap((s) => (s.id === undefined ? [] : [s.id])));
      const dropped = before.filter((s) => !kept.has(s.id));
      if (dropped.length) {
        const [used] = await tx
          .select({ stageId: opportunities.stageId })
          .from(opportunities)
          .where(
            and(
              eq(opportunities.agencyId, agencyId),
              inArray(
                opportunities.stageId,
                dropped.map((s) => s.id),
              ),
            ),
          )
          .limit(1);
        if (used) throw new AppError(CODE.CONFLICT, OPP_MSG.stageInUse(byId.get(used.stageId)?.name ?? ''));
        await tx.delete(opportunityStages).where(
          and(
            eq(opportunityStages.agencyId, agencyId),
            inArray(
              opportunityStages.id,
              dropped.map((s) => s.id),
            ),
          ),
        );
      }
      // Names are unique per agency: park the kept ones on temporary names before renaming in order.
      for (const s of body.stages) {
        if (s.id !== undefined) {
          await tx
            .update(opportunityStages)
            .set({ name: `__${s.id}` })
            .where(and(eq(opportunityStages.agencyId, agencyId), eq(opportunityStages.id, s.id)));
        }
      }
      for (const [i, s] of body.stages.entries()) {
        if (s.id === undefined) {
          await tx.insert(opportunityStages).values({ agencyId, name: s.name, kind: s.kind, sort: i + 1 });
        } else {
          await tx
            .update(opportunityStages)
            .set({ name: s.name, kind: s.kind, sort: i + 1 })
            .where(and(eq(opportunityStages.agencyId, agencyId), eq(opportunityStages.id, s.id)));
        }
      }
      await tx
        .insert(opportunitySettings)
        .values({ agencyId, autoReleaseDays: body.autoReleaseDays })
        .onConflictDoUpdate({
          target: opportunitySettings.agencyId,
          set: { autoReleaseDays: body.autoReleaseDays, updatedAt: new Date() },
        });
      await audit(tx, req, session, 'opportunity.setting', `agency:${agencyId}`, {
        autoReleaseDays: body.autoReleaseDays,
        stages: body.stages.map((s) => `${s.name}(${s.kind})`),
      });
      return settingOf(tx, agencyId);
    }),

    // --- create, edit, view ----------------------------------------------------------------------
    serve(saveOppCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const { id, expectAmount, serviceIds, stageId, confirmDuplicate, ...fields } = body;
      await requireServices(tx, agencyId, serviceIds);
      const stages = await stagesOf(tx, agencyId);
      const stage = stageId === undefined ? stages[0] : await requireStage(tx, agencyId, stageId);
      if (!stage) throw new AppError(CODE.NOT_FOUND, OPP_MSG.stageNotFound);
      const values = { ...fields, serviceIds, amountFen: yuanToFen(expectAmount), stageId: stage.id };
      if (id === undefined) {
        // A company already in the pipeline: warn first, with the opportunities it has (issue 29 point 7).
        if (!confirmDuplicate) {
          const duplicates = await sameCompany(tx, session, agencyId, fields.companyName);
          const first = duplicates[0];
          if (first) throw new AppError(CODE.CONFLICT, OPP_MSG.duplicate(first.companyName), { duplicates });
        }
        const [row] = await tx
          .insert(opportunities)
          .values({ agencyId, ...values, ownerId: session.userId, createdBy: session.userId })
          .returning();
        if (!row) throw new Error('opportunity insert returned nothing');
        await tx.insert(opportunityTransfers).values({
          agencyId,
          opportunityId: row.id,
          kind: 'create',
          toUserId: session.userId,
          byUserId: session.userId,
        });
        await audit(tx, req, session, 'opportunity.create', `opportunity:${row.id}`, {
          companyName: row.companyName,
          expectAmount,
          stage: stage.name,
        });
        return { id: row.id };
      }
      const [before] = await requireOpps(tx, ownedScope(session, agencyId), [id]);
      if (!before) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
      assertOpen([before]);
      await tx
        .update(opportunities)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(opportunities.id, id));
      await audit(tx, req, session, 'opportunity.update', `opportunity:${id}`, {
        companyName: values.companyName,
        expectAmount,
      });
      return { id };
    }),

    serve(oppDetailCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const row = await requireVisible(tx, session, body.id);
      const [item] = await oppItems(tx, agencyId, [row.id]);
      if (!item) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
      return item;
    }),

    // --- lists -----------------------------------------------------------------------------------
    serve(oppListCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const { pageNo, pageSize, cursor, sort, ...filter } = body;
      const where = oppWhere(ownedScope(session, agencyId), filter, new Date(), chinaDate());
      return listPage(
        tx,
        {
          from: sql`${opportunities}`,
          where,
          sort: OPP_SORT_OF[sort],
          ask: { pageNo, pageSize, cursor },
          filter: body,
        },
        (ids) => oppItems(tx, agencyId, ids),
      );
    }),

    serve(oppPoolListCall, async ({ body, session, tx }) => {
      const agencyId = tenantOf(session);
      const { pageNo, pageSize, cursor, sort, ...filter } = body;
      const where = oppWhere(poolScope(agencyId), filter, new Date(), chinaDate());
      return listPage(
        tx,
        {
          from: sql`${opportunities}`,
          where,
          sort: OPP_SORT_OF[sort],
          ask: { pageNo, pageSize, cursor },
          filter: body,
        },
        (ids) => oppItems(tx, agencyId, ids),
      );
    }),

    serve(oppOwnersCall, async ({ session, tx }) => {
      const agencyId = tenantOf(session);
      return tx
        .select({ userId: memberships.userId, hymc: users.hymc })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.agencyId, agencyId))
        .orderBy(desc(memberships.isAdmin), asc(memberships.id));
    }),

    // --- follow-ups ------------------------------------------------------------------------------
    serve(oppFollowListCall, async ({ body, session, tx }) => {
      const o = await requireVisible(tx, session, body.oppId);
      const rows = await tx
        .select({ f: opportunityFollowups, userName: users.hymc })
        .from(opportunityFollowups)
        .leftJoin(users, eq(users.id, opportunityFollowups.userId))
        .where(and(eq(opportunityFollowups.agencyId, o.agencyId), eq(opportunityFollowups.opportunityId, o.id)))
        .orderBy(desc(opportunityFollowups.id))
        .limit(500);
      return rows.map(({ f, userName }) => ({
        id: f.id,
        content: f.content,
        way: f.way,
        nextFollowAt: f.nextFollowAt ? chinaTime(f.nextFollowAt) : null,
        userId: f.userId,
        userName: userName ?? '系统',
        mine: f.userId === session.userId,
        createdAt: chinaTime(f.createdAt),
      }));
    }),

    serve(oppFollowSaveCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const [o] = await requireOpps(tx, ownedScope(session, agencyId), [body.oppId]);
      if (!o) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
      assertOpen([o]);
      const next = body.nextFollowAt ? fromChinaTime(body.nextFollowAt) : null;
      if (next && next.getTime() < Date.now() - 60_000)
        throw new AppError(CODE.BAD_REQUEST, '下次跟进时间不能早于现在');
      const stage = body.stageId === undefined ? null : await requireStage(tx, agencyId, body.stageId);
      const [f] = await tx
        .insert(opportunityFollowups)
        .values({
          agencyId,
          opportunityId: o.id,
          userId: session.userId,
          content: body.content,
          way: body.way,
          nextFollowAt: next,
        })
        .returning({ id: opportunityFollowups.id });
      const now = new Date();
      await tx
        .update(opportunities)
        .set({
          followedAt: now,
          nextFollowAt: next,
          releaseWarnedOn: null,
          ...(stage ? { stageId: stage.id } : {}),
          updatedAt: now,
        })
        .where(eq(opportunities.id, o.id));
      await audit(tx, req, session, 'opportunity.followup', `opportunity:${o.id}`, {
        way: body.way,
        nextFollowAt: body.nextFollowAt,
        stage: stage?.name,
      });
      return { id: f?.id ?? 0 };
    }),

    serve(oppFollowDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const [f] = await tx
        .select()
        .from(opportunityFollowups)
        .where(and(eq(opportunityFollowups.agencyId, agencyId), eq(opportunityFollowups.id, body.id)));
      if (!f) throw new AppError(CODE.NOT_FOUND, OPP_MSG.followNotFound);
      await requireVisible(tx, session, f.opportunityId);
      if (f.userId !== session.userId) throw new AppError(CODE.NO_PERMISSION, OPP_MSG.followNotOwn);
      await tx.delete(opportunityFollowups).where(eq(opportunityFollowups.id, f.id));
      await audit(tx, req, session, 'opportunity.followup.delete', `opportunity:${f.opportunityId}`, { id: f.id });
      return null;
    }),

    serve(oppStageCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const [o] = await requireOpps(tx, ownedScope(session, agencyId), [body.id]);
      if (!o) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
      assertOpen([o]);
      const stages = await stagesOf(tx, agencyId);
      const from = stages.find((s) => s.id === o.stageId);
      const to = await requireStage(tx, agencyId, body.stageId);
      if (to.id === o.stageId) return null;
      await tx.update(opportunities).set({ stageId: to.id, updatedAt: new Date() }).where(eq(opportunities.id, o.id));
      await tx.insert(opportunityFollowups).values({
        agencyId,
        opportunityId: o.id,
        userId: session.userId,
        content: `阶段由「${from?.name ?? ''}」改为「${to.name}」`,
        way: '阶段变更',
      });
      await audit(tx, req, session, 'opportunity.stage', `opportunity:${o.id}`, { from: from?.name, to: to.name });
      return null;
    }),

    // --- owner, pool -----------------------------------------------------------------------------
    serve(oppTransferCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const agencyId = tenantOf(session);
      const rows = await requireOpps(tx, ownedScope(session, agencyId), body.ids);
      assertOpen(rows);
      const to = await requireMember(tx, agencyId, body.userId);
      const moved = rows.filter((r) => r.ownerId !== to.userId);
      if (moved.length === 0) throw new AppError(CODE.BAD_REQUEST, OPP_MSG.sameOwner);
      await moveOwner(tx, agencyId, moved, to.userId, 'transfer', session.userId, body.reason);
      if (to.userId !== session.userId) {
        await notifyTransferred(tx, deps, afterCommit, agencyId, to.userId, moved, session.hymc);
      }
      await audit(tx, req, session, 'opportunity.transfer', `user:${to.userId}`, {
        ids: moved.map((r) => r.id),
        reason: body.reason,
      });
      return { count: moved.length };
    }),

    serve(oppReleaseCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const rows = await requireOpps(tx, ownedScope(session, agencyId), body.ids);
      assertOpen(rows);
      await moveOwner(tx, agencyId, rows, null, 'release', session.userId, body.reason);
      await audit(tx, req, session, 'opportunity.release', `agency:${agencyId}`, {
        ids: rows.map((r) => r.id),
        reason: body.reason,
      });
      return { count: rows.length };
    }),

    serve(oppClaimCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      // Locked: two people claiming at once — the second finds it no longer in the pool.
      const rows = await requireOpps(tx, poolScope(agencyId), body.ids, OPP_MSG.notInPool);
      await moveOwner(tx, agencyId, rows, session.userId, 'claim', session.userId);
      await audit(tx, req, session, 'opportunity.claim', `user:${session.userId}`, { ids: rows.map((r) => r.id) });
      return { count: rows.length };
    }),

    serve(oppPoolDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const rows = await requireOpps(tx, poolScope(agencyId), body.ids, OPP_MSG.notInPool);
      await tx.delete(opportunities).where(
        and(
          eq(opportunities.agencyId, agencyId),
          inArray(
            opportunities.id,
            rows.map((r) => r.id),
          ),
        ),
      );
      await audit(tx, req, session, 'opportunity.pool.delete', `agency:${agencyId}`, {
        ids: rows.map((r) => r.id),
        names: rows.map((r) => r.companyName),
      });
      return { count: rows.length };
    }),

    serve(oppDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = tenantOf(session);
      const rows = await requireOpps(tx, ownedScope(session, agencyId), body.ids);
      assertOpen(rows);
      await tx.delete(opportunities).where(
        and(
          eq(opportunities.agencyId, agencyId),
          inArray(
            opportunities.id,
            rows.map((r) => r.id),
          ),
        ),
      );
      await audit(tx, req, session, 'opportunity.delete', `agency:${agencyId}`, {
        ids: rows.map((r) => r.id),
        names: rows.map((r) => r.companyName),
      });
      return { count: rows.length };
    }),

    serve(oppTransferListCall, async ({ body, session, tx }) => {
      const o = await requireVisible(tx, session, body.oppId);
      const from = alias(users, 'from_user');
      const to = alias(users, 'to_user');
      const by = alias(users, 'by_user');
      const rows = await tx
        .select({ t: opportunityTransfers, fromName: from.hymc, toName: to.hymc, byName: by.hymc })
        .from(opportunityTransfers)
        .leftJoin(from, eq(from.id, opportunityTransfers.fromUserId))
        .leftJoin(to, eq(to.id, opportunityTransfers.toUserId))
        .leftJoin(by, eq(by.id, opportunityTransfers.byUserId))
        .where(and(eq(opportunityTransfers.agencyId, o.agencyId), eq(opportunityTransfers.opportunityId, o.id)))
        .orderBy(desc(opportunityTransfers.id))
        .limit(500);
      return rows.map(({ t, ...r }) => ({
        id: t.id,
        kind: t.kind,
        kindName: OPP_TRANSFER_KINDS[t.kind] ?? t.kind,
        fromName: t.fromUserId === null ? (t.kind === 'create' ? '' : '公海') : (r.fromName ?? ''),
        toName: t.toUserId === null ? '公海' : (r.toName ?? ''),
        byName: t.byUserId === null ? '系统' : (r.byName ?? ''),
        reason: t.reason,
        createdAt: chinaTime(t.createdAt),
      }));
    }),

    // --- convert ---------------------------------------------------------------------------------
    serve(oppConvertCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const agencyId = tenantOf(session);
      // The row lock orders concurrent conversions: the second sees the first's link and returns it.
      const [o] = await requireOpps(tx, ownedScope(session, agencyId), [body.id]);
      if (!o) throw new AppError(CODE.NOT_FOUND, OPP_MSG.notFound);
      if (o.enterpriseId !== null && o.contractId !== null) {
        const [c] = await tx
          .select({ contractNo: contracts.contractNo })
          .from(contracts)
          .where(and(eq(contracts.agencyId, agencyId), eq(contracts.id, o.contractId)));
        return {
          enterpriseId: o.enterpriseId,
          contractId: o.contractId,
          contractNo: c?.contractNo ?? '',
          created: false,
        };
      }
      assertOpen([o]);
      const stage = await requireStage(tx, agencyId, o.stageId);
      if (stage.kind !== 'won') throw new AppError(CODE.BAD_REQUEST, OPP_MSG.notWon);
      if (!hasPerm(session.perms, 'customer:add')) throw new AppError(CODE.NO_PERMISSION, '您没有新增客户的权限');
      const { id: _id, ...terms } = body;
      const out = await convertOpportunity(tx, deps, afterCommit, { ...session, agencyId }, o, terms);
      await audit(tx, req, session, 'opportunity.convert', `opportunity:${o.id}`, out);
      return { ...out, created: true };
    }),
  ],
};
