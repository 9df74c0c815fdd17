import {
  CODE,
  FEE_MSG,
  feeOwnersCall,
  feeScheduleCall,
  receivableListCall,
  revokeChargeCall,
  saveChargeCall,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog, receivables, specialPermissions } from '../src/db/schema/index.js';
import { arrearsOf } from '../src/modules/contract-fee/contract-fee.service.js';
import {
  chargesOf,
  daysFromToday,
  makeContract,
  makeEnterprise,
  paidFenOf,
  pay,
  receivablesOf,
  today,
} from './contract-fee-helpers.js';
import { grantStaffEverything, withDefaultPerms } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { ADMIN, ID, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  // Scope is what these tests are about: the staff hold the permissions an administrator may grant.
  await grantStaffEverything(t);
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

const auditOf = (action: string, target: string) =>
  inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.target, target))),
  );

describe('登记收款: recording a payment', () => {
  it('records a partial payment, then the rest: the period goes 未收款 → 部分收款 → 已收清, paid_fen = sum of charges', async () => {
    const c = await makeContract(t, {
      enterpriseId: 2,
      userId: ID.li,
      periods: [
        { due: daysFromToday(-40), fen: 120_000 },
        { due: daysFromToday(20), fen: 120_000 },
      ],
    });
    const [p1, p2] = c.periodIds as [number, number];
    let rows = (await receivablesOf(t, li, { contractId: c.id })).list;
    expect(rows.map((r) => [r.periodNo, r.feeStatus, r.unpaid])).toEqual([
      [1, 'unpaid', '1200.00'],
      [2, 'notDue', '1200.00'],
    ]);
    expect(rows[0]?.qfys).toBeGreaterThanOrEqual(1);

    const first = await pay(t, li, {
      receivableId: p1,
      amount: '500.5',
      payDate: today(),
      payMethod: '3',
      payer: '杭州某公司 出纳',
      receiptNo: 'SK-T-0001',
      remark: '首付',
    });
    expect(first.code, first.msg).toBe(CODE.OK);
    expect(first.data).toMatchObject({ paid: '500.50', unpaid: '699.50', feeStatus: 'partial' });
    expect(await paidFenOf(t, p1)).toBe(50_050);

    const second = await pay(t, li, { receivableId: p1, amount: '699.50', payMethod: '1' });
    expect(second.code, second.msg).toBe(CODE.OK);
    expect(second.data).toMatchObject({ paid: '1200.00', unpaid: '0.00', feeStatus: 'paid' });
    expect(await paidFenOf(t, p1)).toBe(120_000);

    rows = (await receivablesOf(t, li, { contractId: c.id })).list;
    // Paid in full, it moves behind the periods still owed (the default order).
    expect(rows.at(-1)).toMatchObject({ id: p1, feeStatus: 'paid', paid: '1200.00', unpaid: '0.00' });
    // Paying ahead of the due date is allowed (a 未到期 period partly paid reads 部分收款).
    expect((await pay(t, li, { receivableId: p2, amount: '0.01' })).data.feeStatus).toBe('partial');

    const list = await chargesOf(t, li, { contractId: c.id });
    expect(list.total).toBe(3);
    expect(list.totals.amount).toBe('1200.01');
    const recorded = list.list.find((x) => x.receiptNo === 'SK-T-0001');
    expect(recorded).toMatchObject({
      amount: '500.50',
      payMethod: '3',
      payer: '杭州某公司 出纳',
      remark: '首付',
      operatorName: '李晓梅',
      revoked: false,
      contractNo: c.contractNo,
      periodNo: 1,
    });

    // Every money change is in the audit log, with the amounts before and after.
    const [a] = await auditOf('fee.charge_add', `charge:${first.data.id}`);
    expect(a?.userId).toBe(ID.li);
    expect(a?.detail).toMatchObject({ receivableId: p1, amountFen: 50_050, paidFenBefore: 0, paidFenAfter: 50_050 });
  });

  it('refuses more than the period still owes, a date in the future, and malformed amounts; nothing changes', async () => {
    const c = await makeContract(t, {
      enterpriseId: 2,
      userId: ID.li,
      periods: [{ due: daysFromToday(-5), fen: 30_000 }],
    });
    const p = c.periodIds[0] as number;
    expect((await pay(t, li, { receivableId: p, amount: '100' })).code).toBe(CODE.OK);

    const over = await pay(t, li, { receivableId: p, amount: '200.01' });
    expect(over.status).toBe(400);
    expect(over.msg).toBe(FEE_MSG.overpay('200.00'));

    const future = await pay(t, li, { receivableId: p, amount: '1', payDate: daysFromToday(1) });
    expect(future.status).toBe(400);
    expect(future.msg).toBe(FEE_MSG.dateFuture);

    for (const [amount, msg] of [
      ['12.345', FEE_MSG.amountPattern],
      ['abc', FEE_MSG.amountPattern],
      ['0', FEE_MSG.amountPositive],
      ['0.00', FEE_MSG.amountPositive],
      ['-5', FEE_MSG.amountPattern],
      ['', FEE_MSG.amountRequired],
      ['12345678901', FEE_MSG.amountLength],
    ] as const) {
      const r = await pay(t, li, { receivableId: p, amount });
      expect(r.status, amount).toBe(400);
      expect(r.msg, amount).toContain(msg);
    }
    const badDate = await pay(t, li, { receivableId: p, amount: '1', payDate: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(badDate.msg).toContain('请输入正确的日期');
    const noMethod = await t.call(saveChargeCall.path, { receivableId: p, payAmount: '1', payDate: today() }, li);
    expect(noMethod.status).toBe(400);
    expect(noMethod.msg).toContain(FEE_MSG.methodRequired);
    const extra = await pay(t, li, { receivableId: p, amount: '1', agencyId: 2 } as never);
    expect(extra.status).toBe(400);

    expect(await paidFenOf(t, p)).toBe(10_000);
    expect((await chargesOf(t, li, { contractId: c.id })).total).toBe(1);

    // Exactly the rest is fine; then the period is settled and refuses more.
    expect((await pay(t, li, { receivableId: p, amount: '200' })).data.feeStatus).toBe('paid');
    const settled = await pay(t, li, { receivableId: p, amount: '1' });
    expect(settled.status).toBe(400);
    expect(settled.msg).toBe(FEE_MSG.settled);
  });

  it('a receipt number is used by one live charge of the agency; revoking frees it', async () => {
    const c = await makeContract(t, {
      enterpriseId: 2,
      userId: ID.li,
      periods: [
        { due: daysFromToday(-60), fen: 50_000 },
        { due: daysFromToday(-30), fen: 50_000 },
      ],
    });
    const [p1, p2] = c.periodIds as [number, number];
    const first = await pay(t, li, { receivableId: p1, amount: '10', receiptNo: 'RCPT-777' });
    expect(first.code).toBe(CODE.OK);
    const dup = await pay(t, admin, { receivableId: p2, amount: '10', receiptNo: 'RCPT-777' });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe(FEE_MSG.receiptTaken('RCPT-777'));
    expect(await paidFenOf(t, p2)).toBe(0);

    // Two at the same moment: exactly one wins.
    const both = await Promise.all([
      pay(t, li, { receivableId: p1, amount: '1', receiptNo: 'RCPT-RACE' }),
      pay(t, admin, { receivableId: p2, amount: '1', receiptNo: 'RCPT-RACE' }),
    ]);
    expect(both.map((r) => r.code).sort()).toEqual([CODE.OK, CODE.CONFLICT]);

    // Another agency may use the same number.
    const theirs = await makeContract(t, {
      agencyId: 2,
      enterpriseId: 61,
      userId: ID.otherAdmin,
      periods: [{ due: daysFromToday(-3), fen: 10_000 }],
    });
    const r = await pay(t, other, { receivableId: theirs.periodIds[0] as number, amount: '10', receiptNo: 'RCPT-777' });
    expect(r.code, r.msg).toBe(CODE.OK);

    expect((await t.call(revokeChargeCall.path, { id: first.data.id }, li)).code).toBe(CODE.OK);
    expect((await pay(t, admin, { receivableId: p2, amount: '10', receiptNo: 'RCPT-777' })).code).toBe(CODE.OK);
  });

  it('refuses another tenant’s receivable (404), no permission (460), not signed in (403); nothing changes', async () => {
    const theirs = await makeContract(t, {
      agencyId: 2,
      enterpriseId: 62,
      userId: ID.otherAdmin,
      periods: [{ due: daysFromToday(-3), fen: 10_000 }],
    });
    const p = theirs.periodIds[0] as number;
    const foreign = await pay(t, admin, { receivableId: p, amount: '10' });
    expect(foreign.status).toBe(404);
    expect(foreign.msg).toBe(FEE_MSG.notFound);
    expect((await t.call(feeScheduleCall.path, { contractId: theirs.id }, admin)).status).toBe(404);
    expect(await paidFenOf(t, p, 2)).toBe(0);

    const mine = await makeContract(t, { enterpriseId: 3, userId: ID.zhang, periods: [{ due: today(), fen: 10_000 }] });
    const q = mine.periodIds[0] as number;
    expect((await pay(t, undefined as never, { receivableId: q })).status).toBe(403);
    await withDefaultPerms(t, ['fee:list:view'], async () => {
      const refused = await pay(t, zhang, { receivableId: q });
      expect(refused.status).toBe(460);
      const charge = await pay(t, admin, { receivableId: q, amount: '1' });
      expect((await t.call(revokeChargeCall.path, { id: charge.data.id }, zhang)).status).toBe(460);
      expect((await receivablesOf(t, zhang, { contractId: mine.id })).total).toBe(1);
    });
    await withDefaultPerms(t, [], async () => {
      expect((await t.call(feeOwnersCall.path, {}, zhang)).status).toBe(460);
    });
    expect(await paidFenOf(t, q)).toBe(100);
  });
});

describe('撤销收款: revoking a payment', () => {
  it('restores the unpaid amount, keeps the row marked revoked, is audited, and cannot be done twice', async () => {
    const c = await makeContract(t, {
      enterpriseId: 2,
      userId: ID.li,
      periods: [{ due: daysFromToday(-10), fen: 80_000 }],
    });
    const p = c.periodIds[0] as number;
    const a = await pay(t, li, { receivableId: p, amount: '300' });
    const b = await pay(t, li, { receivableId: p, amount: '500' });
    expect(b.data.feeStatus).toBe('paid');

    const r = await t.call<{ paid: string; unpaid: string; feeStatus: string }>(
      revokeChargeCall.path,
      { id: a.data.id, reason: '金额登记错误' },
      li,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data).toEqual({ paid: '500.00', unpaid: '300.00', feeStatus: 'partial' });
    expect(await paidFenOf(t, p)).toBe(50_000);

    const list = await chargesOf(t, li, { contractId: c.id });
    expect(list.totals.amount).toBe('500.00');
    const revoked = list.list.find((x) => x.id === a.data.id);
    expect(revoked).toMatchObject({ revoked: true, revokedByName: '李晓梅', editable: false });
    expect((await chargesOf(t, li, { contractId: c.id, revoked: '1' })).list.map((x) => x.id)).toEqual([a.data.id]);
    expect((await chargesOf(t, li, { contractId: c.id, revoked: '0' })).list.map((x) => x.id)).toEqual([b.data.id]);

    const again = await t.call(revokeChargeCall.path, { id: a.data.id }, li);
    expect(again.status).toBe(409);
    expect(again.msg).toBe(FEE_MSG.alreadyRevoked);

    const [row] = await auditOf('fee.charge_revoke', `charge:${a.data.id}`);
    expect(row?.detail).toMatchObject({
      amountFen: 30_000,
      reason: '金额登记错误',
      paidFenBefore: 80_000,
      paidFenAfter: 50_000,
    });
    // Revoking everything brings the period back to 未收款.
    const last = await t.call<{ feeStatus: string }>(revokeChargeCall.path, { id: b.data.id }, admin);
    expect(last.data.feeStatus).toBe('unpaid');
    expect(await paidFenOf(t, p)).toBe(0);
  });
});

describe('the fee list', () => {
  it('合计 sums the whole filter, not the page; filters by status, due dates, contract no. and enterprise', async () => {
    const periods = Array.from({ length: 30 }, (_, i) => ({ due: daysFromToday(-300 + i * 20), fen: 10_001 + i }));
    const c = await makeContract(t, { enterpriseId: 5, userId: ID.li, periods });
    // Pay the first ten in full and the eleventh in part.
    for (const id of c.periodIds.slice(0, 10)) {
      const due = periods[c.periodIds.indexOf(id)]?.fen ?? 0;
      expect(
        (
          await pay(t, li, {
            receivableId: id,
            amount: `${Math.floor(due / 100)}.${String(due % 100).padStart(2, '0')}`,
          })
        ).code,
      ).toBe(CODE.OK);
    }
    await pay(t, li, { receivableId: c.periodIds[10] as number, amount: '0.50' });

    const page = await receivablesOf(t, li, { contractNo: c.contractNo, pageSize: 20, pageNo: 1 });
    expect(page.total).toBe(30);
    expect(page.list).toHaveLength(20);
    const allFen = periods.reduce((s, p) => s + p.fen, 0);
    const paidFen = periods.slice(0, 10).reduce((s, p) => s + p.fen, 0) + 50;
    const yuan = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
    expect(page.totals).toEqual({ amount: yuan(allFen), paid: yuan(paidFen), unpaid: yuan(allFen - paidFen) });
    const page2 = await receivablesOf(t, li, { contractNo: c.contractNo, pageSize: 20, pageNo: 2 });
    expect(page2.list).toHaveLength(10);
    expect(page2.totals).toEqual(page.totals);

    const count = async (f: Record<string, unknown>) =>
      (await receivablesOf(t, li, { contractNo: c.contractNo, ...f })).total;
    const dueCount = periods.filter((p) => p.due <= today()).length;
    expect(await count({ feeStatus: 'paid' })).toBe(10);
    expect(await count({ feeStatus: 'partial' })).toBe(1);
    expect(await count({ feeStatus: 'unpaid' })).toBe(dueCount - 11);
    expect(await count({ feeStatus: 'notDue' })).toBe(30 - dueCount);
    expect(await count({ dueFrom: periods[5]?.due, dueTo: periods[7]?.due })).toBe(3);
    expect(await count({ keyword: 'zz-no-such-enterprise' })).toBe(0);
    const byName = await receivablesOf(t, li, { contractNo: c.contractNo, pageSize: 20 });
    const qymc = byName.list[0]?.qymc ?? '';
    expect(await count({ keyword: qymc.slice(0, 4) })).toBe(30);

    // Sorting by unpaid, largest first: the unpaid periods lead, the paid ones come last.
    const sorted = await receivablesOf(t, li, { contractNo: c.contractNo, sortField: 'unpaid', sortOrder: 'descend' });
    expect(sorted.list[0]?.unpaid).toBe(yuan(periods[29]?.fen ?? 0));
    expect(sorted.list[29]?.unpaid).toBe('0.00');
    const byAmount = await receivablesOf(t, li, { contractNo: c.contractNo, sortField: 'amount', sortOrder: 'ascend' });
    expect(byAmount.list.map((r) => r.amount)).toEqual(periods.map((p) => yuan(p.fen)));

    // Charges: filtered by pay method and date, totals over the filter.
    const charges = await chargesOf(t, li, { contractNo: c.contractNo });
    expect(charges.total).toBe(11);
    expect(charges.totals.amount).toBe(yuan(paidFen));
    expect((await chargesOf(t, li, { contractNo: c.contractNo, payMethod: '4' })).total).toBe(0);
    expect((await chargesOf(t, li, { contractNo: c.contractNo, payFrom: daysFromToday(1) })).total).toBe(0);
    expect((await chargesOf(t, li, { contractNo: c.contractNo, payFrom: today(), payTo: today() })).total).toBe(11);
    expect((await chargesOf(t, li, { contractNo: c.contractNo, pageSize: 20, pageNo: 5 })).total).toBe(11);

    // Page sizes are the spec's; others are refused with a Chinese message.
    const bad = await t.call(receivableListCall.path, { pageSize: 30 }, li);
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('每页条数须为20、50、100或500');
  });

  it('follows the data scope of the contract owner, widened by the htsf special permission', async () => {
    const liOwn = await makeContract(t, {
      enterpriseId: 8,
      userId: ID.li,
      periods: [{ due: daysFromToday(-2), fen: 5000 }],
    });
    const zhangOwn = await makeContract(t, {
      enterpriseId: 9,
      userId: ID.zhang,
      periods: [{ due: daysFromToday(-2), fen: 5000 }],
    });
    const adminOwn = await makeContract(t, {
      enterpriseId: 10,
      userId: ID.admin,
      periods: [{ due: daysFromToday(-2), fen: 5000 }],
    });
    const seen = async (cookie: string, id: number) => (await receivablesOf(t, cookie, { contractId: id })).total;

    // 张伟 (employee) sees his own; 李晓梅 (head of his department) sees both; the administrator all.
    expect([await seen(zhang, zhangOwn.id), await seen(zhang, liOwn.id), await seen(zhang, adminOwn.id)]).toEqual([
      1, 0, 0,
    ]);
    expect([await seen(li, zhangOwn.id), await seen(li, liOwn.id), await seen(li, adminOwn.id)]).toEqual([1, 1, 0]);
    expect(await seen(admin, zhangOwn.id)).toBe(1);
    const outOfScope = await pay(t, zhang, { receivableId: liOwn.periodIds[0] as number, amount: '1' });
    expect(outOfScope.status).toBe(404);
    expect((await t.call(feeScheduleCall.path, { contractId: liOwn.id }, zhang)).status).toBe(404);

    const grant = (level: 'view' | 'edit') =>
      inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
        tx
          .insert(specialPermissions)
          .values({ agencyId: 1, userId: ID.zhang, area: 'htsf', level })
          .onConflictDoUpdate({
            target: [specialPermissions.agencyId, specialPermissions.userId, specialPermissions.area],
            set: { level },
          }),
      );
    try {
      await grant('view');
      const row = (await receivablesOf(t, zhang, { contractId: liOwn.id })).list[0];
      expect(row?.editable).toBe(false);
      const refused = await pay(t, zhang, { receivableId: liOwn.periodIds[0] as number, amount: '1' });
      expect(refused.status).toBe(460);
      expect(refused.msg).toBe(FEE_MSG.noEditRight);

      await grant('edit');
      expect((await receivablesOf(t, zhang, { contractId: adminOwn.id })).list[0]?.editable).toBe(true);
      const ok = await pay(t, zhang, { receivableId: adminOwn.periodIds[0] as number, amount: '1' });
      expect(ok.code, ok.msg).toBe(CODE.OK);
    } finally {
      await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
        tx.delete(specialPermissions).where(eq(specialPermissions.userId, ID.zhang)),
      );
    }
  });

  it('leaves out deleted contracts, and another agency’s fees', async () => {
    const gone = await makeContract(t, {
      enterpriseId: 11,
      userId: ID.admin,
      htzt: '0',
      periods: [{ due: today(), fen: 100 }],
    });
    expect((await receivablesOf(t, admin, { contractId: gone.id })).total).toBe(0);
    expect((await pay(t, admin, { receivableId: gone.periodIds[0] as number, amount: '1' })).status).toBe(404);
    const theirs = await makeContract(t, {
      agencyId: 2,
      enterpriseId: 63,
      userId: ID.otherAdmin,
      periods: [{ due: today(), fen: 100 }],
    });
    expect((await receivablesOf(t, admin, { contractNo: theirs.contractNo })).total).toBe(0);
    expect((await receivablesOf(t, other, { contractNo: theirs.contractNo })).total).toBe(1);
  });

  it('the schedule of one contract: periods, charges and what is owed', async () => {
    const c = await makeContract(t, {
      enterpriseId: await makeEnterprise(t, ID.li),
      userId: ID.li,
      periods: [
        { due: daysFromToday(-61), fen: 30_000 },
        { due: daysFromToday(-31), fen: 30_000 },
        { due: daysFromToday(29), fen: 30_000 },
      ],
    });
    await pay(t, li, { receivableId: c.periodIds[0] as number, amount: '300' });
    await pay(t, li, { receivableId: c.periodIds[1] as number, amount: '100' });
    const r = await t.call<{
      contract: Record<string, unknown>;
      periods: { feeStatus: string }[];
      charges: unknown[];
    }>(feeScheduleCall.path, { contractId: c.id }, li);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.contract).toMatchObject({
      contractNo: c.contractNo,
      amount: '900.00',
      paid: '400.00',
      unpaid: '500.00',
      dueUnpaid: '200.00',
      // Owed since 31 days ago: one whole month in arrears.
      qfys: 1,
      contractUserName: '李晓梅',
      editable: true,
    });
    expect(r.data.periods.map((p) => p.feeStatus)).toEqual(['paid', 'partial', 'notDue']);
    expect(r.data.charges).toHaveLength(2);
    const owners = await t.call<{ userId: number; hymc: string }[]>(feeOwnersCall.path, {}, zhang);
    expect(owners.data.map((o) => o.hymc)).toEqual(['王建国', '李晓梅', '张伟']);
  });
});

describe('arrears months (qfys) from the contract status', () => {
  const cases: [string, string, number][] = [
    // oldest unpaid due date, today, months in arrears (whole months since it fell due)
    ['2026-01-31', '2026-01-31', 0],
    ['2026-01-31', '2026-02-27', 0],
    ['2026-01-31', '2026-02-28', 1],
    ['2024-01-31', '2024-02-28', 0],
    ['2024-01-31', '2024-02-29', 1],
    ['2024-02-29', '2025-02-28', 12],
    ['2024-02-29', '2028-02-29', 48],
    ['2025-12-31', '2026-01-01', 0],
    ['2025-12-31', '2026-01-31', 1],
  ];
  it.each(cases)('due %s, on %s: %i', async (due, on, months) => {
    const enterpriseId = await makeEnterprise(t, ID.admin);
    const c = await makeContract(t, {
      enterpriseId,
      userId: ID.admin,
      periods: [
        { due, fen: 1000 },
        { due: '2029-01-01', fen: 1000 },
      ],
    });
    const got = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      arrearsOf(tx, [enterpriseId], on),
    );
    expect(got.get(enterpriseId)).toBe(months);
    // Paid, it no longer counts.
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx
        .update(receivables)
        .set({ paidFen: sql`${receivables.amountFen}` })
        .where(eq(receivables.contractId, c.id)),
    );
    const after = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      arrearsOf(tx, [enterpriseId], on),
    );
    expect(after.get(enterpriseId)).toBe(0);
  });
});
