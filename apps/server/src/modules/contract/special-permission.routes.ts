import {
  CODE,
  getSpecialPermissionByUserIdCall,
  getSpecialPermissionCall,
  getSpecialPermissionHtsfCall,
  getSpecialPermissionHtszCall,
  getSpecialPermissionKhszCall,
  hasPerm,
  MSG,
  type SpecialArea,
  type SpecialLevel,
  saveSpecialPermissionCall,
  saveSpecialPermissionHtsfCall,
  saveSpecialPermissionHtszCall,
  saveSpecialPermissionKhszCall,
} from '@dzy/shared';
import { and, asc, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { departments, memberships, specialPermissions, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { likeTerm } from '../../lib/search.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { isAgencyMember } from '../role/member.repo.js';
import { specialLevelOf, tenantOf } from './contract.repo.js';

type Area = SpecialArea;
const AREAS: Area[] = ['htsz', 'htsf', 'khsz', 'general'];

/** The sent agency must be the session's; whose permissions: the caller, or another member for 特殊权限 holders. */
async function subjectOf(
  tx: Queryable,
  session: SessionCtx,
  body: { agencyId?: number | undefined; agency_id?: number | undefined; userId?: number | undefined },
) {
  const agencyId = tenantOf(session);
  if ((body.agencyId ?? body.agency_id ?? agencyId) !== agencyId) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  const userId = body.userId ?? session.userId;
  if (userId === session.userId) return { agencyId, userId, isAdmin: session.isAdmin || session.role === 1 };
  if (!hasPerm(session.perms, 'contract:special:edit')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  const [m] = await tx
    .select({ isAdmin: memberships.isAdmin, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.agencyId, agencyId), eq(memberships.userId, userId)))
    .limit(1);
  if (!m) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return { agencyId, userId, isAdmin: m.isAdmin || m.role === 1 };
}

async function effective(tx: Queryable, s: { agencyId: number; userId: number; isAdmin: boolean }, area: Area) {
  const level = await specialLevelOf(tx, s.agencyId, s.userId, area, s.isAdmin);
  return { level, canView: level !== '', canEdit: level === 'edit' };
}

function saveFor(def: typeof saveSpecialPermissionCall, area: Area): Served {
  return serve(def, async ({ body, session, tx, req }) => {
    const agencyId = tenantOf(session);
    if ((body.agencyId ?? body.agency_id ?? agencyId) !== agencyId) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
    if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, '请联系管理员修改！');
    const userIds = [...new Set(body.userIds)];
    const found = await tx
      .selectDistinct({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.agencyId, agencyId), inArray(memberships.userId, userIds)));
    if (found.length !== userIds.length) throw new AppError(CODE.NOT_FOUND, '员工不存在');
    const level = body.level as SpecialLevel;
    if (level === '') {
      await tx
        .delete(specialPermissions)
        .where(
          and(
            eq(specialPermissions.agencyId, agencyId),
            eq(specialPermissions.area, area),
            inArray(specialPermissions.userId, userIds),
          ),
        );
    } else {
      await tx
        .insert(specialPermissions)
        .values(userIds.map((userId) => ({ agencyId, userId, area, level })))
        .onConflictDoUpdate({
          target: [specialPermissions.agencyId, specialPermissions.userId, specialPermissions.area],
          set: { level, updatedAt: new Date() },
        });
    }
    await audit(tx, req, session, 'contract.special_permission', `area:${area}`, { userIds, level });
    return { count: userIds.length };
  });
}

export const specialPermissionCalls: Served[] = [
  serve(getSpecialPermissionCall, async ({ body, session, tx }) => {
    const agencyId = tenantOf(session);
    if ((body.agencyId ?? body.agency_id ?? agencyId) !== agencyId) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
    const members = await tx
      .select({
        userId: memberships.userId,
        hymc: users.hymc,
        phone: users.phone,
        isAdmin: memberships.isAdmin,
        departmentName: departments.name,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .leftJoin(departments, eq(departments.id, memberships.departmentId))
      .where(
        and(
          isAgencyMember(agencyId),
          body.userName ? ilike(users.hymc, likeTerm(body.userName)) : undefined,
          // The page lists everyone to an administrator; a holder of the permission sees their data scope.
          session.isAdmin ? undefined : dataScope(session, memberships.userId),
        ),
      )
      .orderBy(desc(memberships.isAdmin), asc(memberships.id));
    const rows = await tx
      .select()
      .from(specialPermissions)
      .where(
        and(
          eq(specialPermissions.agencyId, agencyId),
          inArray(specialPermissions.userId, members.map((m) => m.userId).concat(0)),
        ),
      );
    const levelOf = new Map(rows.map((r) => [`${r.userId}:${r.area}`, r.level]));
    return members.map((m) => ({
      userId: m.userId,
      hymc: m.hymc,
      phone: m.phone,
      departmentName: m.departmentName ?? '',
      isAdmin: m.isAdmin,
      ...(Object.fromEntries(
        AREAS.map((a) => [a, m.isAdmin ? 'edit' : (levelOf.get(`${m.userId}:${a}`) ?? '')]),
      ) as Record<Area, string>),
    }));
  }),

  serve(getSpecialPermissionByUserIdCall, async ({ body, session, tx }) => {
    const s = await subjectOf(tx, session, body);
    return {
      htsz: await effective(tx, s, 'htsz'),
      htsf: await effective(tx, s, 'htsf'),
      khsz: await effective(tx, s, 'khsz'),
      general: await effective(tx, s, 'general'),
    };
  }),

  serve(getSpecialPermissionHtszCall, async ({ body, session, tx }) => {
    const s = await subjectOf(tx, session, body);
    const e = await effective(tx, s, 'htsz');
    if (e.canEdit || body.contractUserId === s.userId) return { level: e.level, canView: true, canEdit: true };
    // Within the subject's own data scope (a department head over their department) counts as their own.
    if (s.userId === session.userId) {
      const [inScope] = await tx
        .select({ id: memberships.id })
        .from(memberships)
        .where(
          and(
            eq(memberships.agencyId, s.agencyId),
            eq(memberships.userId, body.contractUserId),
            dataScope(session, memberships.userId),
          ),
        )
        .limit(1);
      if (inScope) return { level: e.level, canView: true, canEdit: true };
    }
    return e;
  }),

  serve(getSpecialPermissionKhszCall, async ({ body, session, tx }) =>
    effective(tx, await subjectOf(tx, session, body), 'khsz'),
  ),

  serve(getSpecialPermissionHtsfCall, async ({ body, session, tx }) =>
    effective(tx, await subjectOf(tx, session, body), 'htsf'),
  ),

  saveFor(saveSpecialPermissionCall, 'general'),
  saveFor(saveSpecialPermissionHtszCall, 'htsz'),
  saveFor(saveSpecialPermissionKhszCall, 'khsz'),
  saveFor(saveSpecialPermissionHtsfCall, 'htsf'),
];
