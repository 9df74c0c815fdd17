import {
  accessLogCall,
  agencyEquityCall,
  allocateUsersCall,
  BENEFIT_MENU,
  CODE,
  chooserListCall,
  customerAssignCall,
  customerDeleteCall,
  customerPurgeCall,
  customerRestoreCall,
  customerServiceCall,
  EQUITY_MSG,
  type EquityFacts,
  equityCheckCall,
  equityDecision,
  getMemoryCall,
  gradeDeleteCall,
  gradeListCall,
  gradeSaveCall,
  labelDeleteCall,
  labelListCall,
  labelSaveCall,
  muteEquityCall,
  noQyshListCall,
  noteCancelConcernCall,
  noteConcernCall,
  noteDeleteCall,
  noteListCall,
  noteSaveCall,
  recycleListCall,
  selectMsgListCall,
  updateMemoryCall,
  updateQyshCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { accessLog, auditLog, messages, organisations } from '../src/db/schema/index.js';
import {
  ADMIN,
  create,
  detail,
  ENT,
  FACTORY,
  grantStaffEverything,
  ID,
  LI,
  list,
  OTHER_ADMIN,
  stored,
  withDefaultPerms,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;
let factory: string;

beforeAll(async () => {
  t = await startTestApp();
  // Scope is what these tests are about: the staff hold the permissions an administrator may grant.
  await grantStaffEverything(t);
  [admin, li, zhang, other, factory] = await Promise.all([
    t.login(ADMIN),
    t.login(LI),
    t.login(ZHANG),
    t.login(OTHER_ADMIN),
    t.login(FACTORY),
  ]);
});
afterAll(() => t.close());

const messagesOf = (userId: number, agencyId = 1) =>
  inScope(t.db.app, { agencyId, userId, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.agencyId, agencyId))),
  );

describe('assign (allocateAgencyEnterprise)', () => {
  it('gives enterprises to a member and sends them the dispatch message', async () => {
    const before = (await messagesOf(ID.zhang)).length;
    const r = await t.call<{ count: number }>(
      customerAssignCall.path,
      { aeiIds: [ENT.adminOwn], userId: ID.zhang },
      admin,
    );
    expect(r.code).toBe(CODE.OK);
    expect(r.data.count).toBe(1);
    expect((await detail(t, zhang, ENT.adminOwn)).allocate_user).toBe(ID.zhang);
    const msgs = await messagesOf(ID.zhang);
    expect(msgs.length).toBe(before + 1);
    const d = await detail(t, admin, ENT.adminOwn);
    const last = msgs.at(-1);
    expect(last?.content).toBe(`【客户分配提醒】您有新分配的客户：${d.qymc}`);
    expect(last?.msgStyleSmall).toBe('customer');
    expect(last?.targetId).toBe(ENT.adminOwn);
    // 张伟 reads it in his message list.
    const listed = await t.call<{ list: { content: string }[] }>(
      selectMsgListCall.path,
      { msg_style_big: 1, pageNo: 1, pageSize: 6 },
      zhang,
    );
    if (listed.code === CODE.OK) expect(listed.data.list.some((m) => m.content.includes(d.qymc))).toBe(true);
    // Give it back for the other tests.
    await t.call(customerAssignCall.path, { aeiIds: [ENT.adminOwn], userId: ID.admin }, admin);
  });

  it('a batch sends one message naming the first and the count; muted users get none', async () => {
    const ids = [7, 10, 13];
    const r = await t.call<{ count: number }>(customerAssignCall.path, { aeiIds: ids, userId: ID.li }, admin);
    expect(r.data.count).toBe(3);
    const last = (await messagesOf(ID.li)).at(-1);
    expect(last?.content).toMatch(/^【客户分配提醒】您有新分配的客户：.+等3家$/);
    await t.call(customerAssignCall.path, { aeiIds: ids, userId: ID.admin }, admin);
  });

  it('refuses a non-member, out-of-scope or foreign enterprises, and without the permission', async () => {
    expect(
      (await t.call(customerAssignCall.path, { aeiIds: [ENT.adminOwn], userId: ID.otherAdmin }, admin)).status,
    ).toBe(404);
    expect((await t.call(customerAssignCall.path, { aeiIds: [ENT.liOwn], userId: ID.zhang }, zhang)).status).toBe(404);
    expect((await t.call(customerAssignCall.path, { aeiIds: [ENT.otherAgency], userId: ID.zhang }, admin)).status).toBe(
      404,
    );
    expect((await stored(t, 2, ENT.otherAgency))?.allocateUser).toBe(ID.otherAdmin);
    const empty = await t.call(customerAssignCall.path, { aeiIds: [], userId: ID.zhang }, admin);
    expect(empty.code).toBe(CODE.BAD_REQUEST);
    expect(empty.msg).toBe('企业：请选择企业');
    expect((await t.call(customerAssignCall.path, { aeiIds: [1], userId: ID.zhang })).status).toBe(403);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(customerAssignCall.path, { aeiIds: [ENT.zhangOwn], userId: ID.li }, zhang)).status).toBe(
        460,
      );
    });
  });

  it('lists the members enterprises can be given to', async () => {
    const r = await t.call<{ userId: number; hymc: string; departmentName: string }[]>(
      allocateUsersCall.path,
      {},
      zhang,
    );
    expect(r.data.map((m) => m.hymc)).toEqual(['王建国', '李晓梅', '张伟']);
    expect(r.data[1]?.departmentName).toBe('记账一部');
  });
});

describe('benefit checks (business.md §6) and stop/resume service', () => {
  it('the shared decision follows the spec', () => {
    const f: EquityFacts = {
      menuid: 1,
      entry: true,
      iscontrol: 'Y',
      anqyflag: 'Y',
      agencyQyzt: '3',
      sfgxbzts: '0',
      kjgc: false,
      total: 3,
      entitledIds: [1],
      enterpriseQyzt: null,
    };
    expect(equityDecision({ ...f, entry: false }, [1]).error).toBe('权限异常！');
    expect(equityDecision({ ...f, iscontrol: 'N' }, [1, 2, 3]).proceedIds).toEqual([1, 2, 3]);
    expect(equityDecision({ ...f, kjgc: true }, [1, 2, 3]).proceedIds).toEqual([1, 2, 3]);
    const reminder = equityDecision({ ...f, agencyQyzt: '2' }, [2]);
    expect(reminder.proceedIds).toEqual([2]);
    expect(reminder.dialog).toMatchObject({ type: 1, status: '2', canMute: true });
    expect(equityDecision({ ...f, agencyQyzt: '2', sfgxbzts: '1' }, [2]).dialog).toBeNull();
    expect(equityDecision({ ...f, agencyQyzt: '1', anqyflag: 'N' }, [2]).proceedIds).toBeNull();
    const some = equityDecision(f, [1, 2, 3]);
    expect(some.dialog).toMatchObject({ type: 2, status: '3', continueIds: [1] });
    expect(some.dialog?.content).toBe('所选3家企业中有1家有使用权限，是否继续对这1家企业操作？');
    expect(equityDecision({ ...f, entitledIds: [] }, [1, 2]).dialog).toMatchObject({ type: 2, status: '2' });
    expect(equityDecision(f, [2]).dialog).toMatchObject({ type: 1, status: '3' });
    expect(equityDecision({ ...f, agencyQyzt: '0', enterpriseQyzt: '3' }, [2]).dialog?.content).toBe(
      EQUITY_MSG.enterpriseExpired,
    );
    expect(equityDecision({ ...f, agencyQyzt: '0', enterpriseQyzt: '' }, [2]).dialog).toMatchObject({
      type: 3,
      content: EQUITY_MSG.notInPlan,
    });
  });

  it('the check call gives the facts for the chosen enterprises', async () => {
    const r = await t.call<EquityFacts>(
      equityCheckCall.path,
      { menuid: BENEFIT_MENU.service, aeiIds: [1, 2, 3, 4, 5] },
      admin,
    );
    expect(r.data).toMatchObject({ entry: true, iscontrol: 'Y', agencyQyzt: '3', kjgc: false, total: 5 });
    expect(r.data.entitledIds.sort()).toEqual([1, 2, 3]);
    const none = await t.call<EquityFacts>(equityCheckCall.path, { menuid: 999, aeiIds: [1] }, admin);
    expect(equityDecision(none.data, [1]).error).toBe('权限异常！');
    expect((await t.call(equityCheckCall.path, { menuid: 2115, aeiIds: [ENT.otherAgency] }, admin)).status).toBe(404);
  });

  it('stops and resumes service for entitled enterprises; refuses the others', async () => {
    const stop = await t.call<{ count: number }>(
      customerServiceCall.path,
      { aeiIds: [1, 2], serviceStatus: '0' },
      admin,
    );
    expect(stop.code).toBe(CODE.OK);
    expect(stop.data.count).toBe(2);
    expect((await detail(t, admin, 1)).serviceStatus).toBe('0');
    const refused = await t.call(customerServiceCall.path, { aeiIds: [1, ENT.expired], serviceStatus: '1' }, admin);
    expect(refused.status).toBe(460);
    expect(refused.msg).toBe('所选企业中有1家无该功能的使用权限，请重新选择');
    expect((await detail(t, admin, 1)).serviceStatus).toBe('0');
    const resume = await t.call(customerServiceCall.path, { aeiIds: [1, 2], serviceStatus: '1' }, admin);
    expect(resume.code).toBe(CODE.OK);
    expect((await detail(t, admin, 1)).serviceStatus).toBe('1');
    expect(
      (await t.call(customerServiceCall.path, { aeiIds: [ENT.otherAgency], serviceStatus: '0' }, admin)).status,
    ).toBe(404);
    expect((await t.call(customerServiceCall.path, { aeiIds: [1], serviceStatus: '2' }, admin)).code).toBe(400);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(customerServiceCall.path, { aeiIds: [3], serviceStatus: '0' }, zhang)).status).toBe(460);
    });
  });

  it('an accounting factory bypasses the checks', async () => {
    const r = await t.call(customerServiceCall.path, { aeiIds: [ENT.expired], serviceStatus: '0' }, factory);
    expect(r.code).toBe(CODE.OK);
    await t.call(customerServiceCall.path, { aeiIds: [ENT.expired], serviceStatus: '1' }, factory);
    const eq2 = await t.call<{ kjgc: boolean }>(agencyEquityCall.path, {}, factory);
    expect(eq2.data.kjgc).toBe(true);
  });

  it('an agency about to expire is reminded until it mutes the reminder', async () => {
    const info = await t.call<{ qyzt: string; sfgxbzts: string; agency_id: number; menus: unknown[] }>(
      agencyEquityCall.path,
      {},
      other,
    );
    expect(info.data).toMatchObject({ qyzt: '2', sfgxbzts: '0' });
    expect(info.data.menus.length).toBeGreaterThanOrEqual(7);
    const facts = await t.call<EquityFacts>(equityCheckCall.path, { menuid: 2115, aeiIds: [ENT.otherAgency] }, other);
    expect(equityDecision(facts.data, [ENT.otherAgency]).dialog?.canMute).toBe(true);
    // Another agency's id is refused and changes nothing.
    const wrong = await t.call(muteEquityCall.path, { agency_id: 1, sfgxbzts: '1' }, other);
    expect(wrong.status).toBe(404);
    const [a1] = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(organisations).where(eq(organisations.id, 1)),
    );
    expect(a1?.sfgxbzts).toBe('0');
    expect((await t.call(muteEquityCall.path, { agency_id: 2, sfgxbzts: '0' }, other)).code).toBe(400);
    expect((await t.call(muteEquityCall.path, { agency_id: 2, sfgxbzts: '1' })).status).toBe(403);
    const ok = await t.call(muteEquityCall.path, { agency_id: info.data.agency_id, sfgxbzts: '1' }, other);
    expect(ok.code).toBe(CODE.OK);
    const after = await t.call<EquityFacts>(equityCheckCall.path, { menuid: 2115, aeiIds: [ENT.otherAgency] }, other);
    expect(equityDecision(after.data, [ENT.otherAgency]).dialog).toBeNull();
  });
});

describe('recycle bin: delete, restore, purge', () => {
  it('deletes to the bin, lists it there, restores it', async () => {
    const { data } = await create(t, zhang, { qymc: '回收站测试有限公司' });
    const del = await t.call(customerDeleteCall.path, { aeiIds: [data.id] }, zhang);
    expect(del.code).toBe(CODE.OK);
    expect((await list(t, zhang, { keyword: '回收站测试' })).total).toBe(0);
    const bin = await t.call<{ list: { id: number; qymc: string }[]; total: number }>(recycleListCall.path, {}, zhang);
    expect(bin.data.list.map((e) => e.qymc)).toContain('回收站测试有限公司');
    const mine = await t.call<{ total: number }>(recycleListCall.path, { allocateUser: ID.zhang, qyxz: '1' }, zhang);
    expect(mine.data.total).toBe(1);
    const others = await t.call<{ total: number }>(recycleListCall.path, { allocateUser: ID.li }, admin);
    expect(others.data.total).toBe(0);
    // Out of the book: detail and actions no longer reach it.
    expect((await t.call('user/agency/selectAgencyEnterpriseInfo', { id: data.id }, zhang)).status).toBe(404);
    // Its tax number still belongs to it.
    const d = await stored(t, 1, data.id);
    const again = await create(t, zhang, { qysh: d?.qysh });
    expect(again.msg).toBe('该税号的企业已存在：回收站测试有限公司（在回收站中，可恢复）');
    const restored = await t.call(customerRestoreCall.path, { aeiIds: [data.id] }, zhang);
    expect(restored.code).toBe(CODE.OK);
    expect((await list(t, zhang, { keyword: '回收站测试' })).total).toBe(1);
    // Restoring something not in the bin is a 404.
    expect((await t.call(customerRestoreCall.path, { aeiIds: [data.id] }, zhang)).status).toBe(404);
  });

  it('only an administrator purges; the row and its children are gone', async () => {
    const { data } = await create(t, admin, { qymc: '彻底删除测试有限公司', contacts: [{ name: '甲' }] });
    expect((await t.call(customerPurgeCall.path, { aeiIds: [data.id] }, admin)).status).toBe(404);
    await t.call(customerDeleteCall.path, { aeiIds: [data.id] }, admin);
    expect((await t.call(customerPurgeCall.path, { aeiIds: [data.id] }, li)).status).toBe(460);
    const ok = await t.call<{ count: number }>(customerPurgeCall.path, { aeiIds: [data.id] }, admin);
    expect(ok.data.count).toBe(1);
    expect(await stored(t, 1, data.id)).toBeUndefined();
    const audits = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.action, 'customer.purge')),
    );
    expect(audits.length).toBe(1);
  });

  it('out-of-scope and foreign ids are 404s; the permissions hold', async () => {
    expect((await t.call(customerDeleteCall.path, { aeiIds: [ENT.liOwn] }, zhang)).status).toBe(404);
    expect((await t.call(customerDeleteCall.path, { aeiIds: [ENT.otherAgency] }, admin)).status).toBe(404);
    expect((await stored(t, 2, ENT.otherAgency))?.deletedAt).toBeNull();
    expect((await t.call(customerRestoreCall.path, { aeiIds: [ENT.otherAgency] }, admin)).status).toBe(404);
    expect((await t.call(recycleListCall.path, {})).status).toBe(403);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(customerDeleteCall.path, { aeiIds: [ENT.zhangOwn] }, zhang)).status).toBe(460);
      expect((await t.call(recycleListCall.path, {}, zhang)).status).toBe(460);
      expect((await t.call(customerRestoreCall.path, { aeiIds: [ENT.zhangOwn] }, zhang)).status).toBe(460);
    });
  });
});

describe('missing tax numbers', () => {
  it('lists the enterprises in scope without one (406 when none)', async () => {
    const a = await t.call<{ id: number }[]>(noQyshListCall.path, {}, admin);
    expect(a.data.map((e) => e.id)).toEqual([ENT.liNoTax, ENT.zhangNoTax]);
    const z = await t.call<{ id: number }[]>(noQyshListCall.path, {}, zhang);
    expect(z.data.map((e) => e.id)).toEqual([ENT.zhangNoTax]);
    const o = await t.call(noQyshListCall.path, {}, other);
    expect(o.code).toBe(CODE.EMPTY);
    expect((await t.call(noQyshListCall.path, {})).status).toBe(403);
  });

  it('fills them in: whitespace stripped, 6-20 characters, in scope, unique', async () => {
    const bad = await t.call(updateQyshCall.path, { qyshList: [{ id: ENT.zhangNoTax, qysh: '12345' }] }, zhang);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg.endsWith('税号为6-20位，请输入符合规范的税号')).toBe(true);
    const empty = await t.call(updateQyshCall.path, { qyshList: [] }, zhang);
    expect(empty.msg.endsWith('请填充后确认')).toBe(true);
    expect(
      (await t.call(updateQyshCall.path, { qyshList: [{ id: ENT.liNoTax, qysh: 'ABC123456' }] }, zhang)).status,
    ).toBe(404);
    expect(
      (await t.call(updateQyshCall.path, { qyshList: [{ id: ENT.otherAgency, qysh: 'ABC123456' }] }, admin)).status,
    ).toBe(404);
    const taken = (await detail(t, admin, 1)).qysh;
    const dup = await t.call(updateQyshCall.path, { qyshList: [{ id: ENT.zhangNoTax, qysh: taken }] }, zhang);
    expect(dup.status).toBe(409);
    const ok = await t.call(
      updateQyshCall.path,
      { qyshList: [{ id: ENT.zhangNoTax, qysh: ' 9133 0106 ab12 ' }] },
      zhang,
    );
    expect(ok.code).toBe(CODE.OK);
    expect((await detail(t, zhang, ENT.zhangNoTax)).qysh).toBe('91330106AB12');
    const z = await t.call(noQyshListCall.path, {}, zhang);
    expect(z.code).toBe(CODE.EMPTY);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(updateQyshCall.path, { qyshList: [{ id: 3, qysh: 'ABC1234567' }] }, zhang)).status).toBe(
        460,
      );
    });
  });
});

describe('labels and grades', () => {
  it('adds, renames, refuses duplicates, deletes; counts their enterprises', async () => {
    const l = await t.call<{ id: number }>(labelSaveCall.path, { name: '年报客户', color: 'purple' }, admin);
    expect(l.code).toBe(CODE.OK);
    expect((await t.call(labelSaveCall.path, { name: '年报客户' }, admin)).status).toBe(409);
    expect((await t.call(labelSaveCall.path, { name: '这是一个超过十个字的标签名' }, admin)).code).toBe(400);
    expect((await t.call(labelSaveCall.path, { id: l.data.id, name: '年报' }, other)).status).toBe(404);
    await create(t, admin, { labelIds: [l.data.id] });
    const labels = await t.call<{ id: number; name: string; count: number }[]>(labelListCall.path, {}, admin);
    expect(labels.data.find((x) => x.id === l.data.id)?.count).toBe(1);
    expect((await t.call(labelDeleteCall.path, { id: l.data.id }, other)).status).toBe(404);
    expect((await t.call(labelDeleteCall.path, { id: l.data.id }, admin)).code).toBe(CODE.OK);
    const g = await t.call<{ id: number }>(gradeSaveCall.path, { name: 'VIP', sort: 0 }, admin);
    expect((await t.call(gradeSaveCall.path, { name: 'VIP' }, admin)).status).toBe(409);
    const grades = await t.call<{ name: string }[]>(gradeListCall.path, {}, admin);
    expect(grades.data[0]?.name).toBe('VIP');
    expect((await t.call(gradeDeleteCall.path, { id: g.data.id }, other)).status).toBe(404);
    expect((await t.call(gradeDeleteCall.path, { id: g.data.id }, admin)).code).toBe(CODE.OK);
    expect((await t.call(labelListCall.path, {})).status).toBe(403);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(labelSaveCall.path, { name: '员工加的' }, zhang)).status).toBe(460);
      expect((await t.call(gradeSaveCall.path, { name: '员工加的' }, zhang)).status).toBe(460);
      expect((await t.call(labelListCall.path, {}, zhang)).code).toBe(CODE.OK);
    });
  });
});

describe('notes (user/note/*) and access tracking (esLog)', () => {
  it('adds, lists with followed ones first, follows, deletes own only', async () => {
    const a = await t.call<{ id: number }>(
      noteSaveCall.path,
      { enterpriseId: ENT.zhangOwn, content: '3月申报已完成' },
      zhang,
    );
    const b = await t.call<{ id: number }>(
      noteSaveCall.path,
      { enterpriseId: ENT.zhangOwn, content: '客户要求开票' },
      li,
    );
    expect(a.code).toBe(CODE.OK);
    await t.call(noteConcernCall.path, { id: a.data.id }, zhang);
    const l = await t.call<{
      list: { id: number; concern: boolean; mine: boolean; userName: string }[];
      total: number;
    }>(noteListCall.path, { enterpriseId: ENT.zhangOwn }, zhang);
    expect(l.data.total).toBe(2);
    expect(l.data.list[0]).toMatchObject({ id: a.data.id, concern: true, mine: true, userName: '张伟' });
    expect(l.data.list[1]).toMatchObject({ id: b.data.id, mine: false, userName: '李晓梅' });
    await t.call(noteCancelConcernCall.path, { id: a.data.id }, zhang);
    const l2 = await t.call<{ list: { id: number }[] }>(noteListCall.path, { enterpriseId: ENT.zhangOwn }, zhang);
    expect(l2.data.list[0]?.id).toBe(b.data.id);
    const notMine = await t.call(noteDeleteCall.path, { id: b.data.id }, zhang);
    expect(notMine.status).toBe(460);
    expect(notMine.msg).toBe('只能删除自己的记录');
    expect((await t.call(noteDeleteCall.path, { id: b.data.id }, admin)).code).toBe(CODE.OK);
    expect((await t.call(noteSaveCall.path, { enterpriseId: ENT.zhangOwn, content: '' }, zhang)).code).toBe(400);
    expect((await t.call(noteSaveCall.path, { enterpriseId: ENT.liOwn, content: '越权' }, zhang)).status).toBe(404);
    expect((await t.call(noteSaveCall.path, { enterpriseId: ENT.otherAgency, content: '越权' }, admin)).status).toBe(
      404,
    );
    expect((await t.call(noteListCall.path, { enterpriseId: ENT.liOwn }, zhang)).status).toBe(404);
    expect((await t.call(noteConcernCall.path, { id: a.data.id }, other)).status).toBe(404);
    expect((await t.call(noteListCall.path, { enterpriseId: 3 })).status).toBe(403);
  });

  it('records who opened which enterprise with its details filled in by the server', async () => {
    const r = await t.call(accessLogCall.path, { enterprise_id: ENT.zhangOwn, cpbm: 'khgl' }, zhang);
    expect(r.code).toBe(CODE.OK);
    const rows = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(accessLog).where(eq(accessLog.enterpriseId, ENT.zhangOwn)),
    );
    const d = await detail(t, zhang, ENT.zhangOwn);
    expect(rows.at(-1)).toMatchObject({
      userId: ID.zhang,
      agencyId: 1,
      cpbm: 'khgl',
      qysh: d.qysh,
      qymc: d.qymc,
      sssf: d.sssf,
      ssds: d.ssds,
      ssqx: d.ssqx,
      qyxz: d.qyxz,
    });
    expect((await t.call(accessLogCall.path, { enterprise_id: ENT.liOwn, cpbm: 'khgl' }, zhang)).status).toBe(404);
    expect((await t.call(accessLogCall.path, { enterprise_id: ENT.otherAgency, cpbm: 'khgl' }, admin)).status).toBe(
      404,
    );
    expect((await t.call(accessLogCall.path, { enterprise_id: 3, cpbm: 'BAD CODE' }, zhang)).code).toBe(400);
  });
});

describe('remembered last query and the enterprise chooser', () => {
  it('remembers per user and page', async () => {
    expect(
      (await t.call<{ query: unknown }>(getMemoryCall.path, { pageKey: '/customer/khgl/wdkh' }, zhang)).data.query,
    ).toBe(null);
    const q = { keyword: '科技', qyxz: '0', pageSize: 50 };
    expect((await t.call(updateMemoryCall.path, { pageKey: '/customer/khgl/wdkh', query: q }, zhang)).code).toBe(
      CODE.OK,
    );
    await t.call(updateMemoryCall.path, { pageKey: '/customer/khgl/wdkh', query: { ...q, pageSize: 100 } }, zhang);
    expect(
      (await t.call<{ query: unknown }>(getMemoryCall.path, { pageKey: '/customer/khgl/wdkh' }, zhang)).data.query,
    ).toEqual({
      ...q,
      pageSize: 100,
    });
    expect(
      (await t.call<{ query: unknown }>(getMemoryCall.path, { pageKey: '/customer/khgl/wdkh' }, li)).data.query,
    ).toBe(null);
    expect((await t.call(getMemoryCall.path, { pageKey: '../../etc' }, zhang)).code).toBe(400);
    const big = await t.call(updateMemoryCall.path, { pageKey: '/x', query: { a: 'x'.repeat(5000) } }, zhang);
    expect(big.code).toBe(400);
    expect((await t.call(getMemoryCall.path, { pageKey: '/x' })).status).toBe(403);
  });

  it('the chooser pages by 20, searches name or tax number, and keeps to the scope', async () => {
    const p1 = await t.call<{ list: { qymc: string; qysh: string; allocate_user: number }[]; total: number }>(
      chooserListCall.path,
      { pageNum: 1, pageSize: 20 },
      zhang,
    );
    expect(p1.data.list.length).toBe(20);
    expect(p1.data.total).toBeGreaterThanOrEqual(20);
    expect(p1.data.list.every((e) => e.allocate_user === ID.zhang)).toBe(true);
    const first = p1.data.list[0] as { qymc: string; qysh: string };
    const s = await t.call<{ list: { qymc: string }[] }>(chooserListCall.path, { qymc: first.qymc.slice(0, 5) }, zhang);
    expect(s.data.list.map((e) => e.qymc)).toContain(first.qymc);
    const none = await t.call<{ total: number }>(chooserListCall.path, { qymc: '不存在的企业名称' }, zhang);
    expect(none.data.total).toBe(0);
    expect((await t.call(chooserListCall.path, {})).status).toBe(403);
  });
});
