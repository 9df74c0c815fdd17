import { describe, expect, it } from 'vitest';
import {
  arrangementDays,
  checkHolidayDays,
  duePeriod,
  FILING_DEADLINES_2026,
  filingDeadline,
  HOLIDAY_SEED_DAYS,
  holidayCalendar,
  SEED_HOLIDAYS,
  statutoryDeadline,
} from '../src/index.js';

// Issue 28 point 4: deadlines for every year. docs/decisions/tax.md "Deadlines".

describe('statutory rule (税收征收管理法实施细则 第一百零九条) reproduces the published tables', () => {
  it('2026: every month of 税总办征科函〔2025〕64号 from the 2026 arrangement (国务院办公厅 2025-11-04)', () => {
    for (const [month, published] of Object.entries(FILING_DEADLINES_2026))
      expect([month, statutoryDeadline(month, SEED_HOLIDAYS)]).toEqual([month, published]);
  });

  it('2024: the published months, with 调休 Sunday 2024-02-18 counted as a working day', () => {
    // 2024 arrangement (国办发明电〔2023〕7号) as the 2024 table states it: 2月10日至17日放假8天 → 2月23日;
    // 4月4日至6日 → 4月18日; 5月1日至5日 → 5月22日; 6月8日至10日 → 6月19日; 9月15日至17日 → 9月18日;
    // 10月1日至7日 → 10月24日; 12月15日为星期日 → 12月16日 (the 2024 table as quoted on crsrw.com).
    const cal2024 = holidayCalendar(
      arrangementDays({
        off: [
          { name: '春节', from: '2024-02-10', to: '2024-02-17' },
          { name: '清明节', from: '2024-04-04', to: '2024-04-06' },
          { name: '劳动节', from: '2024-05-01', to: '2024-05-05' },
          { name: '端午节', from: '2024-06-08', to: '2024-06-10' },
          { name: '中秋节', from: '2024-09-15', to: '2024-09-17' },
          { name: '国庆节', from: '2024-10-01', to: '2024-10-07' },
        ],
        work: [
          { name: '春节', day: '2024-02-04' },
          { name: '春节', day: '2024-02-18' },
          { name: '劳动节', day: '2024-04-28' },
          { name: '劳动节', day: '2024-05-11' },
          { name: '中秋节', day: '2024-09-14' },
          { name: '国庆节', day: '2024-09-29' },
          { name: '国庆节', day: '2024-10-12' },
        ],
      }),
    );
    const table: [string, string][] = [
      ['2024-01', '2024-01-15'],
      ['2024-02', '2024-02-23'],
      ['2024-03', '2024-03-15'],
      ['2024-04', '2024-04-18'],
      ['2024-05', '2024-05-22'],
      ['2024-06', '2024-06-19'],
      ['2024-07', '2024-07-15'],
      ['2024-08', '2024-08-15'],
      ['2024-09', '2024-09-18'],
      ['2024-10', '2024-10-24'],
      ['2024-11', '2024-11-15'],
      ['2024-12', '2024-12-16'],
    ];
    for (const [month, published] of table)
      expect([month, statutoryDeadline(month, cal2024)]).toEqual([month, published]);
    // Without the 调休 Sunday the February deadline would be 2-26: the working weekend matters.
    const noWork = holidayCalendar([...cal2024.values()].filter((d) => d.day !== '2024-02-18'));
    expect(statutoryDeadline('2024-02', noWork)).toBe('2024-02-26');
  });

  it('2025 (no published table used): computed from the seeded 2025 arrangement (国办发明电〔2024〕12号)', () => {
    const got = Array.from({ length: 12 }, (_, i) => filingDeadline(`2025-${String(i + 1).padStart(2, '0')}`));
    expect(got).toEqual([
      '2025-01-15', // 元旦 one day only (not 3 in a row): no extension
      '2025-02-20', // 春节 2-1..2-4 (4 days in the 1st-15th), the 15th a Saturday: 17,18,19,20
      '2025-03-17', // 15th a Saturday
      '2025-04-18', // 清明 4-4..4-6: 16,17,18
      '2025-05-22', // 劳动节 5-1..5-5: 16,19,20,21,22
      '2025-06-16', // 端午 5-31..6-2: only 2 days in June's first 15 → no extension; 15th a Sunday
      '2025-07-15',
      '2025-08-15',
      '2025-09-15',
      '2025-10-27', // 国庆、中秋 10-1..10-8 (8 days): 16,17,20,21,22,23,24,27
      '2025-11-17', // 15th a Saturday
      '2025-12-15',
    ]);
  });

  it('a year with no arrangement and no table (2027 until entered): the 15th past a weekend', () => {
    expect(filingDeadline('2027-08')).toBe('2027-08-16'); // 2027-08-15 is a Sunday
    expect(filingDeadline('2027-03')).toBe('2027-03-15');
    // Entering the 2027 arrangement changes it (data, not code): a made-up 3-day holiday 3-1..3-3 extends by 3.
    const cal = holidayCalendar(
      arrangementDays({ off: [{ name: '测试', from: '2027-03-01', to: '2027-03-03' }], work: [] }),
    );
    expect(filingDeadline('2027-03', FILING_DEADLINES_2026, cal)).toBe('2027-03-18');
  });
});

describe('annual items', () => {
  it('工商年报 ends on 6-30 whatever the weekday (企业信息公示暂行条例 第八条); 汇算 moves past rest days', () => {
    // 2024-06-30 is a Sunday
    expect(duePeriod({ type: 'gsnb', cycle: 'year' }, '2024-06')?.sbqx).toBe('2024-06-30');
    expect(duePeriod({ type: 'cbj', cycle: 'year' }, '2024-06')?.sbqx).toBe('2024-07-01');
    // 2025-05-31 is a Saturday and 端午 runs 5-31..6-2: the 汇算 deadline is 6-3
    expect(duePeriod({ type: 'qysdsnd', cycle: 'year' }, '2025-05')?.sbqx).toBe('2025-06-03');
  });
});

describe('the seed and the operator data', () => {
  it('seeds the 2025 and 2026 arrangements day by day', () => {
    expect(HOLIDAY_SEED_DAYS.filter((d) => d.day.startsWith('2026-02'))).toEqual([
      { day: '2026-02-14', kind: 'work', name: '春节' },
      ...Array.from({ length: 9 }, (_, i) => ({ day: `2026-02-${15 + i}`, kind: 'off', name: '春节' })),
      { day: '2026-02-28', kind: 'work', name: '春节' },
    ]);
    expect(HOLIDAY_SEED_DAYS.filter((d) => d.kind === 'off' && d.day.startsWith('2025')).length).toBe(
      1 + 8 + 3 + 5 + 3 + 8,
    );
  });

  it('refuses days of another year, duplicates and a 调休 day that is not a weekend', () => {
    expect(checkHolidayDays(2027, [{ day: '2026-01-01', kind: 'off', name: '元旦' }])).toBe(
      '日期2026-01-01不在2027年内',
    );
    expect(
      checkHolidayDays(2027, [
        { day: '2027-01-01', kind: 'off', name: '元旦' },
        { day: '2027-01-01', kind: 'off', name: '元旦' },
      ]),
    ).toBe('日期2027-01-01重复');
    expect(checkHolidayDays(2027, [{ day: '2027-01-04', kind: 'work', name: '元旦' }])).toBe(
      '调休上班日2027-01-04不是周末',
    );
    expect(checkHolidayDays(2027, [{ day: '2027-01-02', kind: 'work', name: '元旦' }])).toBeNull();
  });
});
