import {
  ACCEPT_INVITE_PATH,
  acceptInviteCall,
  CODE,
  cancelAgInviteLogCall,
  deleteAgInviteLogCall,
  getAgencyInviteLogListCall,
  getInviteInfoCall,
  INVITE_STATUS,
  INVITE_STATUS_NAMES,
  INVITE_VALID_DAYS,
  maskStaffPhone,
  STAFF_CODE,
  STAFF_MSG,
  saveAgencyInviteCall,
} from '@dzy/shared';
import { and, eq, gt, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Queryable, setScope } from '../../db/client.js';
import { listPage, NO_CURSORS } from '../../db/paging.js';
import { departments, invites, memberships, organisations, sessions, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Deps, type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { addMember } from '../org/provision.js';
import { placeOf } from './staff.service.js';

const DAY_MS = 24 * 3600_000;
const INVITE_NOT_FOUND = '邀请不存在或不是发给当前账号的';

/** The status a person sees: a pending invitation past its date is 已过期 (3); that state is never stored. */
const shownStatus = (row: { status: number; expiresAt: Date }, now = Date.now()): 0 | 1 | 2 | 3 => {
  if (row.status === INVITE_STATUS.pending && row.expiresAt.getTime() <= now) return INVITE_STATUS.expired;
  return row.status as 0 | 1 | 2;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Invitations go to the agency itself; an accounting factory's session cannot send them. */
export function agencyPlace(session: Parameters<typeof placeOf>[0]) {
  const place = placeOf(session);
  if (place.orgId !== place.agencyId)
    throw new AppError(CODE.BAD_REQUEST, '会计工厂暂不支持邀请员工，请切换到代理机构后邀请');
  return place;
}

/** The invitation with this id in the caller's agency, or 404. */
async function agencyInvite(tx: Queryable, agencyId: number, id: number) {
  const [row] = await tx
    .select()
    .from(invites)
    .where(and(eq(invites.id, id), eq(invites.agencyId, agencyId)))
    .limit(1);
  if (!row) throw new AppError(CODE.NOT_FOUND, '邀请记录不存在');
  return row;
}

/** The invitation with this id addressed to the caller's phone (row-level security lets the invitee read it), or 404. */
async function myInvite(tx: Queryable, phone: string, id: number) {
  const [row] = await tx
    .select()
    .from(invites)
    .where(and(eq(invites.id, id), eq(invites.phone, phone)))
    .limit(1);
  if (!row) throw new AppError(CODE.NOT_FOUND, INVITE_NOT_FOUND);
  return row;
}

const statusFilter = (status: number | undefined): SQL | undefined => {
  if (status === undefined) return undefined;
  if (status === INVITE_STATUS.expired) return and(eq(invites.status, 0), lte(invites.expiresAt, sql`now()`));
  if (status === INVITE_STATUS.pending) return and(eq(invites.status, 0), gt(invites.expiresAt, sql`now()`));
  return eq(invites.status, status);
};

/** What one invitation needs besides its body: the caller and where the SMS link points. */
export interface InviteCtx {
  session: SessionCtx;
  tx: Queryable;
  req: FastifyRequest;
  deps: Deps;
}

/**
 * Sends one invitation (the rules of saveAgencyInvite, shared with the batch): the department must be the
 * agency's, the phone must not be a member nor have a pending invitation. Throws AppError otherwise.
 */
export async function inviteOne(
  { session, tx, req, deps }: InviteCtx,
  body: { sjh: string; hymc?: string; role: 0 | 2; departmentId?: number },
) {
  const place = agencyPlace(session);
  if (body.departmentId !== undefined) {
    const [dept] = await tx
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.id, body.departmentId), eq(departments.agencyId, place.agencyId)));
    if (!dept) throw new AppError(CODE.NOT_FOUND, '部门不存在');
  }
  const [member] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(users.phone, body.sjh), eq(memberships.agencyId, place.agencyId), eq(memberships.orgId, place.orgId)))
    .limit(1);
  if (member) throw new AppError(STAFF_CODE.alreadyMember, STAFF_MSG.alreadyMember);
  const [pending] = await tx
    .select({ id: invites.id })
    .from(invites)
    .where(and(eq(invites.agencyId, place.agencyId), eq(invites.phone, body.sjh), statusFilter(INVITE_STATUS.pending)))
    .limit(1);
  if (pending) throw new AppError(CODE.CONFLICT, STAFF_MSG.invitePending);

  const [row] = await tx
    .insert(invites)
    .values({
      agencyId: place.agencyId,
      phone: body.sjh,
      hymc: body.hymc ?? '',
      inviterId: session.userId,
      role: body.role,
      departmentId: body.departmentId ?? null,
      expiresAt: new Date(Date.now() + INVITE_VALID_DAYS * DAY_MS),
    })
    .returning({ id: invites.id });
  if (!row) throw new AppError(CODE.ERROR, '邀请失败，请稍后再试');
  // PUBLIC_URL only: a forged Host or X-Forwarded-Host must not put another site into the platform's SMS.
  const link = `${deps.config.publicUrl}/#${ACCEPT_INVITE_PATH}?id=${row.id}`;
  await deps.sms.send(
    tx,
    body.sjh,
    `【代账云】${session.hymc || '管理员'}邀请您加入「${session.orgName ?? ''}」，请在${INVITE_VALID_DAYS}天内打开链接接受邀请：${link}`,
    session.agencyId,
  );
  await audit(tx, req, session, 'staff.invite', `invite:${row.id}`, {
    phone: maskStaffPhone(body.sjh),
    role: body.role,
    departmentId: body.departmentId ?? null,
  });
  return { id: row.id };
}

export const inviteCalls: Served[] = [
  serve(saveAgencyInviteCall, async (c) => inviteOne(c, c.body)),

  serve(getAgencyInviteLogListCall, async ({ body, session, tx }) => {
    const place = placeOf(session);
    if (place.orgId !== place.agencyId) return { list: [], total: 0, cursor: NO_CURSORS };
    const inviter = sql`(select ${users.hymc} from ${users} where ${users.id} = ${invites.inviterId})`;
    const where = and(
      eq(invites.agencyId, place.agencyId),
      statusFilter(body.status),
      body.sjh ? sql`${invites.phone} like ${`%${body.sjh.replace(/\D/g, '')}%`}` : undefined,
    );
    const { pageNo, pageSize, cursor, ...filter } = body;
    // Newest first: index invites_agency_idx (agency_id, created_at, id).
    const sort = { name: 'createdAt', keys: [invites.createdAt, invites.id], desc: true };
    const page = await listPage(
      tx,
      { from: sql`${invites}`, where: where as SQL, sort, ask: { pageNo, pageSize, cursor }, filter },
      async (ids) =>
        (
          await tx
            .select({
              i: invites,
              departmentName: departments.name,
              inviterName: sql<string>`coalesce(${inviter}, '')`,
            })
            .from(invites)
            .leftJoin(departments, eq(departments.id, invites.departmentId))
            .where(and(eq(invites.agencyId, place.agencyId), inArray(invites.id, ids)))
        ).map((r) => ({ ...r, id: r.i.id })),
    );
    const now = Date.now();
    return {
      total: page.total,
      cursor: page.cursor,
      list: page.list.map(({ i, departmentName, inviterName }) => {
        const status = shownStatus(i, now);
        return {
          id: i.id,
          sjh: i.phone,
          hymc: i.hymc,
          role: i.role,
          departmentName: departmentName ?? '',
          inviterName,
          status,
          statusName: INVITE_STATUS_NAMES[status] ?? '',
          createdAt: i.createdAt.toISOString(),
          expiresAt: i.expiresAt.toISOString(),
          acceptedAt: iso(i.acceptedAt),
        };
      }),
    };
  }),

  serve(cancelAgInviteLogCall, async ({ body, session, tx, req }) => {
    const place = agencyPlace(session);
    const row = await agencyInvite(tx, place.agencyId, body.id);
    if (shownStatus(row) !== INVITE_STATUS.pending) throw new AppError(CODE.CONFLICT, '只能取消待接受的邀请');
    await tx.update(invites).set({ status: INVITE_STATUS.cancelled }).where(eq(invites.id, row.id));
    await audit(tx, req, session, 'staff.invite_cancel', `invite:${row.id}`, { phone: maskStaffPhone(row.phone) });
    return null;
  }),

  serve(deleteAgInviteLogCall, async ({ body, session, tx, req }) => {
    const place = agencyPlace(session);
    const row = await agencyInvite(tx, place.agencyId, body.id);
    const status = shownStatus(row);
    if (status !== INVITE_STATUS.cancelled && status !== INVITE_STATUS.expired) {
      throw new AppError(CODE.CONFLICT, '只能删除已取消或已过期的邀请记录');
    }
    await tx.delete(invites).where(eq(invites.id, row.id));
    await audit(tx, req, session, 'staff.invite_delete', `invite:${row.id}`, {
      phone: maskStaffPhone(row.phone),
      status,
    });
    return null;
  }),

  serve(getInviteInfoCall, async ({ body, session, tx }) => {
    const row = await myInvite(tx, session.phone, body.id);
    // The invitee reads the inviting agency's department name in that agency's scope (read only).
    await setScope(tx, { agencyId: row.agencyId, userId: session.userId, kjgcId: null });
    const [org] = await tx
      .select({ name: organisations.name })
      .from(organisations)
      .where(eq(organisations.id, row.agencyId));
    const [inviter] = await tx.select({ hymc: users.hymc }).from(users).where(eq(users.id, row.inviterId));
    const [dept] = row.departmentId
      ? await tx.select({ name: departments.name }).from(departments).where(eq(departments.id, row.departmentId))
      : [];
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.orgId, row.agencyId), eq(memberships.userId, session.userId)))
      .limit(1);
    const status = shownStatus(row);
    return {
      id: row.id,
      agencyName: org?.name ?? '',
      inviterName: inviter?.hymc ?? '',
      sjh: row.phone,
      hymc: row.hymc,
      role: row.role,
      departmentName: dept?.name ?? '',
      status,
      statusName: INVITE_STATUS_NAMES[status] ?? '',
      expiresAt: row.expiresAt.toISOString(),
      alreadyMember: member !== undefined,
    };
  }),

  serve(acceptInviteCall, async ({ body, session, tx, req }) => {
    const row = await myInvite(tx, session.phone, body.id);
    const status = shownStatus(row);
    if (status === INVITE_STATUS.accepted) throw new AppError(CODE.CONFLICT, '该邀请已接受');
    if (status === INVITE_STATUS.cancelled) throw new AppError(CODE.CONFLICT, '该邀请已取消，请联系邀请人重新邀请');
    if (status === INVITE_STATUS.expired) throw new AppError(CODE.CONFLICT, '该邀请已过期，请联系邀请人重新邀请');

    // From here the transaction acts in the inviting agency, so row-level security admits the writes.
    await setScope(tx, { agencyId: row.agencyId, userId: session.userId, kjgcId: null });
    const [org] = await tx
      .select({ id: organisations.id, name: organisations.name })
      .from(organisations)
      .where(eq(organisations.id, row.agencyId));
    if (!org) throw new AppError(CODE.NOT_FOUND, '代理机构不存在');
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.orgId, org.id), eq(memberships.userId, session.userId)))
      .limit(1);
    if (member) throw new AppError(STAFF_CODE.alreadyMember, STAFF_MSG.alreadyMember);

    await addMember(tx, {
      agencyId: row.agencyId,
      orgId: org.id,
      userId: session.userId,
      role: row.role === 2 ? 2 : 0,
      departmentId: row.departmentId,
    });
    // A user who signed up by SMS has no name yet: take the one the inviter gave.
    if (!session.hymc && row.hymc) await tx.update(users).set({ hymc: row.hymc }).where(eq(users.id, session.userId));
    await tx
      .update(invites)
      .set({ status: INVITE_STATUS.accepted, acceptedAt: new Date() })
      .where(eq(invites.id, row.id));
    await tx.update(sessions).set({ orgId: org.id }).where(eq(sessions.id, session.sessionId));
    // No message centre yet: the inviter's notice is the audit record.
    await audit(
      tx,
      req,
      { agencyId: row.agencyId, userId: session.userId },
      'staff.invite_accept',
      `invite:${row.id}`,
      {
        inviterId: row.inviterId,
        role: row.role,
      },
    );
    return { orgId: org.id, orgName: org.name };
  }),
];
