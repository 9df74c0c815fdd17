import { changeFlagged, iitEstimate, planFigures, SBSJ_MSG, validateSbsj } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { iitFigures, salesPeriods } from '../src/modules/filing-batch/filing-batch.sources.js';

/** The plan's computed figures against hand-worked examples (fen). */
describe('申报计划 figures', () => {
  it('small-scale VAT for a quarter: 300,000.00 on 普票 is exempt, one fen more is all taxed at 1%', () => {
    // ≤ 300,000 a quarter (not "below"): nothing to pay.
    expect(planFigures('zzs', '1', 'quarter', { ppxse: '300000.00', zpxse: '0.00' })).toEqual({
      srze: 30_000_000,
      ybtse: 0,
    });
    // 300,000.01: VAT = round(30,000,001 × 1%) = 300,000 fen (3,000.00); surtaxes halved at 市区 rates:
    // 城建 round(300,000 × 7% / 2) = 10,500, 教育 4,500, 地方教育 3,000 → 18,000; total 318,000 (3,180.00).
    expect(planFigures('zzs', '1', 'quarter', { ppxse: '300000.01' })).toEqual({ srze: 30_000_001, ybtse: 318_000 });
  });

  it('small-scale VAT under the threshold still pays on 专票 sales', () => {
    // 200,000 普票 + 50,000 专票 = 250,000 ≤ 300,000: 普票 exempt, 专票 taxed: VAT 500.00;
    // surtaxes halved: 城建 17.50; 教育费附加 and 地方教育附加 not charged — the quarter's sales 250,000 ≤ 30万
    // (财税〔2016〕12号, issue 28 point 3; before it this case charged 7.50 + 5.00); total 517.50.
    expect(planFigures('zzs', '1', 'quarter', { ppxse: '200000.00', zpxse: '50000.00' })).toEqual({
      srze: 25_000_000,
      ybtse: 51_750,
    });
  });

  it('general VAT: output 13% less the input typed, surtaxes at full rates', () => {
    // 100,000 × 13% = 13,000; − 8,000 input = 5,000; surtaxes 7% + 3% + 2% = 600; total 5,600.00.
    expect(planFigures('zzs', '0', 'month', { xse13: '100000.01', jxse: '8000.00' })).toEqual({
      srze: 10_000_001,
      ybtse: 560_000,
    });
    // At 100,000.00 a month the general taxpayer is within 财税〔2016〕12号 too (issue 28 point 3): 城建 350 only.
    expect(planFigures('zzs', '0', 'month', { xse13: '100000.00', jxse: '8000.00' })).toEqual({
      srze: 10_000_000,
      ybtse: 535_000,
    });
  });

  it('stamp duty on the period sales (买卖合同 0.3‰), halved for small-scale taxpayers', () => {
    // 1,000,000 × 0.3‰ = 300.00, halved 150.00.
    expect(planFigures('yhs', '1', 'quarter', { ht: [{ htlx: 'mmht', je: '1000000.00' }] })).toEqual({
      srze: 100_000_000,
      ybtse: 15_000,
    });
    expect(planFigures('yhs', '0', 'quarter', { ht: [{ htlx: 'mmht', je: '1000000.00' }] }).ybtse).toBe(30_000);
  });

  it('IIT estimate by 累计预扣法 for September, the copied wages assumed for every month employed', () => {
    // A: employed all year, 15,000 a month, 三险一金 1,575, 专项附加 2,000 → taxable 6,425 a month.
    // Jan-Sep 57,825 at 10% − 2,520 = 3,262.50; Jan-Aug 51,400 → 2,620.00; September 642.50.
    // B: employed from 2026-07-15, 8,000, 三险一金 840 → 2,160 a month; Jul-Sep 6,480 × 3% = 194.40,
    // Jul-Aug 4,320 × 3% = 129.60; September 64.80. Together 707.30 on 23,000.00 of wages.
    const a = { zjhm: 'A', rzrq: '2020-01-01', sre: 1_500_000, sxyj: 157_500, zxfjkc: 200_000, qtkc: 0 };
    const b = { zjhm: 'B', rzrq: '2026-07-15', sre: 800_000, sxyj: 84_000, zxfjkc: 0, qtkc: 0 };
    expect(iitEstimate([a], '2026-09')).toEqual({ srze: 1_500_000, ybtse: 64_250 });
    expect(iitEstimate([b], '2026-09')).toEqual({ srze: 800_000, ybtse: 6_480 });
    expect(iitEstimate([a, b], '2026-09')).toEqual({ srze: 2_300_000, ybtse: 70_730 });
  });

  it('IIT copy: persons of the period with the copied wages; who came, who left, whose wages differ', () => {
    const e = (zjhm: string, xm: string, sre: string) => ({
      zjhm,
      zjlx: '居民身份证',
      xm,
      rzrq: '2020-01-01',
      ryzt: '正常',
      sre,
      sxyj: '0.00',
      zxfjkc: '0.00',
      zxfjkcmx: [],
      qtkc: '0.00',
    });
    const copied = { ssq: '2026-08', list: [e('1', '甲', '10000.00'), e('2', '乙', '9000.00')] };
    const period = { list: [e('1', '甲', '11000.00'), e('3', '丙', '7000.00')] };
    const r = iitFigures(copied, period, '2026-09');
    expect(r.sbsj.ry.map((p) => [p.zjhm, p.sre])).toEqual([
      ['1', '10000.00'],
      ['3', '7000.00'],
    ]);
    expect(r.diff).toMatchObject({
      fromSsq: '2026-08',
      rs: 2,
      fromRs: 2,
      added: [{ zjhm: '3', xm: '丙' }],
      removed: [{ zjhm: '2', xm: '乙' }],
      changed: [{ zjhm: '1', from: '10000.00', to: '11000.00' }],
    });
    expect(r.srze).toBe(1_700_000);
  });

  it('a general taxpayer quarter is read month by month (its invoices are monthly)', () => {
    expect(salesPeriods('0', '2026-07-01', '2026-09-30')).toEqual([
      ['2026-07-01', '2026-07-31'],
      ['2026-08-01', '2026-08-31'],
      ['2026-09-01', '2026-09-30'],
    ]);
    expect(salesPeriods('1', '2026-07-01', '2026-09-30')).toEqual([['2026-07-01', '2026-09-30']]);
  });

  it('flags a change above the threshold, and anything from nothing', () => {
    expect(changeFlagged(13_000, 10_000, 30)).toBe(false);
    expect(changeFlagged(13_001, 10_000, 30)).toBe(true);
    expect(changeFlagged(6_999, 10_000, 30)).toBe(true);
    expect(changeFlagged(1, 0, 30)).toBe(true);
    expect(changeFlagged(0, 0, 30)).toBe(false);
    expect(changeFlagged(5, null, 30)).toBe(false);
  });

  it('checks typed figures per type with a message a user understands', () => {
    expect(validateSbsj('zzs', '0', { xse13: '1000.00' })).toEqual({ ok: false, msg: '请录入本期进项税额' });
    expect(validateSbsj('zzs', '1', { ppxse: '12.345' })).toEqual({
      ok: false,
      msg: `普票及未开票销售额（1%）：${SBSJ_MSG.moneyNonNegative}`,
    });
    expect(validateSbsj('zzs', '1', {})).toEqual({ ok: false, msg: SBSJ_MSG.vatNoSales });
    // A200000: 利润总额 is the 利润表's own line (after 税金及附加, 期间费用, 营业外收支), not 营业收入 − 营业成本
    // (国家税务总局公告2021年第3号; issue 28 point 5); lines 4-9 are checked as amounts.
    expect(validateSbsj('qysds', '1', { yysr: '100.00', yycb: '60.00', lrze: '30.00' }).ok).toBe(true);
    expect(validateSbsj('qysds', '1', { yysr: '100.00', yycb: '60.00', lrze: '30.00', mbyqndks: '-1.00' })).toEqual({
      ok: false,
      msg: `弥补以前年度亏损：${SBSJ_MSG.moneyNonNegative}`,
    });
    expect(validateSbsj('qysds', '1', { yysr: '100.00', yycb: '160.00', lrze: '-60.00' }).ok).toBe(true);
    expect(validateSbsj('cwbb', '1', { zcze: '100', fzze: '40', syzqy: '50', yysr: '0', jlr: '0' })).toEqual({
      ok: false,
      msg: SBSJ_MSG.balance,
    });
    expect(validateSbsj('yhs', '1', { ht: [{ htlx: 'xxht', je: '1.00' }] })).toEqual({
      ok: false,
      msg: SBSJ_MSG.stampKind('xxht'),
    });
    expect(
      validateSbsj('grsds', '1', {
        ry: [
          { zjhm: '1', sre: '1.00' },
          { zjhm: '1', sre: '2.00' },
        ],
      }),
    ).toEqual({
      ok: false,
      msg: SBSJ_MSG.iitDuplicate('1'),
    });
    expect(validateSbsj('zzs', '1', { ppxse: '1.00', foo: 1 })).toEqual({ ok: false, msg: SBSJ_MSG.unknownField });
  });
});
