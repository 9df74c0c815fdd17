import {
  CODE,
  updateMsgSettingsCall,
  WO_FILES,
  WO_MSG,
  WO_ORDER_IMPORT_COLUMNS,
  WO_TEMPLATE_IMPORT_COLUMNS,
  type WoDetail,
  type WoImportResult,
  type WoItem,
  type WoTemplate,
  woAddCall,
  woByIdCall,
  woCheckStepCall,
  woDeleteCall,
  woListCall,
  woOrderNumCall,
  woServiceCall,
  woTemplateAddCall,
  woTemplateByIdCall,
  woTemplateDeleteCall,
  woTemplateListCall,
  woTemplateServiceCall,
  woTemplateStatusCall,
  woTemplateUpdateCall,
  woUpdateStepCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { remindOverdue } from '../src/modules/workorder/workorder.jobs.js';
import { chinaDate } from '../src/plugins/jobs.js';
import type { PushHub } from '../src/plugins/push.js';
import {
  ADMIN,
  download,
  ID,
  LI,
  OTHER_ADMIN,
  readSheet,
  upload,
  withDefaultPerms,
  xlsx,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;
let station: Record<string, number>;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
  const rows = await t.ownerQuery<{ id: number; name: string }>('select id, name from stations where agency_id = 1');
  station = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  // 李晓梅 holds 外勤专员 and 张伟 主办会计: the default assignees of those steps.
  await t.ownerQuery('insert into station_members (agency_id, station_id, user_id) values (1, $1, $2), (1, $3, $4)', [
    station.外勤专员,
    ID.li,
    station.主办会计,
    ID.zhang,
  ]);
});
afterAll(() => t.close());

const ok = <T>(r: { code: number; msg: string; data: T }) => {
  if (r.code !== CODE.OK) throw new Error(`${r.code} ${r.msg}`);
  return r.data;
};

async function addTemplate(name: string, cookie = admin, serviceIds: number[] = []) {
  return ok(
    await t.call<{ id: number }>(
      woTemplateAddCall.path,
      {
        name,
        remark: '测试',
        steps: [
          { name: '收集资料', stationId: station.外勤专员, days: 2 },
          { name: '提交申请', stationId: station.主办会计, days: 3 },
          { name: '办结归档', stationId: null, days: 1 },
        ],
        serviceIds,
      },
      cookie,
    ),
  ).id;
}

const detail = async (id: number, cookie = admin) => ok(await t.call<WoDetail>(woByIdCall.path, { id }, cookie));
const listOf = async (cookie: string, body: Record<string, unknown> = {}) =>
  ok(
    await t.call<{ list: WoItem[]; total: number; counts: Record<string, number> }>(
      woListCall.path,
      { pageSize: 50, ...body },
      cookie,
    ),
  );
const step = (id: number, action: string, cookie = admin, extra: Record<string, unknown> = {}) =>
  t.call<{ orderState: string }>(woUpdateStepCall.path, { id, action, ...extra }, cookie);

describe('work-order templates', () => {
  it('adds, edits, switches, links service items and deletes, each asked of the own agency only', async () => {
    const id = await addTemplate('测试模板甲');
    const got = ok(await t.call<WoTemplate>(woTemplateByIdCall.path, { id }, admin));
    expect(got).toMatchObject({ name: '测试模板甲', status: '1', totalDays: 6 });
    expect(got.steps.map((s) => [s.name, s.stationName, s.days])).toEqual([
      ['收集资料', '外勤专员', 2],
      ['提交申请', '主办会计', 3],
      ['办结归档', '', 1],
    ]);
    // The same name again is refused with a clear message.
    const dup = await t.call(woTemplateAddCall.path, { name: '测试模板甲', steps: [{ name: 'a', days: 1 }] }, admin);
    expect(dup).toMatchObject({ code: CODE.CONFLICT, msg: WO_MSG.templateNameTaken });
    const empty = await t.call(woTemplateAddCall.path, { name: '空模板', steps: [] }, admin);
    expect(empty.code).toBe(CODE.BAD_REQUEST);
    expect(empty.msg).toContain(WO_MSG.stepRequired);
    const badDays = await t.call(woTemplateAddCall.path, { name: '天数', steps: [{ name: 'a', days: 0 }] }, admin);
    expect(badDays.code).toBe(CODE.BAD_REQUEST);
    expect(badDays.msg).toContain(WO_MSG.stepDays);

    // Edit: steps replaced, a service item linked; one linked elsewhere is refused by name.
    const services = ok(
      await t.call<{ id: number; serviceName: string; templateId: number | null }[]>(
        woTemplateServiceCall.path,
        {},
        admin,
      ),
    );
    const consult = services.find((s) => s.serviceName === '税务咨询');
    const annual = services.find((s) => s.serviceName === '工商年报');
    expect(annual?.templateId).not.toBeNull();
    const upd = await t.call(
      woTemplateUpdateCall.path,
      { id, name: '测试模板乙', steps: [{ name: '唯一步骤', days: 4 }], serviceIds: [consult?.id] },
      admin,
    );
    expect(upd.code).toBe(CODE.OK);
    const taken = await t.call(
      woTemplateUpdateCall.path,
      { id, name: '测试模板乙', steps: [{ name: '唯一步骤', days: 4 }], serviceIds: [annual?.id] },
      admin,
    );
    expect(taken).toMatchObject({ code: CODE.CONFLICT, msg: WO_MSG.serviceTaken('工商年报') });
    const after = ok(await t.call<WoTemplate>(woTemplateByIdCall.path, { id }, admin));
    expect(after).toMatchObject({ name: '测试模板乙', totalDays: 4, services: [{ serviceName: '税务咨询' }] });

    // Status switch; the enabled-only list leaves it out.
    expect((await t.call(woTemplateStatusCall.path, { id, status: '0' }, admin)).code).toBe(CODE.OK);
    const enabled = ok(await t.call<{ list: WoTemplate[] }>(woTemplateListCall.path, { status: '1' }, admin));
    expect(enabled.list.map((x) => x.name)).not.toContain('测试模板乙');
    expect(enabled.list.map((x) => x.name)).toEqual(
      expect.arrayContaining(['公司注册', '工商变更', '公司注销', '许可证办理']),
    );

    // An ordinary staff member may read but not edit, switch or delete (administrator-granted).
    expect((await t.call(woTemplateStatusCall.path, { id, status: '1' }, zhang)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(woTemplateDeleteCall.path, { id }, zhang)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(woTemplateAddCall.path, { name: 'x', steps: [{ name: 'a', days: 1 }] }, zhang)).code).toBe(
      CODE.NO_PERMISSION,
    );
    // Another agency sees nothing of it.
    expect((await t.call(woTemplateByIdCall.path, { id }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woTemplateStatusCall.path, { id, status: '1' }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woTemplateDeleteCall.path, { id }, other)).code).toBe(CODE.NOT_FOUND);
    const theirs = ok(await t.call<{ list: WoTemplate[] }>(woTemplateListCall.path, {}, other));
    expect(theirs.list.map((x) => x.name)).toEqual(['公司注册']);

    expect((await t.call(woTemplateDeleteCall.path, { id }, admin)).code).toBe(CODE.OK);
    expect((await t.call(woTemplateByIdCall.path, { id }, admin)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('work orders', () => {
  it('numbers GD+date+sequence, assigns by station, notifies the assignees per their settings', async () => {
    const tid = await addTemplate('流程测试');
    const day = chinaDate().replaceAll('-', '');
    const preview = ok(await t.call<{ orderNo: string }>(woOrderNumCall.path, {}, admin)).orderNo;
    expect(preview).toMatch(new RegExp(`^GD${day}\\d{4}$`));
    const before = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from messages where user_id = $1 and msg_style_small = 'workorder'",
      [ID.li],
    );
    // Client 3 is 张伟's: 外勤专员 → 李晓梅 (张伟 does not hold it), 主办会计 → 张伟, no station → the client's owner.
    const made = ok(
      await t.call<{ id: number; orderNo: string }>(woAddCall.path, { enterpriseId: 3, templateId: tid }, admin),
    );
    expect(made.orderNo).toBe(preview);
    const d = await detail(made.id);
    expect(d).toMatchObject({ state: 'pending', qymc: expect.any(String), currentStep: '收集资料', totalSteps: 3 });
    expect(d.steps.map((s) => [s.state, s.assigneeId])).toEqual([
      ['doing', ID.li],
      ['todo', ID.zhang],
      ['todo', ID.zhang],
    ]);
    expect(d.steps[0]?.dueDate).not.toBeNull();
    const msgs = await t.ownerQuery<{ content: string }>(
      "select content from messages where user_id = $1 and msg_style_small = 'workorder' order by id",
      [ID.li],
    );
    expect(msgs.length).toBe((before[0]?.n ?? 0) + 1);
    expect(msgs.at(-1)?.content).toContain(`【新建工单提醒】`);
    expect(msgs.at(-1)?.content).toContain(made.orderNo);

    // 李晓梅 turns 新建工单 off: the next order tells her nothing.
    expect((await t.call(updateMsgSettingsCall.path, { msg_xjgd: 0 }, li)).code).toBe(CODE.OK);
    ok(await t.call(woAddCall.path, { enterpriseId: 3, templateId: tid }, admin));
    const again = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from messages where user_id = $1 and msg_style_small = 'workorder'",
      [ID.li],
    );
    expect(again[0]?.n).toBe(msgs.length);
    expect((await t.call(updateMsgSettingsCall.path, { msg_xjgd: 1 }, li)).code).toBe(CODE.OK);
  });

  it('completes steps strictly in order: pending → doing → done, each state recorded', async () => {
    const tid = await addTemplate('顺序测试');
    const { id } = ok(await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 1, templateId: tid }, admin));
    const [s1, s2, s3] = (await detail(id)).steps.map((s) => s.id) as [number, number, number];
    // The second step while the first is open: refused, by the check and by the update.
    expect(ok(await t.call(woCheckStepCall.path, { id: s2 }, admin))).toEqual({ ok: false, msg: WO_MSG.outOfOrder });
    expect(await step(s2, 'complete')).toMatchObject({ code: CODE.BAD_REQUEST, msg: WO_MSG.outOfOrder });
    expect(ok(await t.call(woCheckStepCall.path, { id: s1 }, admin))).toEqual({ ok: true, msg: '' });
    expect(ok(await step(s1, 'complete', admin, { comment: '资料已收齐' }))).toEqual({ orderState: 'doing' });
    let d = await detail(id);
    expect(d.state).toBe('doing');
    expect(d.steps.map((s) => s.state)).toEqual(['done', 'doing', 'todo']);
    expect(d.steps[0]).toMatchObject({ comment: '资料已收齐', doneByName: '王建国' });
    expect(d.steps[1]?.dueDate).not.toBeNull();
    expect(await step(s1, 'complete')).toMatchObject({ code: CODE.BAD_REQUEST, msg: WO_MSG.stepDone });
    expect(await step(s3, 'complete')).toMatchObject({ code: CODE.BAD_REQUEST, msg: WO_MSG.outOfOrder });
    ok(await step(s2, 'complete'));
    expect(ok(await step(s3, 'complete'))).toEqual({ orderState: 'done' });
    d = await detail(id);
    expect(d.state).toBe('done');
    expect(d.finishedAt).not.toBeNull();
    expect(d.steps.map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(await step(s3, 'comment', admin, { comment: 'x' })).toMatchObject({ msg: WO_MSG.orderClosed });

    // Cancelling: the open steps are cancelled with the order.
    const { id: id2 } = ok(await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 1, templateId: tid }, admin));
    const first = (await detail(id2)).steps[0]?.id as number;
    expect(ok(await step(first, 'cancel', admin, { comment: '客户取消' }))).toEqual({ orderState: 'cancelled' });
    const c = await detail(id2);
    expect(c.state).toBe('cancelled');
    expect(c.steps.map((s) => s.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(await step(first, 'complete')).toMatchObject({ msg: WO_MSG.orderClosed });
  });

  it('gives unique, gap-free numbers to concurrent creates', async () => {
    const tid = await addTemplate('并发测试');
    const made = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.call<{ orderNo: string }>(woAddCall.path, { enterpriseId: 1, templateId: tid }, admin),
      ),
    );
    const nos = made.map((r) => ok(r).orderNo).sort();
    expect(new Set(nos).size).toBe(12);
    const seq = nos.map((n) => Number(n.slice(-4)));
    for (let i = 1; i < seq.length; i++) expect(seq[i]).toBe((seq[i - 1] as number) + 1);
    const stored = await t.ownerQuery<{ n: number }>(
      'select count(distinct order_no)::int as n from work_orders where agency_id = 1',
    );
    const all = await t.ownerQuery<{ n: number }>('select count(*)::int as n from work_orders where agency_id = 1');
    expect(stored[0]?.n).toBe(all[0]?.n);
  });

  it('starts a work order from a contract line once, by the template linked to its service item', async () => {
    const [line] = await t.ownerQuery<{ id: number; contract_id: number; enterprise_id: number }>(
      `select cl.id, c.id as contract_id, c.enterprise_id from contract_lines cl join contracts c on c.id = cl.contract_id
       join enterprises e on e.id = c.enterprise_id
       where c.agency_id = 1 and cl.service_name = '工商年报' and c.htzt in ('1', '2') and e.deleted_at is null
       order by cl.id limit 1`,
    );
    expect(line).toBeDefined();
    if (!line) return;
    const lines = ok(
      await t.call<{ lineId: number; templateName: string; workOrderId: number | null }[]>(
        woServiceCall.path,
        { contractId: line.contract_id },
        admin,
      ),
    );
    expect(lines.find((l) => l.lineId === line.id)).toMatchObject({ templateName: '工商年报', workOrderId: null });
    const made = ok(await t.call<{ id: number }>(woAddCall.path, { contractLineId: line.id }, admin));
    const d = await detail(made.id);
    expect(d).toMatchObject({
      enterpriseId: line.enterprise_id,
      templateName: '工商年报',
      contractNo: expect.stringMatching(/^HT/),
    });
    expect(await t.call(woAddCall.path, { contractLineId: line.id }, admin)).toMatchObject({
      code: CODE.CONFLICT,
      msg: WO_MSG.lineTaken,
    });
    const again = ok(
      await t.call<{ lineId: number; workOrderId: number | null }[]>(
        woServiceCall.path,
        { contractId: line.contract_id },
        admin,
      ),
    );
    expect(again.find((l) => l.lineId === line.id)?.workOrderId).toBe(made.id);
    // Another agency cannot start one from it, nor read its lines.
    expect((await t.call(woAddCall.path, { contractLineId: line.id }, other)).code).toBe(CODE.NOT_FOUND);
    expect(ok(await t.call<unknown[]>(woServiceCall.path, { contractId: line.contract_id }, other))).toEqual([]);
  });

  it('scopes what staff see and do; another agency sees nothing', async () => {
    const tid = await addTemplate('范围测试');
    // Client 1 is the administrator's; its 外勤专员 step goes to 李晓梅, 主办会计 to 张伟.
    const { id: adminOrder } = ok(
      await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 1, templateId: tid }, admin),
    );
    // Client 4 is the administrator's too, with every step given to the administrator.
    const { id: hidden } = ok(
      await t.call<{ id: number }>(
        woAddCall.path,
        { enterpriseId: 4, templateId: tid, assignees: [ID.admin, ID.admin, ID.admin] },
        admin,
      ),
    );
    // 张伟 makes one for his own client; a client that is not his is refused.
    const { id: zhangOrder } = ok(
      await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 6, templateId: tid }, zhang),
    );
    expect((await t.call(woAddCall.path, { enterpriseId: 1, templateId: tid }, zhang)).code).toBe(CODE.NOT_FOUND);

    const seen = (await listOf(zhang, { templateId: tid })).list.map((o) => o.id).sort();
    expect(seen).toEqual([adminOrder, zhangOrder].sort());
    expect((await t.call(woByIdCall.path, { id: hidden }, zhang)).code).toBe(CODE.NOT_FOUND);
    // 李晓梅 (head of 记账一部, which 张伟 is in) sees both of his, and the one with her step.
    const liSees = (await listOf(li, { templateId: tid })).list.map((o) => o.id).sort();
    expect(liSees).toEqual([adminOrder, zhangOrder].sort());

    // 张伟 may not complete 李晓梅's current step on the administrator's client …
    const steps = (await detail(adminOrder)).steps;
    expect(ok(await t.call(woCheckStepCall.path, { id: steps[0]?.id }, zhang))).toEqual({
      ok: false,
      msg: WO_MSG.notAssignee,
    });
    expect((await step(steps[0]?.id as number, 'complete', zhang)).code).toBe(CODE.NO_PERMISSION);
    // … 李晓梅 may; then 张伟 completes his own.
    ok(await step(steps[0]?.id as number, 'complete', li));
    expect(ok(await step(steps[1]?.id as number, 'complete', zhang))).toEqual({ orderState: 'doing' });
    // Assignee filter and overdue filter.
    expect((await listOf(admin, { templateId: tid, assigneeId: ID.admin })).list.map((o) => o.id).sort()).toEqual(
      [adminOrder, hidden].sort(),
    );
    // Deleting: 张伟 lacks the permission; the administrator deletes.
    expect((await t.call(woDeleteCall.path, { id: zhangOrder }, zhang)).code).toBe(CODE.NO_PERMISSION);
    // Another agency: nothing to see or touch.
    expect((await listOf(other, { templateId: tid })).total).toBe(0);
    expect((await listOf(other)).list.every((o) => o.enterpriseId >= 61)).toBe(true);
    expect((await t.call(woByIdCall.path, { id: adminOrder }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woCheckStepCall.path, { id: steps[2]?.id }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await step(steps[2]?.id as number, 'complete', other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woDeleteCall.path, { id: adminOrder }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woAddCall.path, { enterpriseId: 1, templateId: tid }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(woDeleteCall.path, { id: zhangOrder }, admin)).code).toBe(CODE.OK);
    expect((await t.call(woByIdCall.path, { id: zhangOrder }, admin)).code).toBe(CODE.NOT_FOUND);
  });

  it('reminds an overdue step once and lists it under 逾期', async () => {
    const tid = await addTemplate('逾期测试');
    const { id } = ok(await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 2, templateId: tid }, admin));
    const first = (await detail(id)).steps[0];
    await t.ownerQuery('update work_order_steps set due_date = current_date - 3 where id = $1', [first?.id]);
    const d = await detail(id);
    expect(d.overdue).toBe(true);
    expect(d.steps[0]?.overdue).toBe(true);
    expect((await listOf(admin, { overdue: true, templateId: tid })).list.map((o) => o.id)).toEqual([id]);
    const push = { publish: async () => undefined } as unknown as PushHub;
    const run = () =>
      inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
        remindOverdue(tx, { push }, () => undefined, 1, chinaDate()),
      );
    const firstRun = await run();
    expect(firstRun).toBeGreaterThanOrEqual(1);
    expect(await run()).toBe(0);
    const msgs = await t.ownerQuery<{ content: string }>(
      'select content from messages where user_id = $1 and target_id = $2 and content like $3',
      [first?.assigneeId, id, '【工单逾期提醒】%'],
    );
    expect(msgs).toHaveLength(1);
    expect(msgs[0]?.content).toContain(first?.name ?? '?');
  });

  it('attaches files to the current step for its assignee; others cannot fetch them', async () => {
    const tid = await addTemplate('附件测试');
    const { id } = ok(await t.call<{ id: number }>(woAddCall.path, { enterpriseId: 1, templateId: tid }, admin));
    const s1 = (await detail(id)).steps[0]?.id as number;
    const pdf = Buffer.from('%PDF-1.4\n% test\n');
    const up = await upload<{ id: number }>(t, `${WO_FILES.attachmentUpload}?stepId=${s1}`, li, {
      name: '执照.pdf',
      data: pdf,
    });
    expect(up.code).toBe(CODE.OK);
    const bad = await upload(t, `${WO_FILES.attachmentUpload}?stepId=${s1}`, li, {
      name: 'a.exe',
      data: Buffer.from('MZ'),
    });
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(
      (await upload(t, `${WO_FILES.attachmentUpload}?stepId=${s1}`, other, { name: 'a.pdf', data: pdf })).code,
    ).toBe(CODE.NOT_FOUND);
    expect((await detail(id)).steps[0]?.attachments.map((a) => a.fileName)).toEqual(['执照.pdf']);
    const got = await download(t, `/api/${WO_FILES.attachmentDownload}/${up.data.id}`, li);
    expect(got.status).toBe(200);
    expect(got.body.toString('latin1').startsWith('%PDF-')).toBe(true);
    expect((await download(t, `/api/${WO_FILES.attachmentDownload}/${up.data.id}`, other)).json()).toMatchObject({
      code: CODE.NOT_FOUND,
    });
  });
});

describe('permissions', () => {
  it('refuses every work-order call to a role without its permission', async () => {
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      const calls: [string, unknown][] = [
        [woListCall.path, {}],
        [woOrderNumCall.path, {}],
        [woAddCall.path, { enterpriseId: 3, templateId: 1 }],
        [woServiceCall.path, { enterpriseId: 3 }],
        [woByIdCall.path, { id: 1 }],
        [woCheckStepCall.path, { id: 1 }],
        [woUpdateStepCall.path, { id: 1, action: 'complete' }],
        [woDeleteCall.path, { id: 1 }],
        [woTemplateAddCall.path, { name: 'x', steps: [{ name: 'a', days: 1 }] }],
        [woTemplateUpdateCall.path, { id: 1, name: 'x', steps: [{ name: 'a', days: 1 }] }],
        [woTemplateStatusCall.path, { id: 1, status: '0' }],
        [woTemplateDeleteCall.path, { id: 1 }],
      ];
      for (const [path, body] of calls) {
        expect((await t.call(path, body, zhang)).code, path).toBe(CODE.NO_PERMISSION);
      }
      for (const kind of ['template', 'order']) {
        const data = await xlsx(WO_ORDER_IMPORT_COLUMNS, [['a', 'b', 'c']]);
        expect((await upload(t, `${WO_FILES.import}?kind=${kind}`, zhang, { name: 'a.xlsx', data })).code).toBe(
          CODE.NO_PERMISSION,
        );
      }
      const file = await download(t, `/api/${WO_FILES.attachmentDownload}/1`, zhang);
      expect(file.json()).toMatchObject({ code: CODE.NO_PERMISSION });
    });
    // Without a session: refused as expired.
    expect((await t.call(woListCall.path, {})).code).toBe(CODE.SESSION_EXPIRED);
  });
});

describe('imports', () => {
  it('imports templates whole or not at all, with the failure file by key', async () => {
    const data = await xlsx(WO_TEMPLATE_IMPORT_COLUMNS, [
      ['导入模板甲', '步骤一', '外勤专员', '2', ''],
      ['导入模板甲', '步骤二', '', '3', '税务咨询'],
      ['导入模板乙', '步骤一', '不存在的岗位', '2', ''],
      ['导入模板乙', '步骤二', '', '3', ''],
      ['导入模板丙', '步骤一', '', '零', ''],
    ]);
    const r = await upload<WoImportResult>(t, `${WO_FILES.import}?kind=template`, admin, {
      name: '工单模板.xlsx',
      data,
    });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ successNum: 1, failNum: 2, unExport: 0 });
    const list = ok(await t.call<{ list: WoTemplate[] }>(woTemplateListCall.path, { name: '导入模板' }, admin)).list;
    expect(list.map((x) => [x.name, x.steps.length, x.services.map((s) => s.serviceName)])).toEqual([
      ['导入模板甲', 2, ['税务咨询']],
    ]);
    const file = await download(t, `/api/${WO_FILES.failList}?kind=template&redisKey=${r.data.redisKey}`, admin);
    expect(file.status).toBe(200);
    const sheet = await readSheet(file.body);
    expect(sheet[0]).toEqual([...WO_TEMPLATE_IMPORT_COLUMNS, '行号', '失败原因']);
    expect(sheet.slice(1).map((row) => [row[0], row[6]])).toEqual([
      ['导入模板乙', '岗位不存在：不存在的岗位'],
      ['导入模板乙', '同一模板的其他行有误，整个模板未导入'],
      ['导入模板丙', WO_MSG.stepDays],
    ]);
    // The key is the agency's own; staff without the import permission are refused.
    const theirs = await download(t, `/api/${WO_FILES.failList}?kind=template&redisKey=${r.data.redisKey}`, other);
    expect(theirs.json()).toMatchObject({ code: CODE.NOT_FOUND });
    expect((await upload(t, `${WO_FILES.import}?kind=template`, zhang, { name: 'a.xlsx', data })).code).toBe(
      CODE.NO_PERMISSION,
    );
  });

  it('imports work orders by tax number and template name, with the failure file', async () => {
    const [ent] = await t.ownerQuery<{ qysh: string }>("select qysh from enterprises where id = 1 and qysh <> ''");
    const [otherEnt] = await t.ownerQuery<{ qysh: string }>(
      "select qysh from enterprises where id = 61 and qysh <> ''",
    );
    const data = await xlsx(WO_ORDER_IMPORT_COLUMNS, [
      [ent?.qysh ?? '', '公司注册', '导入的工单'],
      [ent?.qysh ?? '', '没有的模板', ''],
      [otherEnt?.qysh ?? '', '公司注册', ''],
    ]);
    const r = await upload<WoImportResult>(t, `${WO_FILES.import}?kind=order`, admin, { name: '工单.xlsx', data });
    expect(r.data).toMatchObject({ successNum: 1, failNum: 2 });
    const made = (await listOf(admin, { enterpriseId: 1 })).list.filter((o) => o.remark === '导入的工单');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ templateName: '公司注册', state: 'pending' });
    const sheet = await readSheet(
      (await download(t, `/api/${WO_FILES.failList}?kind=order&redisKey=${r.data.redisKey}`, admin)).body,
    );
    expect(sheet.slice(1).map((row) => row[4])).toEqual([
      '工单模板不存在：没有的模板',
      `企业不存在或无权访问：${otherEnt?.qysh}`,
    ]);
  });
});

describe('demo data', () => {
  it('has work orders of the demo agency in every open state, some overdue, and the board counts them', async () => {
    const page = await listOf(admin);
    expect(page.counts.pending).toBeGreaterThan(0);
    expect(page.counts.doing).toBeGreaterThan(0);
    expect(page.counts.done).toBeGreaterThan(0);
    expect((await listOf(admin, { overdue: true })).total).toBeGreaterThan(0);
  });
});
