import { CONTRACT_WARNING, contractWarningOf, REMINDER_DEFAULTS } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope, type Tx } from '../src/db/client.js';
import { receivables } from '../src/db/schema/index.js';
import { buildSchedule, createContract, terminateContract } from '../src/modules/contract/contract.service.js';
import { addDays, addMonths, daysBetween, fullMonthsBetween } from '../src/modules/contract/contract-dates.js';
import { contractStatusOf } from '../src/modules/contract/contract-status.js';
import { startTestApp, type TestApp } from './harness.js';

describe('calendar arithmetic', () => {
  it('adds months clamping to the month end, leap years included', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
    expect(addMonths('2025-12-31', 2)).toBe('2026-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2025-11-30', 3)).toBe('2026-02-28');
  });

  it('counts days across month, year and leap-day boundaries', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-01-10', '2026-01-01')).toBe(-9);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
  });

  it('counts whole calendar months: Jan 31 → Feb 28/29, leap day → next Feb 28', () => {
    expect(fullMonthsBetween('2026-01-31', '2026-02-27')).toBe(0);
    expect(fullMonthsBetween('2026-01-31', '2026-02-28')).toBe(1);
    expect(fullMonthsBetween('2024-01-31', '2024-02-28')).toBe(0);
    expect(fullMonthsBetween('2024-01-31', '2024-02-29')).toBe(1);
    expect(fullMonthsBetween('2024-02-29', '2025-02-28')).toBe(12);
    expect(fullMonthsBetween('2028-02-29', '2028-03-28')).toBe(0);
    expect(fullMonthsBetween('2028-02-29', '2028-03-29')).toBe(1);
    expect(fullMonthsBetween('2025-12-15', '2026-01-14')).toBe(0);
    expect(fullMonthsBetween('2025-12-15', '2026-01-15')).toBe(1);
    expect(fullMonthsBetween('2026-03-01', '2026-02-01')).toBe(0);
  });
});

describe('receivable schedule', () => {
  it('splits by cycle with the remainder fen on the last period', () => {
    const p = buildSchedule('2026-01-01', '2026-12-31', 3, 100_000);
    expect(p.map((x) => [x.periodStart, x.periodEnd, x.amountFen])).toEqual([
      ['2026-01-01', '2026-03-31', 25_000],
      ['2026-04-01', '2026-06-30', 25_000],
      ['2026-07-01', '2026-09-30', 25_000],
      ['2026-10-01', '2026-12-31', 25_000],
    ]);
    const odd = buildSchedule('2026-01-01', '2026-12-31', 1, 100_001);
    expect(odd).toHaveLength(12);
    expect(odd.reduce((s, x) => s + x.amountFen, 0)).toBe(100_001);
    expect(odd[11]?.amountFen).toBe(100_001 - 8_333 * 11);
    expect(odd[0]?.amountFen).toBe(8_333);
  });

  it('counts months from the start: Jan 31 monthly is due Feb 29 in a leap year, then Mar 31', () => {
    const p = buildSchedule('2024-01-31', '2024-04-29', 1, 30_000);
    expect(p.map((x) => x.dueDate)).toEqual(['2024-01-31', '2024-02-29', '2024-03-31']);
    expect(p.map((x) => x.periodEnd)).toEqual(['2024-02-28', '2024-03-30', '2024-04-29']);
  });

  it('one period for the whole term when the cycle is 0; a short last period is cut at the end date', () => {
    expect(buildSchedule('2026-05-10', '2027-05-09', 0, 500)).toEqual([
      { periodNo: 1, periodStart: '2026-05-10', periodEnd: '2027-05-09', dueDate: '2026-05-10', amountFen: 500 },
    ]);
    const p = buildSchedule('2026-01-01', '2026-08-15', 6, 1_000);
    expect(p.map((x) => [x.periodStart, x.periodEnd, x.amountFen])).toEqual([
      ['2026-01-01', '2026-06-30', 500],
      ['2026-07-01', '2026-08-15', 500],
    ]);
  });
});

describe('warnings by level', () => {
  const base = {
    aeiId: 1,
    sfstatus: '1',
    sfdq: '0',
    htstatus: '2',
    dqts: 200,
    qfys: 0,
    endDate: '2027-01-01',
  } as const;
  const on = { qf: 1, dq: 1, wyxht: 1, qfyf: 1, dqts: 30 };

  it('gives the four texts of the spec and the expiring text', () => {
    expect(contractWarningOf({ ...base }, on)).toEqual({ warning: null, level: 0 });
    expect(contractWarningOf({ ...base, sfstatus: '0', qfys: 2 }, on).warning).toBe(CONTRACT_WARNING.arrears);
    expect(contractWarningOf({ ...base, sfdq: '1', htstatus: '3', dqts: -3 }, on).warning).toBe(
      CONTRACT_WARNING.expired,
    );
    expect(contractWarningOf({ ...base, sfstatus: '0', qfys: 1, sfdq: '1', htstatus: '3', dqts: -3 }, on).warning).toBe(
      CONTRACT_WARNING.both,
    );
    expect(contractWarningOf({ ...base, htstatus: '3', dqts: null, endDate: null }, on).warning).toBe(
      CONTRACT_WARNING.noContract,
    );
    expect(contractWarningOf({ ...base, dqts: 12 }, on).warning).toBe('合同将于12天后到期，请及时续费');
  });

  it('level 0 is silent, 2 blocks, thresholds qfyf and dqts apply', () => {
    const arrears = { ...base, sfstatus: '0', qfys: 2 } as const;
    expect(contractWarningOf(arrears, { ...on, qf: 0 })).toEqual({ warning: null, level: 0 });
    expect(contractWarningOf(arrears, { ...on, qf: 2 }).level).toBe(2);
    expect(contractWarningOf(arrears, { ...on, qfyf: 3 }).warning).toBeNull();
    expect(contractWarningOf({ ...base, dqts: 31 }, on).warning).toBeNull();
    expect(contractWarningOf({ ...base, dqts: 30 }, { ...on, dq: 2 })).toEqual({
      warning: '合同将于30天后到期，请及时续费',
      level: 2,
    });
    const none = { ...base, htstatus: '3', dqts: null, endDate: null } as const;
    expect(contractWarningOf(none, { ...on, wyxht: 0 }).warning).toBeNull();
    expect(contractWarningOf(none, { ...on, wyxht: 2 }).level).toBe(2);
    expect(REMINDER_DEFAULTS.kh.qf).toBe(1);
    expect(REMINDER_DEFAULTS.sb.qf).toBe(0);
  });
});

describe('contractStatusOf', () => {
  let t: TestApp;
  let serviceId = 0;
  const AGENCY = 1;
  // Demo clients 46-60 of agency 1 have no contracts (contract.seed.ts).
  const E = { a: 46, b: 47, c: 48, d: 49, none: 50 };

  beforeAll(async () => {
    t = await startTestApp();
    const [s] = await t.ownerQuery<{ id: number }>(
      'select id from service_items where agency_id = 1 order by id limit 1',
    );
    serviceId = s?.id ?? 0;
  });
  afterAll(() => t.close());

  const scoped = <T>(fn: (tx: Tx) => Promise<T>) =>
    inScope(t.db.app, { agencyId: AGENCY, userId: 1, kjgcId: null }, fn);
  const contract = (enterpriseId: number, startDate: string, endDate: string, payCycle: number, price: string) =>
    scoped((tx) =>
      createContract(tx, {
        agencyId: AGENCY,
        actorId: 1,
        enterpriseId,
        templateId: null,
        contractUserId: 1,
        signDate: startDate,
        startDate,
        endDate,
        payCycle,
        discount: '0.00',
        remark: '',
        htzt: '2',
        lines: [{ serviceId, isGive: 0, price, discount: '0.00' }],
      }),
    );

  it('arrears months from Jan 31 across February, common and leap years', async () => {
    const c = await contract(E.a, '2026-01-31', '2027-01-30', 1, '1200.00');
    const at = (today: string) => scoped((tx) => contractStatusOf(tx, [E.a], today)).then((m) => m.get(E.a));
    expect(await at('2026-01-30')).toMatchObject({ sfstatus: '1', qfys: 0, htstatus: '3', sfdq: '0' });
    // Due today: it may still be paid today, so not yet in arrears.
    expect(await at('2026-01-31')).toMatchObject({ sfstatus: '1', qfys: 0, htstatus: '2' });
    expect(await at('2026-02-01')).toMatchObject({ sfstatus: '0', qfys: 0 });
    expect(await at('2026-02-27')).toMatchObject({ qfys: 0 });
    expect(await at('2026-02-28')).toMatchObject({ qfys: 1 });
    expect(await at('2026-12-31')).toMatchObject({ qfys: 11, dqts: 30 });
    // Every period paid: no arrears.
    await scoped((tx) =>
      tx
        .update(receivables)
        .set({ paidFen: 10_000 })
        .where(eq(receivables.contractId, c.id))
        .then(() => undefined),
    );
    expect(await at('2026-03-31')).toMatchObject({ sfstatus: '1', qfys: 0 });

    await contract(E.b, '2024-01-31', '2025-01-30', 1, '1200.00');
    const leap = (today: string) => scoped((tx) => contractStatusOf(tx, [E.b], today)).then((m) => m.get(E.b));
    expect(await leap('2024-02-28')).toMatchObject({ qfys: 0 });
    expect(await leap('2024-02-29')).toMatchObject({ qfys: 1 });
    expect(await leap('2025-01-30')).toMatchObject({ qfys: 11, dqts: 0, sfdq: '0', htstatus: '2' });
    expect(await leap('2025-01-31')).toMatchObject({ qfys: 12, dqts: -1, sfdq: '1', htstatus: '3' });
  });

  it('leap day 2028 and year ends; expiry days; no contract', async () => {
    await contract(E.c, '2028-02-29', '2028-12-31', 12, '600.00');
    const at = (today: string) =>
      scoped((tx) => contractStatusOf(tx, [E.c, E.none], today)).then((m) => [m.get(E.c), m.get(E.none)]);
    const [leapDay, none] = await at('2028-02-29');
    expect(leapDay).toMatchObject({ sfstatus: '1', qfys: 0, dqts: 306, htstatus: '2', endDate: '2028-12-31' });
    expect(none).toEqual({
      aeiId: E.none,
      sfstatus: '1',
      qfys: 0,
      sfdq: '0',
      dqts: null,
      htstatus: '3',
      endDate: null,
    });
    const [yearEnd] = await at('2029-01-01');
    expect(yearEnd).toMatchObject({ sfstatus: '0', qfys: 10, dqts: -1, sfdq: '1', htstatus: '3' });
    const [nextLeapYear] = await at('2029-02-28');
    expect(nextLeapYear).toMatchObject({ qfys: 12 });
  });

  it('termination removes unpaid future periods and keeps paid ones; deleted contracts do not count', async () => {
    const c = await contract(E.d, '2026-01-01', '2026-12-31', 1, '1200.00');
    await t.ownerQuery('update receivables set paid_fen = amount_fen where contract_id = $1 and period_no in (1, 9)', [
      c.id,
    ]);
    await scoped((tx) => terminateContract(tx, c, '测试', '2026-04-15'));
    const left = await t.ownerQuery<{ period_no: number; paid_fen: string }>(
      'select period_no, paid_fen from receivables where contract_id = $1 order by period_no',
      [c.id],
    );
    expect(left.map((r) => r.period_no)).toEqual([1, 2, 3, 4, 9]);
    const s = await scoped((tx) => contractStatusOf(tx, [E.d], '2026-05-01'));
    expect(s.get(E.d)).toMatchObject({ sfstatus: '0', qfys: 3, htstatus: '3', dqts: null });
    await t.ownerQuery("update contracts set htzt = '0' where id = $1", [c.id]);
    const after = await scoped((tx) => contractStatusOf(tx, [E.d], '2026-05-01'));
    expect(after.get(E.d)).toMatchObject({ sfstatus: '1', qfys: 0 });
  });
});
