import { changeDepartmentCall, type DepartmentNode, departmentTreeCall, saveDepartmentCall } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { enterprises } from '../src/db/schema/index.js';
import { dataScope } from '../src/lib/data-scope.js';
import { resolveSession, type SessionCtx } from '../src/plugins/session.js';
import { startTestApp, type TestApp } from './harness.js';
import { tokenOf } from './helpers.js';

/**
 * Data scope follows the role labels the department calls maintain: 1 代理所管理员 sees the agency,
 * 2 部门负责人 their department and below, 0 部门员工 their own clients.
 */
let t: TestApp;
let admin: string;

/** The caller as the server sees them on their next request. */
async function sessionOf(phone: string): Promise<SessionCtx> {
  const cookie = await t.login(phone);
  const req = { headers: { authorization: `Bearer ${tokenOf(cookie)}` }, cookies: {} } as unknown as FastifyRequest;
  const s = await resolveSession(t.db.app, req);
  if (!s) throw new Error(`no session for ${phone}`);
  return s;
}

/** Ids of the enterprises the session may see, through the one data-scope helper. */
async function visible(s: SessionCtx): Promise<number[]> {
  const rows = await inScope(t.db.app, { agencyId: s.agencyId, userId: s.userId, kjgcId: null }, (tx) =>
    tx.select({ id: enterprises.id }).from(enterprises).where(dataScope(s, enterprises.allocateUser)),
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function allocatedTo(agencyId: number, ...userIds: number[]): Promise<number[]> {
  const rows = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select({ id: enterprises.id, owner: enterprises.allocateUser })
      .from(enterprises)
      .where(eq(enterprises.agencyId, agencyId)),
  );
  return rows
    .filter((r) => r.owner !== null && userIds.includes(r.owner))
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
});
afterAll(() => t.close());

describe('data scope by role label (lib/data-scope.ts)', () => {
  it('the administrator (label 1) sees all 60 clients of the agency', async () => {
    const s = await sessionOf('13800000000');
    expect(s.role).toBe(1);
    expect(await visible(s)).toHaveLength(60);
  });

  it('the head of 记账一部 (label 2) sees her clients and those of 张伟, her department member: 40', async () => {
    const head = await sessionOf('13800000001');
    const staff = await sessionOf('13800000002');
    expect(head.role).toBe(2);
    expect(staff.departmentId).toBe(head.departmentId);
    const seen = await visible(head);
    expect(seen).toHaveLength(40);
    expect(seen).toEqual(await allocatedTo(1, head.userId, staff.userId));
  });

  it('an employee (label 0) sees only the 20 clients allocated to them', async () => {
    const staff = await sessionOf('13800000002');
    expect(staff.role).toBe(0);
    const seen = await visible(staff);
    expect(seen).toHaveLength(20);
    expect(seen).toEqual(await allocatedTo(1, staff.userId));
  });

  it('another agency administrator sees only that agency: 20', async () => {
    expect(await visible(await sessionOf('13900000000'))).toHaveLength(20);
  });

  it('follows the department calls: members moved out leave the head scope, a new head sees their department', async () => {
    const [one, two] = (await t.call<DepartmentNode[]>(departmentTreeCall.path, {}, admin)).data;
    if (!one || !two) throw new Error('seeded departments missing');
    const staffId = (await sessionOf('13800000002')).userId;

    await t.call(changeDepartmentCall.path, { userIds: [staffId], orgId: two.id }, admin);
    expect(await visible(await sessionOf('13800000001'))).toHaveLength(20);

    // 张伟 heads 记账二部 with a sub-department holding 李晓梅: 40 for him.
    await t.call(saveDepartmentCall.path, { id: two.id, name: two.name, directorUserId: staffId }, admin);
    const sub = await t.call<{ id: number }>(saveDepartmentCall.path, { name: '二部一组', pid: two.id }, admin);
    const headId = (await sessionOf('13800000001')).userId;
    await t.call(changeDepartmentCall.path, { userIds: [headId], orgId: sub.data.id }, admin);
    const staff = await sessionOf('13800000002');
    expect(staff.role).toBe(2);
    expect(await visible(staff)).toEqual(await allocatedTo(1, staffId, headId));
    // 李晓梅 left the department she headed: back to label 0 and her own 20.
    const head = await sessionOf('13800000001');
    expect(head.role).toBe(0);
    expect(await visible(head)).toHaveLength(20);
  });
});
