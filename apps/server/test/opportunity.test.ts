import {
  CODE,
  DEFAULT_STAFF_PERMS,
  deleteAgUserConnectionIsConnCall,
  getOppSettingCall,
  OPP_MSG,
  type OppFollowItem,
  type OppItem,
  type OppSetting,
  type OppTransferItem,
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
  type SaveOppBody,
  saveOppCall,
  saveOppSettingCall,
  workHandoverCall,
} from '@dzy/shared';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contractLines,
  contracts,
  contractTemplateLines,
  contractTemplates,
  jobs,
  opportunities,
} from '../src/db/schema/index.js';
import { OPP_DAILY_QUEUE, scheduleOpportunityJobs } from '../src/modules/opportunity/opportunity.jobs.js';
import { chinaDate } from '../src/plugins/jobs.js';
import { newUscc, withDefaultPerms } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, jobsDone, messagesOf, testDeps } from './message-helpers.js';
import { ADMIN, ID, inAgency, joinByInvite, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;
let setting: OppSetting;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
  setting = (await t.call<OppSetting>(getOppSettingCall.path, {}, admin)).data;
});
afterAll(() => t.close());

let n = 0;
async function create(cookie: string, body: Partial<SaveOppBody> = {}) {
  n += 1;
  const r = await t.call<{ id: number }>(
    saveOppCall.path,
    {
      companyName: `商机测试${n}号科技有限公司`,
      contactName: '王测试',
      phone: `1391111${String(1000 + n).slice(-4)}`,
      source: '电话咨询',
      expectAmount: '3600.00',
      ...body,
    },
    cookie,
  );
  if (r.code !== CODE.OK) throw new Error(`create failed: ${r.code} ${r.msg}`);
  return r.data.id;
}

const detail = (cookie: string, id: number) => t.call<OppItem>(oppDetailCall.path, { id }, cookie);
const listOf = async (cookie: string, body: Record<string, unknown> = {}) =>
  (await t.call<{ list: OppItem[]; total: number }>(oppListCall.path, { pageSize: 100, ...body }, cookie)).data;
const poolOf = async (cookie: string, body: Record<string, unknown> = {}) =>
  (await t.call<{ list: OppItem[]; total: number }>(oppPoolListCall.path, { pageSize: 100, ...body }, cookie)).data;
const stage = (kind: string) => {
  const s = setting.stages.find((x) => x.kind === kind);
  if (!s) throw new Error(`no ${kind} stage`);
  return s;
};

describe('商机: create, list and data scope', () => {
  it('the agency starts with the default stages 初步接触 → 需求确认 → 报价 → 签约 / 输单', () => {
    expect(setting.stages.map((s) => `${s.name}:${s.kind}`)).toEqual([
      '初步接触:open',
      '需求确认:open',
      '报价:open',
      '签约:won',
      '输单:lost',
    ]);
  });

  it('a staff member creates one in the first stage, owned by them, money kept in fen', async () => {
    const id = await create(li, { companyName: '数据范围测试餐饮有限公司', expectAmount: '12345.67' });
    const d = await detail(li, id);
    expect(d.code).toBe(CODE.OK);
    expect(d.data).toMatchObject({ ownerId: ID.li, stageName: '初步接触', expectAmount: '12345.67', followCount: 0 });
    const [row] = await t.ownerQuery<{ amount_fen: string }>('select amount_fen from opportunities where id = $1', [
      id,
    ]);
    expect(Number(row?.amount_fen)).toBe(1_234_567);
    const mine = await listOf(li, { keyword: '数据范围测试' });
    expect(mine.list.map((o) => o.id)).toEqual([id]);
  });

  it('another staff member and another agency see nothing of it; the administrator sees it', async () => {
    const id = await create(li, { companyName: '只给李晓梅看的有限公司' });
    expect((await listOf(zhang, { keyword: '只给李晓梅看' })).total).toBe(0);
    expect((await detail(zhang, id)).code).toBe(CODE.NOT_FOUND);
    expect((await listOf(other, { keyword: '只给李晓梅看' })).total).toBe(0);
    const o = await detail(other, id);
    expect(o.code).toBe(CODE.NOT_FOUND);
    expect(o.msg).toBe(OPP_MSG.notFound);
    for (const [path, body] of [
      [oppFollowSaveCall.path, { oppId: id, content: '越权', way: '电话' }],
      [oppStageCall.path, { id, stageId: stage('won').id }],
      [oppReleaseCall.path, { ids: [id] }],
      [oppTransferCall.path, { ids: [id], userId: ID.zhang }],
      [oppFollowListCall.path, { oppId: id }],
      [oppTransferListCall.path, { oppId: id }],
    ] as const) {
      expect((await t.call(path, body, zhang)).code, `${path} as 张伟`).toBe(CODE.NOT_FOUND);
      expect((await t.call(path, body, other)).code, `${path} as another agency`).toBe(CODE.NOT_FOUND);
    }
    expect((await t.call(oppDeleteCall.path, { ids: [id] }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await listOf(admin, { keyword: '只给李晓梅看' })).list.map((o) => o.ownerName)).toEqual(['李晓梅']);
    // 李晓梅 heads 记账一部, where 张伟 works: she sees his (the data scope of lib/data-scope.ts), not he hers.
    const his = await create(zhang, { companyName: '张伟的部门可见有限公司' });
    expect((await listOf(li, { keyword: '张伟的部门可见' })).list.map((o) => o.id)).toEqual([his]);
  });

  it('refuses a bad form with a Chinese message and unknown stages or services', async () => {
    const bad = await t.call(
      saveOppCall.path,
      { companyName: '', contactName: '王', phone: '123', source: '电话咨询' },
      li,
    );
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toMatch(/请输入公司名称|手机号/);
    const amount = await t.call(
      saveOppCall.path,
      { companyName: '金额测试', contactName: '王', phone: '13912345678', source: '电话咨询', expectAmount: '1.234' },
      li,
    );
    expect(amount.msg).toContain('请输入正确的金额（最多两位小数）');
    const otherSetting = (await t.call<OppSetting>(getOppSettingCall.path, {}, other)).data;
    const foreignStage = otherSetting.stages[0]?.id ?? 0;
    const r = await t.call(
      saveOppCall.path,
      { companyName: '阶段测试', contactName: '王', phone: '13912345678', source: '电话咨询', stageId: foreignStage },
      li,
    );
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(r.msg).toBe(OPP_MSG.stageNotFound);
  });

  it('filters by stage, source, owner and due follow-ups, and sorts by amount', async () => {
    const a = await create(li, { companyName: '筛选甲有限公司', source: '朋友介绍', expectAmount: '100.00' });
    const b = await create(li, { companyName: '筛选乙有限公司', source: '网络推广', expectAmount: '900.00' });
    expect((await listOf(li, { keyword: '筛选', source: '朋友介绍' })).list.map((o) => o.id)).toEqual([a]);
    expect((await listOf(li, { keyword: '筛选', sort: 'amount' })).list.map((o) => o.id)).toEqual([b, a]);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const next = `${chinaDate(tomorrow)} 10:00`;
    await t.call(oppFollowSaveCall.path, { oppId: a, content: '约明天面谈', way: '电话', nextFollowAt: next }, li);
    expect((await listOf(li, { keyword: '筛选', due: 'week' })).list.map((o) => o.id)).toEqual([a]);
    expect((await listOf(li, { keyword: '筛选', due: 'overdue' })).total).toBe(0);
    expect((await listOf(admin, { keyword: '筛选', ownerId: ID.zhang })).total).toBe(0);
    expect((await listOf(li, { keyword: '13911110000' })).total).toBe(0);
  });
});

describe('商机: follow-ups and stages', () => {
  it('a follow-up is saved with its way and next time, restarts the clock and can move the stage', async () => {
    const id = await create(li);
    const next = `${chinaDate(new Date(Date.now() + 2 * 86_400_000))} 09:30`;
    const r = await t.call<{ id: number }>(
      oppFollowSaveCall.path,
      {
        oppId: id,
        content: '电话沟通，客户需要记账报税',
        way: '电话',
        nextFollowAt: next,
        stageId: setting.stages[1]?.id,
      },
      li,
    );
    expect(r.code).toBe(CODE.OK);
    const d = (await detail(li, id)).data;
    expect(d).toMatchObject({ nextFollowAt: next, stageName: '需求确认', followCount: 1 });
    const follows = (await t.call<OppFollowItem[]>(oppFollowListCall.path, { oppId: id }, li)).data;
    expect(follows[0]).toMatchObject({
      content: '电话沟通，客户需要记账报税',
      way: '电话',
      userName: '李晓梅',
      mine: true,
    });
    const past = await t.call(
      oppFollowSaveCall.path,
      { oppId: id, content: '补记', way: '电话', nextFollowAt: '2020-01-01 09:00' },
      li,
    );
    expect(past.msg).toBe('下次跟进时间不能早于现在');
    const empty = await t.call(oppFollowSaveCall.path, { oppId: id, content: ' ', way: '电话' }, li);
    expect(empty.msg).toContain('请输入跟进内容');
  });

  it('only the writer deletes a follow-up record', async () => {
    const id = await create(li);
    const f = (
      await t.call<{ id: number }>(oppFollowSaveCall.path, { oppId: id, content: '微信沟通', way: '微信' }, li)
    ).data.id;
    const byAdmin = await t.call(oppFollowDeleteCall.path, { id: f }, admin);
    expect(byAdmin.code).toBe(CODE.NO_PERMISSION);
    expect(byAdmin.msg).toBe(OPP_MSG.followNotOwn);
    expect((await t.call(oppFollowDeleteCall.path, { id: f }, zhang)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(oppFollowDeleteCall.path, { id: f }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(oppFollowDeleteCall.path, { id: f }, li)).code).toBe(CODE.OK);
    expect((await t.call<OppFollowItem[]>(oppFollowListCall.path, { oppId: id }, li)).data).toEqual([]);
  });

  it('a stage change is logged in the follow-ups', async () => {
    const id = await create(li);
    expect((await t.call(oppStageCall.path, { id, stageId: setting.stages[2]?.id }, li)).code).toBe(CODE.OK);
    expect((await detail(li, id)).data.stageName).toBe('报价');
    const follows = (await t.call<OppFollowItem[]>(oppFollowListCall.path, { oppId: id }, li)).data;
    expect(follows[0]).toMatchObject({ way: '阶段变更', content: '阶段由「初步接触」改为「报价」' });
  });
});

describe('商机: transfer, release, claim, delete', () => {
  it('transfers to a colleague: the new owner sees it and is told, the transfer is logged', async () => {
    const id = await create(zhang, { companyName: '转移测试有限公司' });
    const r = await t.call<{ count: number }>(
      oppTransferCall.path,
      { ids: [id], userId: ID.li, reason: '李晓梅负责该区域' },
      zhang,
    );
    expect(r.data.count).toBe(1);
    expect((await listOf(zhang, { keyword: '转移测试' })).total).toBe(0);
    expect((await detail(zhang, id)).code).toBe(CODE.NOT_FOUND);
    expect((await listOf(li, { keyword: '转移测试' })).list.map((o) => o.ownerName)).toEqual(['李晓梅']);
    const log = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, li)).data;
    expect(log.map((l) => [l.kindName, l.fromName, l.toName, l.byName, l.reason])).toEqual([
      ['转移', '张伟', '李晓梅', '张伟', '李晓梅负责该区域'],
      ['新建', '', '张伟', '张伟', ''],
    ]);
    const msgs = await messagesOf(t, AGENCY.demo, ID.li);
    expect(msgs.some((m) => m.content === '【商机提醒】张伟将商机「转移测试有限公司」转给了您，请及时跟进')).toBe(true);
    const notMember = await t.call(oppTransferCall.path, { ids: [id], userId: ID.otherAdmin }, li);
    expect(notMember.msg).toBe(OPP_MSG.userNotMember);
  });

  it('releases to the pool, where it is visible to pool viewers and claimed once', async () => {
    const id = await create(li, { companyName: '公海测试有限公司' });
    expect((await t.call(oppReleaseCall.path, { ids: [id], reason: '客户暂无需求' }, li)).code).toBe(CODE.OK);
    expect((await listOf(li, { keyword: '公海测试' })).total).toBe(0);
    const pool = await poolOf(zhang, { keyword: '公海测试' });
    expect(pool.list.map((o) => [o.id, o.ownerId])).toEqual([[id, null]]);
    expect((await poolOf(other, { keyword: '公海测试' })).total).toBe(0);
    expect((await t.call(oppClaimCall.path, { ids: [id] }, other)).code).toBe(CODE.NOT_FOUND);
    const [first, second] = await Promise.all([
      t.call(oppClaimCall.path, { ids: [id] }, zhang),
      t.call(oppClaimCall.path, { ids: [id] }, li),
    ]);
    const codes = [first?.code, second?.code].sort();
    expect(codes).toEqual([CODE.OK, CODE.NOT_FOUND]);
    const loser = first?.code === CODE.OK ? second : first;
    expect(loser?.msg).toBe(OPP_MSG.notInPool);
    const log = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, admin)).data;
    expect(log.map((l) => l.kindName)).toEqual(['从公海领取', '释放到公海', '新建']);
    expect(log[1]).toMatchObject({ toName: '公海', reason: '客户暂无需求' });
  });

  it('deleting in the pool needs the administrator-granted permission and removes its records', async () => {
    const id = await create(li, { companyName: '公海删除测试有限公司' });
    await t.call(oppFollowSaveCall.path, { oppId: id, content: '沟通过一次', way: '电话' }, li);
    await t.call(oppReleaseCall.path, { ids: [id] }, li);
    expect((await t.call(oppPoolDeleteCall.path, { ids: [id] }, li)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(oppPoolDeleteCall.path, { ids: [id] }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call<{ count: number }>(oppPoolDeleteCall.path, { ids: [id] }, admin)).data.count).toBe(1);
    const rows = await t.ownerQuery('select id from opportunity_followups where opportunity_id = $1', [id]);
    expect(rows).toEqual([]);
    // An owned one is not in the pool: not deleted there.
    const owned = await create(li);
    const r = await t.call(oppPoolDeleteCall.path, { ids: [owned] }, admin);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect(r.msg).toBe(OPP_MSG.notInPool);
  });

  it('the pool and the list need their permissions', async () => {
    const perms = DEFAULT_STAFF_PERMS.filter((p) => !p.startsWith('opportunity:'));
    await withDefaultPerms(t, [...perms], async () => {
      expect((await t.call(oppListCall.path, {}, li)).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(oppPoolListCall.path, {}, li)).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(saveOppCall.path, { companyName: 'x' }, li)).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(oppClaimCall.path, { ids: [1] }, li)).code).toBe(CODE.NO_PERMISSION);
    });
    await withDefaultPerms(t, [...DEFAULT_STAFF_PERMS.filter((p) => p !== 'opportunity:pool:view')], async () => {
      const id = await create(admin, { companyName: '公海权限测试有限公司' });
      await t.call(oppReleaseCall.path, { ids: [id] }, admin);
      // Without 公海 the detail of a pool opportunity is not shown either.
      expect((await detail(li, id)).code).toBe(CODE.NOT_FOUND);
      expect((await detail(admin, id)).code).toBe(CODE.OK);
    });
  });

  it("the staff handover moves the leaver's opportunities to the receiver", async () => {
    const id = await create(zhang, { companyName: '交接测试有限公司' });
    const r = await t.call(workHandoverCall.path, { fromId: ID.zhang, toId: ID.li }, admin);
    expect(r.code).toBe(CODE.OK);
    expect((await detail(li, id)).data.ownerName).toBe('李晓梅');
    const log = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, li)).data;
    expect(log[0]).toMatchObject({ kindName: '离职交接', fromName: '张伟', toName: '李晓梅', byName: '王建国' });
  });
});

describe('商机: a member removed from the agency', () => {
  it('their opportunities go to the pool, logged, so no lead is lost', async () => {
    const phone = `1371234${String(Date.now()).slice(-4)}`;
    const joined = await joinByInvite(t, admin, phone, '赵临时');
    const id = await create(joined.cookie, { companyName: '移除员工测试有限公司' });
    const r = await t.call(deleteAgUserConnectionIsConnCall.path, { userId: joined.userId }, admin);
    expect(r.code).toBe(CODE.OK);
    expect((await poolOf(li, { keyword: '移除员工测试' })).list.map((o) => o.id)).toEqual([id]);
    const log = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, admin)).data;
    expect(log[0]).toMatchObject({ kindName: '员工移除释放', fromName: '赵临时', toName: '公海', byName: '王建国' });
  });

  it('another agency picks owners among its own staff only', async () => {
    const owners = (await t.call<{ userId: number; hymc: string }[]>(oppOwnersCall.path, {}, other)).data;
    expect(owners.map((o) => o.userId)).toContain(ID.otherAdmin);
    expect(owners.map((o) => o.userId)).not.toContain(ID.li);
    expect((await t.call(oppTransferCall.path, { ids: [1], userId: ID.otherAdmin }, other)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('商机设置', () => {
  it('only the setting permission changes stages; a stage in use cannot be deleted', async () => {
    const body = {
      autoReleaseDays: 15,
      stages: setting.stages.map((s) => ({ id: s.id, name: s.name, kind: s.kind })),
    };
    expect((await t.call(saveOppSettingCall.path, body, li)).code).toBe(CODE.NO_PERMISSION);
    const renamed = await t.call<OppSetting>(
      saveOppSettingCall.path,
      {
        autoReleaseDays: 15,
        stages: [
          ...body.stages.slice(0, 1),
          { id: body.stages[2]?.id, name: '方案报价', kind: 'open' },
          { id: body.stages[1]?.id, name: '需求确认', kind: 'open' },
          { name: '合同审核', kind: 'open' },
          ...body.stages.slice(3),
        ],
      },
      admin,
    );
    expect(renamed.code).toBe(CODE.OK);
    expect(renamed.data.autoReleaseDays).toBe(15);
    expect(renamed.data.stages.map((s) => s.name)).toEqual([
      '初步接触',
      '方案报价',
      '需求确认',
      '合同审核',
      '签约',
      '输单',
    ]);
    const used = await t.call(
      saveOppSettingCall.path,
      {
        autoReleaseDays: 15,
        stages: renamed.data.stages.filter((s) => s.name !== '初步接触').map(({ sort: _s, ...s }) => s),
      },
      admin,
    );
    expect(used.code).toBe(CODE.CONFLICT);
    expect(used.msg).toBe(OPP_MSG.stageInUse('初步接触'));
    const noWon = await t.call(
      saveOppSettingCall.path,
      {
        autoReleaseDays: 0,
        stages: [
          { name: 'A', kind: 'open' },
          { name: 'B', kind: 'lost' },
        ],
      },
      admin,
    );
    expect(noWon.msg).toContain(OPP_MSG.stageKinds);
    // Back to the defaults' names and order (the new unused stage goes).
    const back = await t.call<OppSetting>(saveOppSettingCall.path, { ...body, autoReleaseDays: 0 }, admin);
    expect(back.data.stages.map((s) => s.name)).toEqual(setting.stages.map((s) => s.name));
    const others = (await t.call<OppSetting>(getOppSettingCall.path, {}, other)).data;
    expect(others.autoReleaseDays).toBe(30);
  });
});

describe('商机: the daily job — automatic release with its warning, follow-up reminders', () => {
  async function runDay(date: string) {
    await inAgency(t, AGENCY.demo, (tx) =>
      tx.delete(jobs).where(and(eq(jobs.agencyId, AGENCY.demo), eq(jobs.queue, OPP_DAILY_QUEUE))),
    );
    await scheduleOpportunityJobs(testDeps(t), date);
    const [job] = await jobsDone(t, AGENCY.demo, OPP_DAILY_QUEUE);
    expect(job?.state).toBe('done');
    return job?.result as { released: number; warned: number; reminded: number };
  }
  const setFollowed = (id: number, at: Date) =>
    inAgency(t, AGENCY.demo, (tx) => tx.update(opportunities).set({ followedAt: at }).where(eq(opportunities.id, id)));

  it('warns the owner the day before, releases after N quiet days, once each', async () => {
    const body = { autoReleaseDays: 10, stages: setting.stages.map((s) => ({ id: s.id, name: s.name, kind: s.kind })) };
    expect((await t.call(saveOppSettingCall.path, body, admin)).code).toBe(CODE.OK);
    const id = await create(li, { companyName: '自动释放测试有限公司' });
    const day = '2040-03-20';
    await setFollowed(id, new Date('2040-03-11T09:00:00+08:00')); // 9 days before: released tomorrow
    await runDay(day);
    const warn = (await messagesOf(t, AGENCY.demo, ID.li)).filter((m) => m.content.includes('自动释放测试有限公司'));
    expect(warn.map((m) => m.content)).toEqual([`【商机提醒】${OPP_MSG.releaseSoon('自动释放测试有限公司', 10)}`]);
    expect(warn[0]?.msgStyleSmall).toBe('opportunity');
    await runDay(day); // a rerun of the same day tells nobody twice
    expect(
      (await messagesOf(t, AGENCY.demo, ID.li)).filter((m) => m.content.includes('自动释放测试有限公司')),
    ).toHaveLength(1);
    expect((await detail(li, id)).data.ownerId).toBe(ID.li);
    await runDay('2040-03-21');
    expect((await listOf(li, { keyword: '自动释放测试' })).total).toBe(0);
    expect((await poolOf(zhang, { keyword: '自动释放测试' })).list.map((o) => o.id)).toEqual([id]);
    const after = (await messagesOf(t, AGENCY.demo, ID.li)).filter((m) => m.content.includes('自动释放测试有限公司'));
    expect(after[0]?.content).toBe(`【商机提醒】${OPP_MSG.autoReleased('自动释放测试有限公司', 10)}`);
    const log = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, admin)).data;
    expect(log[0]).toMatchObject({ kindName: '超期自动释放', toName: '公海', byName: '系统', reason: '10天未跟进' });
    await runDay('2040-03-21');
    const log2 = (await t.call<OppTransferItem[]>(oppTransferListCall.path, { oppId: id }, admin)).data;
    expect(log2).toHaveLength(log.length);
    expect((await t.call(saveOppSettingCall.path, { ...body, autoReleaseDays: 0 }, admin)).code).toBe(CODE.OK);
  });

  it('releases in committed batches (230 quiet ones, one log row each); converted ones stay', async () => {
    const body = { autoReleaseDays: 5, stages: setting.stages.map((s) => ({ id: s.id, name: s.name, kind: s.kind })) };
    expect((await t.call(saveOppSettingCall.path, body, admin)).code).toBe(CODE.OK);
    const quiet = new Date('2041-01-01T10:00:00+08:00');
    const ids = await inAgency(t, AGENCY.demo, async (tx) => {
      const rows = await tx
        .insert(opportunities)
        .values(
          Array.from({ length: 230 }, (_, i) => ({
            agencyId: AGENCY.demo,
            companyName: `批量释放${i}号有限公司`,
            contactName: '批量',
            phone: '13900000000',
            source: '其他',
            stageId: setting.stages[0]?.id ?? 0,
            ownerId: ID.zhang,
            followedAt: quiet,
            ...(i === 0 ? { convertedAt: quiet } : {}),
          })),
        )
        .returning({ id: opportunities.id });
      return rows.map((r) => r.id);
    });
    // Other demo opportunities are quiet by then too: count only these.
    await runDay('2041-01-10');
    const left = await t.ownerQuery<{ owner_id: number | null; n: number }>(
      "select owner_id, count(*)::int as n from opportunities where company_name like '批量释放%' group by owner_id order by owner_id",
    );
    expect(left).toEqual([
      { owner_id: ID.zhang, n: 1 },
      { owner_id: null, n: 229 },
    ]);
    // As an array literal: the embedded engine's owner query would spread a JS array into a row.
    const idList = `{${ids.join(',')}}`;
    const logs = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from opportunity_transfers where kind = 'auto' and opportunity_id = any($1::int[])",
      [idList],
    );
    expect(logs[0]?.n).toBe(229);
    await runDay('2041-01-10');
    const again = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from opportunity_transfers where kind = 'auto' and opportunity_id = any($1::int[])",
      [idList],
    );
    expect(again[0]?.n).toBe(229);
    expect((await t.call(saveOppSettingCall.path, { ...body, autoReleaseDays: 0 }, admin)).code).toBe(CODE.OK);
  });

  it('reminds the owner of a follow-up due that day, once per appointment', async () => {
    const id = await create(li, { companyName: '跟进提醒测试有限公司', contactName: '赵提醒' });
    const next = `${chinaDate(new Date(Date.now() + 86_400_000))} 15:00`;
    await t.call(oppFollowSaveCall.path, { oppId: id, content: '约好回电', way: '电话', nextFollowAt: next }, li);
    const mine = async () =>
      (await messagesOf(t, AGENCY.demo, ID.li)).filter((m) => m.content.includes('跟进提醒测试有限公司'));
    await runDay(chinaDate());
    expect(await mine()).toHaveLength(0);
    const tomorrow = next.slice(0, 10);
    await runDay(tomorrow);
    expect((await mine()).map((m) => m.content)).toEqual([
      `【商机提醒】${OPP_MSG.followDue('跟进提醒测试有限公司', next, '赵提醒')}`,
    ]);
    await runDay(tomorrow);
    expect(await mine()).toHaveLength(1);
  });
});

describe('商机转客户', () => {
  async function template() {
    const [tpl] = await inAgency(t, AGENCY.demo, (tx) =>
      tx
        .select({ id: contractTemplates.id })
        .from(contractTemplates)
        .where(and(eq(contractTemplates.agencyId, AGENCY.demo), eq(contractTemplates.tempStatic, '1')))
        .orderBy(asc(contractTemplates.id))
        .limit(1),
    );
    if (!tpl) throw new Error('no template');
    return tpl.id;
  }
  const terms = (id: number, templateId: number, qysh: string) => ({
    id,
    qysh,
    templateId,
    signDate: '2026-12-01',
    startDate: '2027-01-01',
    endDate: '2027-12-31',
    payCycle: 3,
  });

  it('only a won opportunity converts', async () => {
    const id = await create(li);
    const r = await t.call(oppConvertCall.path, terms(id, await template(), newUscc()), li);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(OPP_MSG.notWon);
  });

  it('creates exactly one client and one draft contract from the template, even clicked twice at once', async () => {
    const name = '转化测试建材贸易有限公司';
    const id = await create(li, { companyName: name, contactName: '郑转化', phone: '13955556666' });
    await t.call(oppStageCall.path, { id, stageId: stage('won').id }, li);
    const tplId = await template();
    const body = terms(id, tplId, newUscc());
    expect((await t.call(oppConvertCall.path, body, zhang)).code).toBe(CODE.NOT_FOUND);
    const [a, b] = await Promise.all([
      t.call<{ enterpriseId: number; contractId: number; created: boolean }>(oppConvertCall.path, body, li),
      t.call<{ enterpriseId: number; contractId: number; created: boolean }>(oppConvertCall.path, body, li),
    ]);
    expect(a?.code).toBe(CODE.OK);
    expect(b?.code).toBe(CODE.OK);
    expect(a?.data.enterpriseId).toBe(b?.data.enterpriseId);
    expect(a?.data.contractId).toBe(b?.data.contractId);
    expect([a?.data.created, b?.data.created].sort()).toEqual([false, true]);
    const retry = await t.call<{ enterpriseId: number; created: boolean }>(oppConvertCall.path, body, li);
    expect(retry.data).toMatchObject({ enterpriseId: a?.data.enterpriseId, created: false });

    const ents = await t.ownerQuery<{ id: number; allocate_user: number }>(
      'select id, allocate_user from enterprises where agency_id = 1 and qymc = $1',
      [name],
    );
    expect(ents).toEqual([{ id: a?.data.enterpriseId, allocate_user: ID.li }]);
    const cs = await inAgency(t, AGENCY.demo, (tx) =>
      tx
        .select()
        .from(contracts)
        .where(eq(contracts.enterpriseId, a?.data.enterpriseId ?? 0)),
    );
    expect(cs.map((c) => [c.htzt, c.templateId, c.contractUserId, c.startDate, c.payCycle])).toEqual([
      ['1', tplId, ID.li, '2027-01-01', 3],
    ]);
    const lines = await inAgency(t, AGENCY.demo, (tx) =>
      tx
        .select()
        .from(contractLines)
        .where(eq(contractLines.contractId, cs[0]?.id ?? 0))
        .orderBy(asc(contractLines.sort)),
    );
    const tplLines = await inAgency(t, AGENCY.demo, (tx) =>
      tx
        .select()
        .from(contractTemplateLines)
        .where(eq(contractTemplateLines.templateId, tplId))
        .orderBy(asc(contractTemplateLines.sort)),
    );
    expect(lines.map((l) => [l.serviceId, l.priceFen, l.nowPriceFen])).toEqual(
      tplLines.map((l) => [l.serviceId, l.priceFen, l.nowPriceFen]),
    );
    const contact = await t.ownerQuery<{ name: string; mobile: string }>(
      'select name, mobile from enterprise_contacts where enterprise_id = $1',
      [a?.data.enterpriseId],
    );
    expect(contact).toEqual([{ name: '郑转化', mobile: '13955556666' }]);
    // Converted: read-only.
    const locked = await t.call(oppFollowSaveCall.path, { oppId: id, content: '再跟进', way: '电话' }, li);
    expect(locked.msg).toBe(OPP_MSG.alreadyConverted);
    expect((await t.call(oppReleaseCall.path, { ids: [id] }, li)).msg).toBe(OPP_MSG.alreadyConverted);
    expect((await detail(li, id)).data).toMatchObject({
      enterpriseId: a?.data.enterpriseId,
      contractId: a?.data.contractId,
    });
  });

  it('a failure (a tax number already taken) leaves no client, no contract and the opportunity open', async () => {
    const id = await create(li, { companyName: '转化失败测试有限公司' });
    await t.call(oppStageCall.path, { id, stageId: stage('won').id }, li);
    const [taken] = await t.ownerQuery<{ qysh: string }>(
      "select qysh from enterprises where agency_id = 1 and qysh <> '' and deleted_at is null limit 1",
    );
    const r = await t.call(oppConvertCall.path, terms(id, await template(), taken?.qysh ?? ''), li);
    expect(r.code).not.toBe(CODE.OK);
    expect(await t.ownerQuery("select id from enterprises where qymc = '转化失败测试有限公司'")).toEqual([]);
    expect((await detail(li, id)).data.enterpriseId).toBeNull();
    const foreignTpl = await t.call(oppConvertCall.path, { ...terms(id, 999_999, newUscc()) }, li);
    expect(foreignTpl.msg).toBe(OPP_MSG.templateNotFound);
  });
});
