import {
  batchDeleteContractCall,
  batchEndContractCall,
  batchSubmitContractCall,
  CODE,
  CONTRACT_MSG,
  CONTRACT_WARNING,
  type ContractDetail,
  type ContractItem,
  contractByQyshCall,
  contractEnterprisesCall,
  contractInfoCall,
  contractListByEnterpriseCall,
  contractListCall,
  contractStatusCall,
  createContractNoCall,
  GRANTABLE_PERMS,
  getReminderSettingsCall,
  getSpecialPermissionByUserIdCall,
  getSpecialPermissionCall,
  getSpecialPermissionHtszCall,
  recoverContractCall,
  renewContractCall,
  type SaveContractBody,
  saveContractCall,
  saveReminderSettingsCall,
  saveSpecialPermissionHtszCall,
  selectTemplateByIdCall,
  type TemplateDetail,
  updateContractStatusCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, grantStaffEverything, ID, LI, OTHER_ADMIN, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin = '';
let li = '';
let zhang = '';
let other = '';
let template: TemplateDetail;
const year = Number(
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric' }).format(new Date()),
);

beforeAll(async () => {
  t = await startTestApp();
  // Scope is what these tests are about: the staff hold the permissions an administrator may grant.
  await grantStaffEverything(t);
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
  const [tpl] = await t.ownerQuery<{ id: number }>(
    'select id from contract_templates where agency_id = 1 order by id limit 1',
  );
  const r = await t.call<TemplateDetail>(selectTemplateByIdCall.path, { id: tpl?.id }, admin);
  template = r.data;
});
afterAll(() => t.close());

/** A body from the first demo template for an enterprise (demo clients 46-60 have no contracts). */
function fromTemplate(aeiId: number, extra: Partial<SaveContractBody> = {}): SaveContractBody {
  return {
    aeiId,
    templateId: template.id,
    signDate: '2026-01-01',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    payCycle: 3,
    lines: template.tempDetailList.map((l) => ({
      serviceId: l.service,
      isGive: l.isGive,
      price: l.price,
      discount: l.discount,
    })),
    ...extra,
  };
}

async function save(cookie: string, body: SaveContractBody) {
  return t.call<{ id: number; contractNo: string }>(saveContractCall.path, body, cookie);
}
async function info(cookie: string, id: number) {
  return t.call<ContractDetail>(contractInfoCall.path, { id }, cookie);
}

describe('numbering', () => {
  it('gives distinct sequential numbers to parallel calls', async () => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => t.call<{ contractNo: string }>(createContractNoCall.path, {}, admin)),
    );
    const nos = replies.map((r) => r.data.contractNo);
    for (const no of nos) expect(no).toMatch(new RegExp(`^HT${year}\\d{6}$`));
    const seq = nos.map((n) => Number(n.slice(6))).sort((a, b) => a - b);
    expect(new Set(seq).size).toBe(8);
    expect((seq.at(-1) ?? 0) - (seq[0] ?? 0)).toBe(7);
    // Another agency counts on its own.
    const o = await t.call<{ contractNo: string }>(createContractNoCall.path, {}, other);
    expect(o.data.contractNo).toMatch(/^HT\d{4}\d{6}$/);
    expect((await t.call(createContractNoCall.path, {})).code).toBe(CODE.SESSION_EXPIRED);
  });
});

describe('create, view, edit', () => {
  it('creates a draft from a template, priced on the server, and sends msg_xjht', async () => {
    // Enterprise 50 belongs to 李晓梅 (id 2); the administrator signs it and gives it to her.
    const r = await save(admin, fromTemplate(50, { contractUserId: ID.li, discount: '100.00', remark: '首签' }));
    expect(r.code).toBe(CODE.OK);
    expect(r.data.contractNo).toMatch(/^HT2026\d{6}$/);
    const d = await info(admin, r.data.id);
    expect(d.data).toMatchObject({ htzt: '1', statusText: '待提交', contractUserName: '李晓梅', remark: '首签' });
    expect(d.data.lines.map((l) => l.serviceName)).toEqual(template.tempDetailList.map((l) => l.serviceName));
    expect(d.data.totalPrice).toBe(template.tempTotalPrice);
    const expected = Math.round(Number(template.tempTotalPrice) * 100) - 10_000;
    expect(d.data.amount).toBe(`${Math.floor(expected / 100)}.${String(expected % 100).padStart(2, '0')}`);
    expect(d.data.receivables).toEqual([]);
    const msgs = await t.ownerQuery<{ user_id: number; content: string }>(
      "select user_id, content from messages where msg_style_small = 'contract' and target_id = $1",
      [r.data.id],
    );
    expect(msgs.map((m) => m.user_id)).toEqual([ID.li]);
    expect(msgs[0]?.content).toContain('【新建合同提醒】');
    expect(msgs[0]?.content).toContain(r.data.contractNo);
  });

  it('refuses bad input with Chinese messages and changes nothing', async () => {
    const before = await t.ownerQuery<{ n: number }>('select count(*)::int n from contracts');
    const cases: [Partial<SaveContractBody>, string][] = [
      [{ lines: [] }, '请至少添加一项服务'],
      [{ endDate: '2025-12-01' }, CONTRACT_MSG.endBeforeStart],
      [{ discount: '99999.00' }, CONTRACT_MSG.discountTooHigh],
      [{ startDate: '2026-02-30' }, '不是有效日期'],
    ];
    for (const [extra, msg] of cases) {
      const r = await save(admin, fromTemplate(51, extra));
      expect(r.code, msg).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toContain(msg);
    }
    const line = fromTemplate(51).lines[0];
    const bad = await save(
      admin,
      fromTemplate(51, { lines: [{ ...line, serviceId: line?.serviceId ?? 0, price: '12.345' }] }),
    );
    expect(bad.msg).toContain('请输入正确的合同金额');
    const over = await save(
      admin,
      fromTemplate(51, { lines: [{ serviceId: line?.serviceId ?? 0, price: '10.00', discount: '20.00' }] }),
    );
    expect(over.msg).toContain(CONTRACT_MSG.lineDiscountTooHigh);
    const dup = await save(admin, fromTemplate(51, { lines: [line, line] as SaveContractBody['lines'] }));
    expect(dup.msg).toContain(CONTRACT_MSG.serviceRepeat);
    expect((await t.call(saveContractCall.path, { ...fromTemplate(51), htzt: '2' }, admin)).code).toBe(
      CODE.BAD_REQUEST,
    );
    const after = await t.ownerQuery<{ n: number }>('select count(*)::int n from contracts');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('refuses a taken number, another tenant ids, no sign-in and missing permission', async () => {
    const first = await save(admin, fromTemplate(52));
    expect((await save(admin, fromTemplate(53, { contractNo: first.data.contractNo }))).code).toBe(CODE.CONFLICT);
    expect((await save(admin, fromTemplate(61))).code).toBe(CODE.NOT_FOUND);
    expect((await info(other, first.data.id)).code).toBe(CODE.NOT_FOUND);
    expect((await save('', fromTemplate(53))).code).toBe(CODE.SESSION_EXPIRED);
    const withoutAdd = GRANTABLE_PERMS.filter((p) => p !== 'contract:add' && p !== 'contract:list:view');
    await withDefaultPerms(t, [...withoutAdd], async () => {
      expect((await save(zhang, fromTemplate(54))).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(contractListCall.path, {}, zhang)).code).toBe(CODE.NO_PERMISSION);
    });
  });

  it('edits a draft only; a clerk cannot give a contract to someone outside their scope', async () => {
    const r = await save(zhang, fromTemplate(54));
    expect(r.code).toBe(CODE.OK);
    const edit = await save(zhang, { ...fromTemplate(54, { remark: '改过', payCycle: 1 }), id: r.data.id });
    expect(edit.code).toBe(CODE.OK);
    expect((await info(zhang, r.data.id)).data).toMatchObject({ remark: '改过', payCycle: 1 });
    expect((await save(zhang, fromTemplate(57, { contractUserId: ID.admin }))).code).toBe(CODE.NO_PERMISSION);
    await t.call(batchSubmitContractCall.path, { ids: [r.data.id] }, zhang);
    const again = await save(zhang, { ...fromTemplate(54), id: r.data.id });
    expect(again.msg).toBe(CONTRACT_MSG.onlyDraftEdit);
  });
});

describe('lifecycle', () => {
  it('submit creates the schedule; terminate, delete, recover, renew; illegal moves refused', async () => {
    const r = await save(admin, fromTemplate(55, { payCycle: 3 }));
    const id = r.data.id;
    const sub = await t.call<{ count: number }>(batchSubmitContractCall.path, { ids: [id] }, admin);
    expect(sub.data.count).toBe(1);
    const d = await info(admin, id);
    expect(d.data.htzt).toBe('2');
    expect(d.data.receivables.map((p) => p.dueDate)).toEqual(['2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01']);
    const sum = d.data.receivables.reduce((s, p) => s + Math.round(Number(p.amount) * 100), 0);
    expect(sum).toBe(Math.round(Number(d.data.amount) * 100));
    expect((await t.call(batchSubmitContractCall.path, { ids: [id] }, admin)).msg).toContain(
      CONTRACT_MSG.onlyDraftSubmit,
    );
    expect((await t.call(updateContractStatusCall.path, { id, type: '0' }, admin)).msg).toBe(
      `${d.data.contractNo}：${CONTRACT_MSG.onlyDeletable}`,
    );
    expect((await t.call(recoverContractCall.path, { ids: [id] }, admin)).code).toBe(CODE.BAD_REQUEST);

    // Renew: a new contract in force with its own schedule, once.
    const renew = await t.call<{ id: number; contractNo: string }>(
      renewContractCall.path,
      {
        id,
        signDate: '2026-12-01',
        startDate: '2027-01-01',
        endDate: '2027-12-31',
        payCycle: 12,
        lines: fromTemplate(55).lines,
      },
      admin,
    );
    expect(renew.code).toBe(CODE.OK);
    const rd = await info(admin, renew.data.id);
    expect(rd.data).toMatchObject({ htzt: '2', renewedFromId: id });
    expect(rd.data.receivables).toHaveLength(1);
    expect((await info(admin, id)).data.renewedById).toBe(renew.data.id);
    const twice = await t.call(
      renewContractCall.path,
      {
        id,
        signDate: '2026-12-01',
        startDate: '2027-01-01',
        endDate: '2027-12-31',
        payCycle: 12,
        lines: fromTemplate(55).lines,
      },
      admin,
    );
    expect(twice.code).toBe(CODE.CONFLICT);

    // Terminate needs a reason and a day within the term.
    expect((await t.call(updateContractStatusCall.path, { id, type: '3' }, admin)).msg).toBe(CONTRACT_MSG.endReason);
    expect(
      (await t.call(updateContractStatusCall.path, { id, type: '3', reason: '客户注销', endDate: '2027-03-01' }, admin))
        .msg,
    ).toBe(CONTRACT_MSG.endDateRange);
    const end = await t.call(
      updateContractStatusCall.path,
      { id, type: '3', reason: '客户注销', endDate: '2026-05-15' },
      admin,
    );
    expect(end.code).toBe(CODE.OK);
    const ended = await info(admin, id);
    expect(ended.data).toMatchObject({ htzt: '3', statusText: '已终止', endDate: '2026-05-15', endReason: '客户注销' });
    expect(ended.data.receivables.map((p) => p.periodNo)).toEqual([1, 2]);
    expect((await t.call(updateContractStatusCall.path, { id, type: '3', reason: 'x' }, admin)).code).toBe(
      CODE.BAD_REQUEST,
    );
    expect(
      (
        await t.call(
          renewContractCall.path,
          {
            id,
            signDate: '2027-01-01',
            startDate: '2028-01-01',
            endDate: '2028-12-31',
            payCycle: 12,
            lines: fromTemplate(55).lines,
          },
          admin,
        )
      ).msg,
    ).toBe(CONTRACT_MSG.onlyActiveRenew);

    expect((await t.call(updateContractStatusCall.path, { id, type: '0' }, admin)).code).toBe(CODE.OK);
    expect((await info(admin, id)).data.htzt).toBe('0');
    const rec = await t.call<{ count: number }>(recoverContractCall.path, { ids: [id] }, admin);
    expect(rec.data.count).toBe(1);
    expect((await info(admin, id)).data.htzt).toBe('3');

    const audit = await t.ownerQuery<{ action: string }>('select action from audit_log where target = $1 order by id', [
      `contract:${id}`,
    ]);
    expect(audit.map((a) => a.action)).toEqual([
      'contract.create',
      'contract.submit',
      'contract.terminate',
      'contract.delete',
      'contract.recover',
    ]);
  });

  it('batch end and batch delete; the whole batch is refused when one is not allowed', async () => {
    const a = (await save(admin, fromTemplate(56, { contractNo: 'B-1' }))).data.id;
    const b = (
      await save(admin, fromTemplate(56, { contractNo: 'B-2', startDate: '2027-01-01', endDate: '2027-12-31' }))
    ).data.id;
    await t.call(batchSubmitContractCall.path, { ids: [a, b] }, admin);
    expect((await t.call(batchEndContractCall.path, { ids: [a, b] }, admin)).msg).toContain(CONTRACT_MSG.endReason);
    const end = await t.call<{ count: number }>(batchEndContractCall.path, { ids: [a, b], reason: '批量终止' }, admin);
    expect(end.data.count).toBe(2);
    const c = (await save(admin, fromTemplate(56, { contractNo: 'B-3' }))).data.id;
    await t.call(batchSubmitContractCall.path, { ids: [c] }, admin);
    const mixed = await t.call(batchDeleteContractCall.path, { ids: [a, b, c] }, admin);
    expect(mixed.code).toBe(CODE.BAD_REQUEST);
    expect((await info(admin, a)).data.htzt).toBe('3');
    const del = await t.call<{ count: number }>(batchDeleteContractCall.path, { ids: [a, b] }, admin);
    expect(del.data.count).toBe(2);
    const deleted = await t.call<{ list: ContractItem[] }>(
      contractListCall.path,
      { status: '0', contractNo: 'B-' },
      admin,
    );
    expect(deleted.data.list.map((x) => x.contractNo).sort()).toEqual(['B-1', 'B-2']);
    expect((await t.call(batchDeleteContractCall.path, { ids: [] }, admin)).msg).toContain(CONTRACT_MSG.chooseContract);
  });
});

describe('data scope and special permissions', () => {
  it("a clerk sees only their own contracts; others' need htsz view, changes need edit", async () => {
    const mine = await t.call<{ list: ContractItem[]; total: number }>(contractListCall.path, { pageSize: 500 }, zhang);
    expect(mine.data.list.every((c) => c.contractUserId === ID.zhang)).toBe(true);
    const all = await t.call<{ list: ContractItem[]; total: number }>(contractListCall.path, { pageSize: 500 }, admin);
    expect(all.data.total).toBeGreaterThan(mine.data.total);
    const headSees = await t.call<{ list: ContractItem[] }>(contractListCall.path, { pageSize: 500 }, li);
    expect(new Set(headSees.data.list.map((c) => c.contractUserId))).toEqual(new Set([ID.li, ID.zhang]));

    const adminsContract = all.data.list.find((c) => c.contractUserId === ID.admin && c.htzt === '2');
    if (!adminsContract) throw new Error('demo data: no contract of the administrator in force');
    expect((await info(zhang, adminsContract.id)).code).toBe(CODE.NOT_FOUND);
    const htsz = (contractUserId: number) =>
      t.call<{ canView: boolean; canEdit: boolean }>(getSpecialPermissionHtszCall.path, { contractUserId }, zhang);
    expect((await htsz(ID.admin)).data).toMatchObject({ canView: false, canEdit: false });
    expect((await htsz(ID.zhang)).data).toMatchObject({ canView: true, canEdit: true });

    expect((await t.call(saveSpecialPermissionHtszCall.path, { userIds: [ID.zhang], level: 'view' }, zhang)).code).toBe(
      CODE.NO_PERMISSION,
    );
    expect((await t.call(saveSpecialPermissionHtszCall.path, { userIds: [ID.zhang], level: 'view' }, admin)).code).toBe(
      CODE.OK,
    );
    expect((await htsz(ID.admin)).data).toMatchObject({ level: 'view', canView: true, canEdit: false });
    const seen = await info(zhang, adminsContract.id);
    expect(seen.data).toMatchObject({ id: adminsContract.id, canEdit: false });
    const end = await t.call(updateContractStatusCall.path, { id: adminsContract.id, type: '3', reason: '试' }, zhang);
    expect(end.code).toBe(CODE.NO_PERMISSION);
    expect(end.msg).toBe(CONTRACT_MSG.noEdit);

    await t.call(saveSpecialPermissionHtszCall.path, { userIds: [ID.zhang], level: 'edit' }, admin);
    expect((await htsz(ID.admin)).data).toMatchObject({ canEdit: true });
    const list = await t.call<{ userId: number; htsz: string }[]>(
      getSpecialPermissionCall.path,
      { userName: '张' },
      admin,
    );
    expect(list.data).toEqual([expect.objectContaining({ userId: ID.zhang, htsz: 'edit', khsz: '' })]);
    const own = await t.call<{ htsz: { level: string } }>(getSpecialPermissionByUserIdCall.path, {}, zhang);
    expect(own.data.htsz.level).toBe('edit');
    expect((await t.call(getSpecialPermissionByUserIdCall.path, { userId: ID.admin }, zhang)).code).toBe(
      CODE.NO_PERMISSION,
    );
    expect((await t.call(getSpecialPermissionByUserIdCall.path, { agencyId: 2 }, zhang)).code).toBe(CODE.NOT_FOUND);
    await t.call(saveSpecialPermissionHtszCall.path, { userIds: [ID.zhang], level: '' }, admin);
    expect((await info(zhang, adminsContract.id)).code).toBe(CODE.NOT_FOUND);
  });

  it('the eligible enterprise list says 未找到符合权限的客户 when empty; by-tax-number and by-enterprise lists', async () => {
    const none = await t.call(contractEnterprisesCall.path, { keyword: '不存在的企业名' }, zhang);
    expect(none.code).toBe(CODE.EMPTY);
    expect(none.msg).toBe(CONTRACT_MSG.noCustomers);
    const some = await t.call<{ id: number }[]>(contractEnterprisesCall.path, {}, zhang);
    expect(some.data.every((e) => e.id % 3 === 0)).toBe(true);

    const [e] = await t.ownerQuery<{ qysh: string }>('select qysh from enterprises where id = 1');
    const byQysh = await t.call<ContractItem[]>(contractByQyshCall.path, { qysh: e?.qysh }, admin);
    expect(byQysh.code).toBe(CODE.OK);
    expect(byQysh.data.every((c) => c.aeiId === 1)).toBe(true);
    expect((await t.call(contractByQyshCall.path, { qysh: 'NOSUCHTAX1' }, admin)).code).toBe(CODE.EMPTY);
    const byEnt = await t.call<ContractItem[]>(contractListByEnterpriseCall.path, { aeiId: 1 }, admin);
    expect(byEnt.data.length).toBeGreaterThan(0);
    expect((await t.call(contractListByEnterpriseCall.path, { aeiId: 61 }, admin)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('status and reminder settings', () => {
  const status = (cookie: string, aeiId: number, ly = 'kh') =>
    t.call<{ htstatus: string; warning: string | null; level: number }>(contractStatusCall.path, { aeiId, ly }, cookie);

  it('each level of each setting; only the administrator saves; another tenant refused', async () => {
    // Enterprise 58 has no contract.
    expect((await status(admin, 58)).data).toMatchObject({
      htstatus: '3',
      warning: CONTRACT_WARNING.noContract,
      level: 1,
    });
    expect((await status(admin, 58, 'sb')).data).toMatchObject({ warning: null, level: 0 });
    expect((await t.call(saveReminderSettingsCall.path, { kh_wyxht: 2, sb_wyxht: 1 }, admin)).code).toBe(CODE.OK);
    expect((await status(admin, 58)).data.level).toBe(2);
    expect((await status(admin, 58, 'sb')).data).toMatchObject({ warning: CONTRACT_WARNING.noContract, level: 1 });
    await t.call(saveReminderSettingsCall.path, { kh_wyxht: 0 }, admin);
    expect((await status(admin, 58)).data).toMatchObject({ warning: null, level: 0 });
    const all = await t.call<Record<string, number>>(getReminderSettingsCall.path, {}, admin);
    expect(all.data).toMatchObject({ kh_wyxht: 0, sb_wyxht: 1, kh_qf: 1, kh_dqts: 30 });

    // An expired demo contract (enterprises 33-38 of agency 1) shows the expiry text.
    const expired = await t.call<{ list: ContractItem[] }>(contractListCall.path, { status: 'expired' }, admin);
    const e = expired.data.list[0];
    if (!e) throw new Error('demo data: no expired contract');
    expect((await status(admin, e.aeiId)).data.warning).toMatch(/合同已(欠费\/)?到期，请及时续费/);
    await t.call(saveReminderSettingsCall.path, { kh_dq: 0, kh_qf: 0 }, admin);
    expect((await status(admin, e.aeiId)).data.warning).toBeNull();

    expect((await t.call(saveReminderSettingsCall.path, { kh_qf: 3 }, admin)).code).toBe(CODE.BAD_REQUEST);
    expect((await t.call(saveReminderSettingsCall.path, { kh_qf: 1 }, zhang)).code).toBe(CODE.NO_PERMISSION);
    expect((await status(other, 58)).code).toBe(CODE.NOT_FOUND);
    expect((await status(zhang, 58 - 2)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(contractStatusCall.path, { aeiId: 58 })).code).toBe(CODE.SESSION_EXPIRED);
  });

  it('the list filters by status, owner, period and days to expiry', async () => {
    const expiring = await t.call<{ list: ContractItem[] }>(contractListCall.path, { expireDays: 30 }, admin);
    expect(expiring.data.list.length).toBeGreaterThan(0);
    expect(expiring.data.list.every((c) => c.htzt === '2' && (c.dqts ?? -1) >= 0 && (c.dqts ?? 99) <= 30)).toBe(true);
    const drafts = await t.call<{ list: ContractItem[] }>(contractListCall.path, { status: '1' }, admin);
    expect(drafts.data.list.every((c) => c.statusText === '待提交')).toBe(true);
    const byOwner = await t.call<{ list: ContractItem[] }>(contractListCall.path, { contractUserId: ID.li }, admin);
    expect(byOwner.data.list.every((c) => c.contractUserName === '李晓梅')).toBe(true);
    const period = await t.call<{ list: ContractItem[] }>(
      contractListCall.path,
      { periodFrom: '2027-01-01', periodTo: '2027-12-31' },
      admin,
    );
    expect(period.data.list.every((c) => c.endDate >= '2027-01-01' && c.startDate <= '2027-12-31')).toBe(true);
    expect((await t.call(contractListCall.path, { pageSize: 7 }, admin)).code).toBe(CODE.BAD_REQUEST);
  });
});
