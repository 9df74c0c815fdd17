import { createHmac } from 'node:crypto';
import {
  ALL_PERMS,
  CODE,
  checkPersonHasMenuAuthCall,
  checkPersonHasMenuAuthV2Call,
  checkSmsCodeCall,
  GRANTABLE_PERMS,
  getUserV3Call,
  hasPerm,
  MENU_AUTH_MSG,
  MENUS,
  type MenuDef,
  MSG,
  OPERATOR_PERMS,
  PERM_WHITELIST_GATES,
} from '@dzy/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  departments,
  membershipRoles,
  memberships,
  organisations,
  roles,
  smsCodes,
  users,
} from '../../db/schema/index.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { whitelistsOf } from '../filing-check/gate.js';
import { menuTreeFor } from '../menu/menu.routes.js';

const MAX_ATTEMPTS = 5;
const GRANTABLE = new Set<string>(GRANTABLE_PERMS);
const MENU_BY_ID = new Map((MENUS as readonly MenuDef[]).map((m) => [m.id, m]));

/** The permissions `userId` holds in the caller's agency, as their own session would (plugins/session.ts). */
async function permsOf(tx: Tx, session: SessionCtx, userId: number | undefined): Promise<string[]> {
  if (userId === undefined || userId === session.userId) return session.perms;
  // Another person's permissions are read only by those who may see the staff list.
  if (!hasPerm(session.perms, 'staff:list:view')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  // memberships and roles are tenant rows: another agency's member is simply not found.
  const [m] = await tx
    .select({ id: memberships.id, isAdmin: memberships.isAdmin, isOperator: users.isOperator })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.agencyId, session.agencyId ?? -1), eq(memberships.userId, userId)))
    .limit(1);
  if (!m) throw new AppError(CODE.NOT_FOUND, MENU_AUTH_MSG.notMember);
  const operator = m.isOperator ? OPERATOR_PERMS : [];
  if (m.isAdmin) return [ALL_PERMS, ...operator];
  const rows = await tx
    .select({ perms: roles.perms })
    .from(membershipRoles)
    .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
    .where(eq(membershipRoles.membershipId, m.id));
  return [...new Set(rows.flatMap((r) => r.perms))].filter((p) => GRANTABLE.has(p)).concat(operator);
}

/** Menu ids a holder of `perms` reaches: the pages and directories of their menu tree, and their buttons. */
function authorised(perms: readonly string[], lists: ReadonlySet<string>) {
  const open = new Set<number>();
  const walk = (nodes: ReturnType<typeof menuTreeFor>) => {
    for (const n of nodes) {
      open.add(n.id);
      walk(n.children);
    }
  };
  walk(menuTreeFor(perms, 0, lists));
  return (m: MenuDef) => {
    if (m.type !== 'F') return open.has(m.id);
    // A button: its page reachable, the permission held and not switched off by a white list.
    const gate = m.perm ? PERM_WHITELIST_GATES[m.perm] : undefined;
    if (gate && !lists.has(gate)) return false;
    return open.has(m.parentId) && (!m.perm || hasPerm(perms, m.perm));
  };
}

async function menuAuth(tx: Tx, session: SessionCtx, menuIds: readonly number[], userId: number | undefined) {
  const defs = menuIds.map((id) => {
    const m = MENU_BY_ID.get(id);
    if (!m) throw new AppError(CODE.NOT_FOUND, `${MENU_AUTH_MSG.unknownMenu}：${id}`);
    return m;
  });
  const perms = await permsOf(tx, session, userId);
  const has = authorised(perms, await whitelistsOf(tx, session.agencyId));
  return defs.map((m) => ({ menuId: m.id, title: m.title, menuType: m.type, hasAuth: has(m) }));
}

/** Same keyed hash as sms-code.ts stores: a code is never kept in clear. */
const hashCode = (secret: Buffer, phone: string, code: string) =>
  createHmac('sha256', secret).update(`${phone}:${code}`).digest('hex');

export const authChecksModule: ServerModule = {
  name: 'auth-checks',
  calls: [
    serve(getUserV3Call, async ({ session, tx }) => {
      const [org] = session.orgId
        ? await tx
            .select({ quitSet: organisations.quitSet })
            .from(organisations)
            .where(eq(organisations.id, session.orgId))
        : [];
      const [dept] = session.departmentId
        ? await tx.select({ name: departments.name }).from(departments).where(eq(departments.id, session.departmentId))
        : [];
      return {
        user_id: session.userId,
        phone: session.phone,
        hymc: session.hymc,
        headimg: session.headimg,
        agency_id: session.agencyId,
        org_id: session.orgId,
        org_name: session.orgName,
        org_type: session.orgType,
        role: session.role,
        isAdmin: session.isAdmin ? ('1' as const) : ('0' as const),
        is_connection: session.membershipId !== null ? ('1' as const) : ('0' as const),
        quitSet: org?.quitSet ?? null,
        department_id: session.departmentId,
        department_name: dept?.name ?? null,
      };
    }),

    serve(checkPersonHasMenuAuthCall, async ({ body, session, tx }) => {
      const [row] = await menuAuth(tx, session, [body.menuId], body.userId);
      if (!row) throw new AppError(CODE.NOT_FOUND, MENU_AUTH_MSG.unknownMenu);
      return row;
    }),

    serve(checkPersonHasMenuAuthV2Call, async ({ body, session, tx }) => ({
      list: await menuAuth(tx, session, [...new Set(body.menuIds)], body.userId),
    })),

    // The code stays usable for the step that consumes it (login, reset); a wrong one counts towards the
    // five attempts a code allows, and the Answer keeps that count (a thrown error would roll it back).
    serve(checkSmsCodeCall, async ({ body, tx, deps }) => {
      const [row] = await tx
        .select()
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, body.phone), eq(smsCodes.purpose, body.dictLabel), isNull(smsCodes.usedAt)))
        .orderBy(desc(smsCodes.sentAt))
        .limit(1);
      const wrong = new Answer(CODE.BAD_REQUEST, '验证码错误或已失效，请重新获取');
      if (!row || row.expiresAt.getTime() < Date.now() || row.attempts >= MAX_ATTEMPTS) return wrong;
      if (row.codeHash !== hashCode(deps.config.secretKey, body.phone, body.code)) {
        await tx
          .update(smsCodes)
          .set({ attempts: row.attempts + 1 })
          .where(eq(smsCodes.id, row.id));
        return wrong;
      }
      return { valid: true as const };
    }),
  ],
};
