import {
  CODE,
  calendarCall,
  FILING_DEADLINES_2026,
  HOLIDAY_SEED_DAYS,
  type HolidayDay,
  listHolidaysCall,
  saveHolidaysCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { expectNoPermission } from './helpers.js';

// Issue 28 point 4: the holiday arrangement is data the platform operator enters (migration 0043), and the
// filing deadlines the product shows follow it. docs/decisions/tax.md "Deadlines".
const OPERATOR = '13600000000';
const ADMIN = '13800000000';
let t: TestApp;
const c = { op: '', admin: '' };

beforeAll(async () => {
  t = await startTestApp();
  c.op = await t.login(OPERATOR);
  c.admin = await t.login(ADMIN);
}, 900_000);
afterAll(() => t?.close());

type Listed = { year: number; days: HolidayDay[]; deadlines: Record<string, string> };
const list = (year: number, cookie = c.op) => t.call<Listed>(listHolidaysCall.path, { year }, cookie);

describe('holiday arrangement (国务院办公厅通知) as operator data', () => {
  it('is seeded with 2025 and 2026; the 2026 deadlines are the published table', async () => {
    for (const year of [2025, 2026]) {
      const r = await list(year);
      expect(r.code, r.msg).toBe(CODE.OK);
      expect(r.data.days).toEqual(HOLIDAY_SEED_DAYS.filter((d) => d.day.startsWith(`${year}-`)));
    }
    const r = await list(2026);
    expect(r.data.deadlines).toEqual(FILING_DEADLINES_2026);
    // 2025 has no published table in the product: the statutory rule over the seeded arrangement.
    expect((await list(2025)).data.deadlines['2025-10']).toBe('2025-10-27');
  });

  it('an arrangement entered for 2027 moves the deadlines the roster calendar shows', async () => {
    // Before: no 2027 arrangement → the 15th past a weekend (2027-01-15 is a Friday).
    const before = await t.call<{ deadlines: Record<string, string> }>(
      calendarCall.path,
      { filingMonth: '2027-01' },
      c.admin,
    );
    expect(before.code, before.msg).toBe(CODE.OK);
    expect(before.data.deadlines).toEqual({ '2027-01': '2027-01-15', '2027-02': '2027-02-15' });
    // The operator enters a 3-day 元旦 (test data, not the real 2027 notice): the January deadline is extended by
    // 3 working days (实施细则第一百零九条): 18, 19, 20.
    const days: HolidayDay[] = [
      { day: '2027-01-01', kind: 'off', name: '元旦' },
      { day: '2027-01-02', kind: 'off', name: '元旦' },
      { day: '2027-01-03', kind: 'off', name: '元旦' },
    ];
    const saved = await t.call<{ count: number }>(saveHolidaysCall.path, { year: 2027, days }, c.op);
    expect(saved.code, saved.msg).toBe(CODE.OK);
    expect(saved.data.count).toBe(3);
    const after = await t.call<{ deadlines: Record<string, string> }>(
      calendarCall.path,
      { filingMonth: '2027-01' },
      c.admin,
    );
    expect(after.data.deadlines).toEqual({ '2027-01': '2027-01-20', '2027-02': '2027-02-15' });
    expect((await list(2027)).data).toMatchObject({ days, deadlines: { '2027-01': '2027-01-20' } });
    // Replacing the year with nothing takes it back to the weekend rule.
    await t.call(saveHolidaysCall.path, { year: 2027, days: [] }, c.op);
    expect((await list(2027)).data.deadlines['2027-01']).toBe('2027-01-15');
  });

  it('refuses a day outside the year and a 调休 day on a weekday, with the reason; agencies may not edit', async () => {
    const wrong = await t.call(
      saveHolidaysCall.path,
      { year: 2027, days: [{ day: '2026-12-31', kind: 'off', name: '元旦' }] },
      c.op,
    );
    expect(wrong.code).toBe(CODE.BAD_REQUEST);
    expect(wrong.msg).toBe('日期2026-12-31不在2027年内');
    const work = await t.call(
      saveHolidaysCall.path,
      { year: 2027, days: [{ day: '2027-01-04', kind: 'work', name: '元旦' }] },
      c.op,
    );
    expect(work.msg).toBe('调休上班日2027-01-04不是周末');
    expectNoPermission(await t.call(saveHolidaysCall.path, { year: 2027, days: [] }, c.admin));
    expectNoPermission(await list(2026, c.admin));
    // Nothing of the refused saves was written.
    expect((await list(2027)).data.days).toEqual([]);
  });
});
