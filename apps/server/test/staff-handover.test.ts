import {
  CODE,
  deleteAgUserConnectionIsConnCall,
  getHandoverStaffCall,
  handoverInfoCheckCall,
  workHandoverCall,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, enterprises, stationMembers, stations } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';
import { ADMIN, auditOf, byName, ID, inAgency, LI, OTHER_ADMIN, staffOf, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let zhang: string;
let otherAdmin: string;

/**
 * A switch to make a handover fail at its very end: a trigger refuses the handover's audit record while
 * the switch is on, after every move has been made, so the whole transaction must be undone.
 */
const FAIL_SWITCH = [
  'create table test_switches (name text primary key)',
  'grant select, insert, delete on test_switches to dzy_app',
  `create function test_fail_handover() returns trigger language plpgsql as $$
  begin
    if new.action = 'staff.handover' and exists (select 1 from test_switches where name = 'fail_handover') then
      raise exception 'handover made to fail by the test';
    end if;
    return new;
  end $$`,
  'create trigger audit_fail_handover before insert on audit_log for each row execute function test_fail_handover()',
];

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      for (const stmt of FAIL_SWITCH) await owner.execute(sql.raw(stmt));
    },
  });
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
  otherAdmin = await t.login(OTHER_ADMIN);
});
afterAll(() => t.close());

const clientsOf = async (userId: number) =>
  (
    await inAgency(t, 1, (tx) =>
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, 1), eq(enterprises.allocateUser, userId))),
    )
  )[0]?.n;
const postsOf = (userId: number) =>
  inAgency(t, 1, async (tx) =>
    (
      await tx
        .select({ name: stations.name })
        .from(stationMembers)
        .innerJoin(stations, eq(stations.id, stationMembers.stationId))
        .where(eq(stationMembers.userId, userId))
        .orderBy(stations.sort)
    ).map((r) => r.name),
  );
const directorOf = async (name: string) =>
  (
    await inAgency(t, 1, (tx) =>
      tx.select({ d: departments.directorUserId }).from(departments).where(eq(departments.name, name)),
    )
  )[0]?.d;
const handover = (body: unknown, cookie = admin) => t.call(workHandoverCall.path, body, cookie);

describe('handoverInfoCheck', () => {
  it('tells what a member owns: clients, posts, director posts', async () => {
    await inAgency(t, 1, async (tx) => {
      const [post] = await tx.select({ id: stations.id }).from(stations).where(eq(stations.name, '记账会计'));
      await tx.insert(stationMembers).values({ agencyId: 1, stationId: post?.id ?? 0, userId: ID.zhang });
    });
    const z = await t.call(handoverInfoCheckCall.path, { id: ID.zhang }, admin);
    expect(z).toMatchObject({ code: CODE.OK, data: { clientCount: 20, stationCount: 2, departmentDirector: false } });
    const l = await t.call(handoverInfoCheckCall.path, { id: ID.li }, admin);
    expect(l.data).toEqual({ clientCount: 20, stationCount: 1, departmentDirector: true });
  });

  it("refuses another agency's user, bad input, no session and no permission", async () => {
    expect((await t.call(handoverInfoCheckCall.path, { id: ID.otherAdmin }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(handoverInfoCheckCall.path, { id: ID.zhang }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expectBadInput(await t.call(handoverInfoCheckCall.path, {}, admin), 'ID', '请选择员工');
    expectBadInput(await t.call(handoverInfoCheckCall.path, { id: 1.5 }, admin), 'ID');
    expectSignedOut(await t.call(handoverInfoCheckCall.path, { id: ID.zhang }));
    expectNoPermission(await t.call(handoverInfoCheckCall.path, { id: ID.li }, zhang));
  });
});

describe('getHandoverStaff', () => {
  it('lists the colleagues who can receive, with their client counts', async () => {
    const r = await t.call<{ userId: number; hymc: string; clientCount: number; departmentName: string }[]>(
      getHandoverStaffCall.path,
      {},
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    expect(r.data.map((s) => [s.hymc, s.clientCount, s.departmentName])).toEqual([
      ['王建国', 20, ''],
      ['李晓梅', 20, '记账一部'],
      ['张伟', 20, '记账一部'],
    ]);
    const other = await t.call<{ hymc: string }[]>(getHandoverStaffCall.path, {}, otherAdmin);
    expect(other.data.map((s) => s.hymc)).toEqual(['陈思远']);
  });

  it('refuses no session, no permission and unknown fields', async () => {
    expectSignedOut(await t.call(getHandoverStaffCall.path, {}));
    expectNoPermission(await t.call(getHandoverStaffCall.path, {}, zhang));
    expectUnknownField(await t.call(getHandoverStaffCall.path, { agency_id: 1 }, admin), 'agency_id');
  });
});

describe('workHandover', () => {
  it('refuses bad input naming the field, and moves nothing', async () => {
    expectBadInput(await handover({ fromId: ID.zhang, toId: ID.zhang }), '接收人', '接收人不能是交接人本人');
    expectBadInput(await handover({ toId: ID.li }), '交接人', '请选择交接人');
    expectBadInput(await handover({ fromId: ID.zhang }), '接收人', '请选择接收人');
    expectUnknownField(await handover({ fromId: ID.zhang, toId: ID.li, agencyId: 1 }), 'agencyId');
    expect(await clientsOf(ID.zhang)).toBe(20);
  });

  it('refuses no session and no permission (张伟 cannot hand over his own work)', async () => {
    expectSignedOut(await t.call(workHandoverCall.path, { fromId: ID.zhang, toId: ID.li }));
    expectNoPermission(await handover({ fromId: ID.zhang, toId: ID.li }, zhang));
    expect(await clientsOf(ID.zhang)).toBe(20);
  });

  it("refuses another agency's user on either side, and moves nothing", async () => {
    expect((await handover({ fromId: ID.zhang, toId: ID.otherAdmin })).code).toBe(CODE.NOT_FOUND);
    expect((await handover({ fromId: ID.otherAdmin, toId: ID.li })).code).toBe(CODE.NOT_FOUND);
    // The other agency's administrator cannot move the demo agency's people either.
    expect((await handover({ fromId: ID.zhang, toId: ID.li }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expect(await clientsOf(ID.zhang)).toBe(20);
    expect(await clientsOf(ID.li)).toBe(20);
  });

  it('changes nothing when it fails part-way: clients, posts and director posts all stay', async () => {
    await t.db.app.execute(sql`insert into test_switches values ('fail_handover')`);
    try {
      // 李晓梅 owns clients, the 服务顾问 post and the director post of 记账一部: all would move to 张伟.
      const r = await handover({ fromId: ID.li, toId: ID.zhang });
      expect(r.code).toBe(CODE.ERROR);
    } finally {
      await t.db.app.execute(sql`delete from test_switches`);
    }
    expect(await clientsOf(ID.li)).toBe(20);
    expect(await clientsOf(ID.zhang)).toBe(20);
    expect(await postsOf(ID.li)).toEqual(['服务顾问']);
    expect(await directorOf('记账一部')).toBe(ID.li);
    expect(await auditOf(t, 1, 'staff.handover')).toHaveLength(0);
  });

  it("moves all 20 of 张伟's clients and his posts to 李晓梅 in one step (audited)", async () => {
    const before = (await staffOf(t, admin)).list;
    expect(byName(before, '张伟')?.clientCount).toBe(20);
    expect(byName(before, '李晓梅')?.clientCount).toBe(20);

    const r = await handover({ fromId: ID.zhang, toId: ID.li });
    expect(r).toMatchObject({ code: CODE.OK, data: { clients: 20, directorPosts: 0, stations: 2 } });

    const after = (await staffOf(t, admin)).list;
    expect(byName(after, '张伟')?.clientCount).toBe(0);
    expect(byName(after, '李晓梅')?.clientCount).toBe(40);
    expect(byName(after, '王建国')?.clientCount).toBe(20);
    expect(await postsOf(ID.zhang)).toEqual([]);
    expect(await postsOf(ID.li)).toEqual(['服务顾问', '记账会计']);
    const [rec] = await auditOf(t, 1, 'staff.handover');
    expect(rec).toMatchObject({
      userId: ID.admin,
      target: `user:${ID.zhang}`,
      detail: { fromId: ID.zhang, toId: ID.li, clients: 20, directorPosts: 0, stations: 2 },
    });
    expect((await t.call(handoverInfoCheckCall.path, { id: ID.zhang }, admin)).data).toEqual({
      clientCount: 0,
      stationCount: 0,
      departmentDirector: false,
    });
  });

  it('moves department director posts too: the receiver heads the department, the leaver is no longer head', async () => {
    const r = await handover({ fromId: ID.li, toId: ID.admin });
    expect(r.data).toMatchObject({ clients: 40, directorPosts: 1 });
    expect(await directorOf('记账一部')).toBe(ID.admin);
    expect(await clientsOf(ID.admin)).toBe(60);
    const labels = await inAgency(t, 1, (tx) =>
      tx.execute(
        sql`select user_id, role, department_id is not null as placed from memberships where org_id = 1 order by user_id`,
      ),
    );
    // The administrator keeps label 1 and is now in the department; 李晓梅 goes back to 部门员工.
    expect((labels as unknown as { rows: unknown[] }).rows.slice(0, 2)).toEqual([
      { user_id: ID.admin, role: 1, placed: true },
      { user_id: ID.li, role: 0, placed: true },
    ]);
  });

  it('after the handover, the leaver can be removed', async () => {
    const r = await t.call(deleteAgUserConnectionIsConnCall.path, { userId: ID.zhang }, admin);
    expect(r.code).toBe(CODE.OK);
    expect(byName((await staffOf(t, admin)).list, '张伟')).toBeUndefined();
    expect(LI).toBeTruthy();
    expect(ZHANG).toBeTruthy();
  });
});
