import { idCardCheckChar } from '@dzy/shared';
import { basicDeduction, cumTax } from './law.js';
import { areaOf, hash, mixSeed, personName, rng, seeded, type Taxpayer } from './taxpayers.js';

/**
 * The taxpayer's employees (人员信息) and their wages, deterministic per tax number: used by the filing
 * model (the IIT returns of the past, computed from these wages) and by the bureau's ryxx and sbtj.
 */

const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pad2 = (n: number) => String(n).padStart(2, '0');

export interface SimEmployee {
  /** 证件号码 (居民身份证) */
  zjhm: string;
  xm: string;
  /** 任职受雇日期 */
  rzrq: string;
  /** The 2019 base wage, fen; later years get a raise. */
  base: number;
  /** 住房公积金 rate, ‰ (the employee's part). */
  gjjPermille: number;
  /** 专项附加扣除 a month, by item, fen. */
  zxfjkcmx: { xm: string; je: number }[];
  /** Seed of the monthly draws. */
  seed: number;
}

/** `staff` employees earning around `wage` (fen a month). */
export function staffOf(t: Taxpayer, scale: { staff: number; wage: number }): SimEmployee[] {
  const r = rng(`staff:${t.qysh}`);
  const area = areaOf(t.qysh);
  const from = t.info.djrq > '2019-01-01' ? t.info.djrq : '2019-01-01';
  return Array.from({ length: scale.staff }, (_, i) => {
    const first17 = `${area}${int(r, 1965, 2002)}${pad2(int(r, 1, 12))}${pad2(int(r, 1, 28))}${String(100 + i).slice(-3)}`;
    // Most were hired before 2019 (or with the company); some later, none after 2026-10.
    const later = r() < 0.35;
    const y = int(r, Number(from.slice(0, 4)), 2026);
    const hired = later ? `${y}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))}` : from;
    const rzrq = hired < from || hired > '2026-10-01' ? from : hired;
    const items: { xm: string; je: number }[] = [];
    if (r() < 0.45) items.push({ xm: '子女教育', je: 200_000 * int(r, 1, 2) });
    if (r() < 0.4) items.push({ xm: '赡养老人', je: r() < 0.5 ? 300_000 : 150_000 });
    const h = r();
    if (h < 0.3) items.push({ xm: '住房贷款利息', je: 100_000 });
    else if (h < 0.5) items.push({ xm: '住房租金', je: [150_000, 110_000, 80_000][int(r, 0, 2)] ?? 150_000 });
    if (r() < 0.1) items.push({ xm: '继续教育', je: 40_000 });
    const zjhm = first17 + idCardCheckChar(first17);
    return {
      zjhm,
      xm: personName(r),
      rzrq,
      // 60%-250% of the company's typical wage, in whole hundreds of yuan.
      base: Math.floor((scale.wage * int(r, 60, 250)) / 100 / 10_000) * 10_000,
      gjjPermille: int(r, 5, 12) * 10,
      zxfjkcmx: items,
      seed: hash(zjhm),
    };
  });
}

/** Employed in a month (hired on or before its last day). */
export const employedIn = (e: SimEmployee, month: string) => e.rzrq.slice(0, 7) <= month;

/** The base wage of a year: +4% a year from 2019, whole yuan. */
const yearBase = (e: SimEmployee, year: number) =>
  Math.floor((e.base * (100 + 4 * Math.max(0, year - 2019))) / 100 / 100) * 100;

/** One month's wage row of an employee, fen: wage (about a quarter of months +1-15%), 三险一金, 专项附加. */
export const wageOf = (e: SimEmployee, month: string) =>
  wageAt(e, Number(month.slice(0, 4)), Number(month.slice(5, 7)));

function wageAt(e: SimEmployee, year: number, month: number) {
  const base = yearBase(e, year);
  const g = seeded(mixSeed(e.seed, 7, year * 12 + month - 1));
  const extra = g() < 0.25 ? Math.floor((base * int(g, 1, 15)) / 100 / 100) * 100 : 0;
  // 三险一金: 养老 8% + 医疗 2% + 失业 0.5% + 公积金, on the year's base.
  const sxyj = Math.floor((base * (105 + e.gjjPermille)) / 1000);
  let zxfjkc = 0;
  for (const x of e.zxfjkcmx) zxfjkc += x.je;
  return { sre: base + extra, sxyj, zxfjkc };
}

/**
 * The IIT reports of the years `fromYear`-`toYear` from these wages: per month (YYYY-MM) the wages paid
 * (srze) and the tax withheld by 累计预扣法 (ybtse), fen — the bureau's own tables (./law.ts), in a
 * lean loop (the filing model builds this for every book).
 */
export function iitHistory(staff: readonly SimEmployee[], fromYear: number, toYear: number) {
  const out = new Map<string, { srze: number; ybtse: number }>();
  for (let y = fromYear; y <= toYear; y++) {
    const srze = new Array<number>(13).fill(0);
    const ybtse = new Array<number>(13).fill(0);
    for (const e of staff) {
      const hy = Number(e.rzrq.slice(0, 4));
      if (hy > y) continue;
      const first = hy < y ? 1 : Number(e.rzrq.slice(5, 7));
      let cumIncome = 0;
      let cumDeductions = 0;
      let withheld = 0;
      for (let m = first; m <= 12; m++) {
        const w = wageAt(e, y, m);
        cumIncome += w.sre;
        cumDeductions += w.sxyj + w.zxfjkc;
        const taxable = cumIncome - basicDeduction('standard', m - first + 1, m) - cumDeductions;
        const due = cumTax(taxable > 0 ? taxable : 0);
        const tax = due > withheld ? due - withheld : 0;
        withheld += tax;
        srze[m] = (srze[m] ?? 0) + w.sre;
        ybtse[m] = (ybtse[m] ?? 0) + tax;
      }
    }
    for (let m = 1; m <= 12; m++) out.set(`${y}-${pad2(m)}`, { srze: srze[m] ?? 0, ybtse: ybtse[m] ?? 0 });
  }
  return out;
}
