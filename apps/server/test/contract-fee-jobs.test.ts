import { CODE, FEE_FILES, updateMsgSettingsCall } from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog, jobs, receivables } from '../src/db/schema/index.js';
import {
  FEE_REMIND_QUEUE,
  FEE_SCAN_QUEUE,
  scheduleFeeReminders,
} from '../src/modules/contract-fee/contract-fee.jobs.js';
import { chargesOf, daysFromToday, makeContract, makeEnterprise, pay, receivablesOf } from './contract-fee-helpers.js';
import { readSheet, withDefaultPerms } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, clearMessages, jobsDone, messagesOf, testDeps } from './message-helpers.js';
import { ADMIN, ID, LI, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, zhang] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG)]);
});
afterAll(() => t.close());

async function clearFeeJobs() {
  await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
    tx.delete(jobs).where(and(eq(jobs.agencyId, AGENCY.demo), inArray(jobs.queue, [FEE_SCAN_QUEUE, FEE_REMIND_QUEUE]))),
  );
}

/** Runs the day's reminders for `date` and waits for them. */
async function remindOn(date: string) {
  await scheduleFeeReminders(testDeps(t), date);
  await jobsDone(t, AGENCY.demo, FEE_SCAN_QUEUE);
  await jobsDone(t, AGENCY.demo, FEE_REMIND_QUEUE);
}

const feeMessages = async (userId: number, contractNo: string) =>
  (await messagesOf(t, AGENCY.demo, userId)).filter((m) => m.content.includes(contractNo));

describe('收费提醒 (msg_sftx): the daily fee-reminder job', () => {
  it('tells the contract owner of periods due within 7 days or overdue, once per period per day', async () => {
    const ent = await makeEnterprise(t, ID.li, 1, '提醒测试科技有限公司');
    const c = await makeContract(t, {
      enterpriseId: ent,
      userId: ID.li,
      htzt: '2',
      periods: [
        { due: '2031-01-01', fen: 100_000, paidFen: 40_000 }, // overdue, partly paid
        { due: '2031-01-10', fen: 100_000 }, // due today
        { due: '2031-01-16', fen: 100_000 }, // due in 6 days
        { due: '2031-01-20', fen: 100_000 }, // too far off
        { due: '2030-12-01', fen: 100_000, paidFen: 100_000 }, // settled
      ],
    });
    const draft = await makeContract(t, {
      enterpriseId: ent,
      userId: ID.li,
      htzt: '1',
      periods: [{ due: '2031-01-05', fen: 100 }],
    });
    await clearMessages(t, AGENCY.demo);
    await clearFeeJobs();

    await remindOn('2031-01-10');
    const got = await feeMessages(ID.li, c.contractNo);
    expect(got.map((m) => m.content).sort()).toEqual(
      [
        `【收费提醒】客户「提醒测试科技有限公司」合同 ${c.contractNo} 第2期应收 ¥1000.00，应收日 2031-01-01，已逾期 9 天，尚未收 ¥600.00，请及时催收。`,
        `【收费提醒】客户「提醒测试科技有限公司」合同 ${c.contractNo} 第3期应收 ¥1000.00今日（2031-01-10）到期，尚未收 ¥1000.00，请及时收款。`,
        `【收费提醒】客户「提醒测试科技有限公司」合同 ${c.contractNo} 第4期应收 ¥1000.00将于 2031-01-16 到期（还有 6 天），尚未收 ¥1000.00，请及时收款。`,
      ].sort(),
    );
    expect(got.every((m) => m.msgStyleBig === 2 && m.msgStyleSmall === 'fee' && m.targetId === c.id)).toBe(true);
    expect(await feeMessages(ID.li, draft.contractNo)).toHaveLength(0);
    // Nobody else is told about 李晓梅's contract.
    expect(await feeMessages(ID.admin, c.contractNo)).toHaveLength(0);

    // The same day again (another process, a restart): nothing new.
    await remindOn('2031-01-10');
    expect(await feeMessages(ID.li, c.contractNo)).toHaveLength(3);

    // The next day: each still-owed period once more; a period paid since is not.
    const [, , p3] = c.periodIds as [number, number, number];
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.update(receivables).set({ paidFen: 100_000 }).where(eq(receivables.id, p3)),
    );
    await remindOn('2031-01-11');
    expect(await feeMessages(ID.li, c.contractNo)).toHaveLength(5);
  });

  it('respects the owner’s message setting 收费提醒', async () => {
    const ent = await makeEnterprise(t, ID.zhang);
    const c = await makeContract(t, {
      enterpriseId: ent,
      userId: ID.zhang,
      periods: [{ due: '2031-02-01', fen: 500 }],
    });
    await clearFeeJobs();
    const off = await t.call(updateMsgSettingsCall.path, { msg_sftx: 0 }, zhang);
    expect(off.code, off.msg).toBe(CODE.OK);
    await remindOn('2031-02-02');
    expect(await feeMessages(ID.zhang, c.contractNo)).toHaveLength(0);
    await t.call(updateMsgSettingsCall.path, { msg_sftx: 1 }, zhang);
    await remindOn('2031-02-03');
    expect(await feeMessages(ID.zhang, c.contractNo)).toHaveLength(1);
  });
});

/** Sheet rows with empty cells as '' (readSheet leaves holes where a cell is empty). */
const dense = (rows: string[][]) => rows.map((r) => Array.from(r, (v) => v ?? ''));

describe('导出: the fee list as .xlsx', () => {
  const exportOf = (cookie: string | undefined, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/${FEE_FILES.export}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
    });

  it('writes the current filter’s rows and a 合计 row (totals over the filter, dashes from column index 4)', async () => {
    const ent = await makeEnterprise(t, ID.li, 1, '=导出测试有限公司');
    const c = await makeContract(t, {
      enterpriseId: ent,
      userId: ID.li,
      periods: [
        { due: daysFromToday(-40), fen: 123_456 },
        { due: daysFromToday(-10), fen: 100_000 },
        { due: daysFromToday(20), fen: 100_000 },
      ],
    });
    expect(
      (await pay(t, li, { receivableId: c.periodIds[0] as number, amount: '1234.56', receiptNo: 'EXP-1' })).code,
    ).toBe(CODE.OK);
    expect((await pay(t, li, { receivableId: c.periodIds[1] as number, amount: '0.44', payer: '@张三' })).code).toBe(
      CODE.OK,
    );

    const res = await exportOf(li, {
      tab: 'receivable',
      contractNo: c.contractNo,
      sortField: 'dueDate',
      sortOrder: 'ascend',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('收费列表_应收_'));
    const rows = dense(await readSheet(res.rawPayload));
    expect(rows[0]).toEqual([
      '企业名称',
      '企业税号',
      '合同编号',
      '账期',
      '服务期间',
      '应收日期',
      '应收金额（元）',
      '已收金额（元）',
      '未收金额（元）',
      '收款状态',
      '欠费月数',
      '合同负责人',
    ]);
    expect(rows).toHaveLength(5);
    // A formula-like name is written as text, not run.
    expect(rows[1]?.[0]).toBe("'=导出测试有限公司");
    expect(rows[1]?.slice(2, 4)).toEqual([c.contractNo, '第1期']);
    expect(rows[1]?.slice(6, 10)).toEqual(['1234.56', '1234.56', '0', '已收清']);
    expect(rows[2]?.slice(6, 10)).toEqual(['1000', '0.44', '999.56', '部分收款']);
    expect(rows[3]?.[9]).toBe('未到期');
    // The oldest unpaid period fell due 10 days ago: not yet a whole month in arrears.
    expect(rows[1]?.[10]).toBe('0');
    expect(rows[4]).toEqual(['合计', '', '', '', '-', '-', '3234.56', '1235', '1999.56', '-', '-', '-']);

    const list = await receivablesOf(t, li, { contractNo: c.contractNo });
    expect(list.totals).toEqual({ amount: '3234.56', paid: '1235.00', unpaid: '1999.56' });

    const charges = await exportOf(li, {
      tab: 'charge',
      contractNo: c.contractNo,
      sortField: 'amount',
      sortOrder: 'ascend',
    });
    const sheet = dense(await readSheet(charges.rawPayload));
    expect(sheet[0]?.slice(0, 6)).toEqual(['收款日期', '企业名称', '企业税号', '合同编号', '账期', '收款金额（元）']);
    expect(sheet.slice(1, 3).map((r) => [r[5], r[7], r[8], r[12]])).toEqual([
      ['0.44', "'@张三", '', '有效'],
      ['1234.56', '', 'EXP-1', '有效'],
    ]);
    expect(sheet[3]?.slice(0, 6)).toEqual(['合计', '', '', '', '-', '1235']);
  });

  it('is refused without the permission or a session, and with a bad filter; it is audited', async () => {
    expect((await exportOf(undefined, { tab: 'charge' })).statusCode).toBe(403);
    await withDefaultPerms(t, ['fee:list:view'], async () => {
      const refused = await exportOf(zhang, { tab: 'charge' });
      expect(refused.statusCode).toBe(460);
    });
    const bad = await exportOf(li, { tab: 'nothing' });
    expect(bad.statusCode).toBe(400);
    const before = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.action, 'fee.export')),
    );
    expect(before.length).toBeGreaterThan(0);
    expect((await chargesOf(t, admin, { pageSize: 20 })).total).toBeGreaterThan(0);
  });
});
