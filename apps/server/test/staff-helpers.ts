import {
  acceptInviteCall,
  CODE,
  getAgencyInviteLogListCall,
  getAgencyInviteUserListV3Call,
  type InviteLogItem,
  type StaffItem,
  saveAgencyInviteCall,
} from '@dzy/shared';
import { and, desc, eq } from 'drizzle-orm';
import { inScope } from '../src/db/client.js';
import { auditLog, membershipRoles, memberships, roles } from '../src/db/schema/index.js';
import type { TestApp } from './harness.js';
import { outboxFor, registerBySms } from './helpers.js';

/** Demo people (apps/server/src/db/seed/demo.ts). */
export const ADMIN = '13800000000';
export const LI = '13800000001';
export const ZHANG = '13800000002';
export const OTHER_ADMIN = '13900000000';
export const FACTORY = '13700000000';
export const ID = { admin: 1, li: 2, zhang: 3, otherAdmin: 4, factory: 5 } as const;
export const DEMO_AGENCY_NAME = '演示财税代理有限公司';

/** The staff list of the caller's agency (first page of 100), by name. */
export async function staffOf(t: TestApp, cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<{ list: StaffItem[]; total: number }>(
    getAgencyInviteUserListV3Call.path,
    { pageSize: 100, ...body },
    cookie,
  );
  if (r.code !== CODE.OK) throw new Error(`staff list failed: ${r.code} ${r.msg}`);
  return r.data;
}

export const byName = (list: StaffItem[], hymc: string) => list.find((s) => s.hymc === hymc);

/** The invite log of the caller's agency, newest first. */
export async function inviteLogOf(t: TestApp, cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<{ list: InviteLogItem[]; total: number }>(
    getAgencyInviteLogListCall.path,
    { pageSize: 100, ...body },
    cookie,
  );
  if (r.code !== CODE.OK) throw new Error(`invite log failed: ${r.code} ${r.msg}`);
  return r.data;
}

/** The invitation id from the newest invitation SMS to `phone`, as the invitee would read it. */
export async function inviteIdFromSms(t: TestApp, phone: string): Promise<number> {
  const sms = (await outboxFor(t, phone)).find((m) => m.content.includes('acceptInvite'));
  const id = sms?.content.match(/#\/acceptInvite\?id=(\d+)/)?.[1];
  if (!id) throw new Error(`no invitation SMS to ${phone}`);
  return Number(id);
}

/** Invites a new phone, signs it up by SMS and accepts: returns the new member's cookie and user id. */
export async function joinByInvite(
  t: TestApp,
  adminCookie: string,
  phone: string,
  hymc: string,
  departmentId?: number,
) {
  const sent = await t.call<{ id: number }>(
    saveAgencyInviteCall.path,
    { sjh: phone, hymc, role: 0, ...(departmentId ? { departmentId } : {}) },
    adminCookie,
  );
  if (sent.code !== CODE.OK) throw new Error(`invite failed: ${sent.msg}`);
  const cookie = await registerBySms(t, phone);
  const accepted = await t.call(acceptInviteCall.path, { id: sent.data.id }, cookie);
  if (accepted.code !== CODE.OK) throw new Error(`accept failed: ${accepted.msg}`);
  const me = await t.call<{ token: { id: number } }>('userext/v1.0/common/user/session', {}, cookie);
  return { cookie, userId: me.data.token.id, inviteId: sent.data.id };
}

/** Audit records of an agency with this action, newest first (read in that agency's scope). */
export function auditOf(t: TestApp, agencyId: number, action: string) {
  return inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.agencyId, agencyId), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.id)),
  );
}

/** Runs SQL as the app role in an agency's scope (row-level security applies), for arranging test data. */
export function inAgency<T>(t: TestApp, agencyId: number, fn: Parameters<typeof inScope<T>>[2]) {
  return inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, fn);
}

/** Gives a member an extra role holding `perms` (the default role 普通员工 holds no staff:* permission). */
export function grantRole(t: TestApp, agencyId: number, userId: number, name: string, perms: string[]) {
  return inAgency(t, agencyId, async (tx) => {
    const [role] = await tx.insert(roles).values({ agencyId, name, perms }).returning({ id: roles.id });
    const [m] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.orgId, agencyId), eq(memberships.userId, userId)));
    if (!role || !m) throw new Error('grantRole: no role or membership');
    await tx.insert(membershipRoles).values({ agencyId, membershipId: m.id, roleId: role.id });
  });
}
