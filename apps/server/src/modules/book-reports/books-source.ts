import {
  averageValue,
  BOOK_REPORT_MSG,
  citA200000,
  fillMsg,
  type OpenLoss,
  type QuarterEnds,
  quarterlyAverage,
  taxFenToYuan,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bookCloses, books } from '../../db/schema/index.js';
import type { BookRow } from './book-reports.service.js';
import { statementOf } from './book-reports.service.js';
import { STATEMENT_SETS } from './statement-lines.js';

/**
 * The filing plan's source "the books" (issue 16 point 7; docs/decisions-16-report.md "Books feed the
 * declarations"): a client's closed period gives the 财务报表 figures and the 企业所得税 prepayment's revenue,
 * cost and profit, cumulative for the year to the end of the return's 所属期.
 */

export interface BookStatementFigures {
  /** The period the figures are as at (the 所属期's last month). */
  period: string;
  /** 资产总计, 负债合计, 所有者权益合计 at the period's end (fen). */
  zcze: number;
  fzze: number;
  syzqy: number;
  /** 营业收入, 营业成本 (利润表 line 2), 利润总额, 净利润 — this year to the period's end (fen). */
  yysr: number;
  yycbLine: number;
  lrze: number;
  jlr: number;
  /** 资产总额 by quarter this year to the period (季初值, 季末值), for the 小型微利 季度平均值 */
  assetQuarters: QuarterEnds[];
  /** Losses of the five years before still open (from the books' closed Decembers) */
  losses: OpenLoss[];
}

const CIT_LOSS_YEARS = 5;

/**
 * The facts A200000 needs beyond the 利润表 (issue 28 point 5; docs/decisions/tax.md "CIT prepayment"):
 * 资产总额 at each quarter's start and end this year to `period` (季度平均值 = (季初值 + 季末值) ÷ 2,
 * 公告2023年第6号; a quarter before the books start is not counted, as for a business opened mid-year), and the
 * open losses of the five years before (企业所得税法第十八条) from the books' closed Decembers, each year's
 * 利润总额 offsetting the oldest open loss first. Years before the books start are unknown to them.
 */
export async function citFactsOf(
  tx: Queryable,
  book: BookRow,
  period: string,
): Promise<{ assetQuarters: QuarterEnds[]; losses: OpenLoss[] }> {
  const set = STATEMENT_SETS[book.standard];
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(5, 7));
  const assetQuarters: QuarterEnds[] = [];
  let start: number | null = null;
  for (let q = 1; q <= Math.ceil(month / 3); q++) {
    const endMonth = Math.min(q * 3, month);
    const end = `${year}-${String(endMonth).padStart(2, '0')}`;
    if (end < book.startPeriod) continue;
    const bs = await statementOf(tx, book, end, 'balance');
    // The first quarter counted starts at the year's opening (年初余额) column.
    const startValue = start ?? bs.b.get(set.totalAssets) ?? 0;
    const endValue = bs.a.get(set.totalAssets) ?? 0;
    assetQuarters.push({ start: startValue, end: endValue });
    start = endValue;
  }
  const open: OpenLoss[] = [];
  for (let y = year - CIT_LOSS_YEARS * 2; y < year; y++) {
    const dec = `${y}-12`;
    if (dec < book.startPeriod) continue;
    const [closed] = await tx
      .select({ period: bookCloses.period })
      .from(bookCloses)
      .where(and(eq(bookCloses.bookId, book.id), eq(bookCloses.period, dec)));
    if (!closed) continue;
    const profit = (await statementOf(tx, book, dec, 'income')).a.get(set.totalProfit) ?? 0;
    if (profit < 0) {
      open.push({ year: y, amount: -profit });
      continue;
    }
    let left = profit;
    for (const l of open) {
      if (left <= 0) break;
      if (l.year < y - CIT_LOSS_YEARS) continue;
      const take = Math.min(left, l.amount);
      l.amount -= take;
      left -= take;
    }
  }
  return { assetQuarters, losses: open.filter((l) => l.amount > 0 && l.year >= year - CIT_LOSS_YEARS) };
}

export type BooksAnswer = { ok: true; figures: BookStatementFigures } | { ok: false; msg: string };

/** The figures of a client's books as at `period`, when the client has books and that period is closed. */
export async function bookFiguresOf(
  tx: Queryable,
  agencyId: number,
  enterpriseId: number,
  period: string,
): Promise<BooksAnswer | null> {
  const [book] = await tx
    .select()
    .from(books)
    .where(and(eq(books.agencyId, agencyId), eq(books.enterpriseId, enterpriseId)));
  if (!book) return null;
  const [closed] = await tx
    .select({ period: bookCloses.period })
    .from(bookCloses)
    .where(and(eq(bookCloses.bookId, book.id), eq(bookCloses.period, period)));
  if (!closed) return { ok: false, msg: fillMsg(BOOK_REPORT_MSG.notClosed, { period }) };
  const set = STATEMENT_SETS[book.standard];
  const bs = await statementOf(tx, book, period, 'balance');
  const inc = await statementOf(tx, book, period, 'income');
  const facts = await citFactsOf(tx, book, period);
  return {
    ok: true,
    figures: {
      period,
      zcze: bs.a.get(set.totalAssets) ?? 0,
      fzze: bs.a.get(set.totalLiabilities) ?? 0,
      syzqy: bs.a.get(set.totalEquity) ?? 0,
      yysr: inc.a.get(1) ?? 0,
      yycbLine: inc.a.get(2) ?? 0,
      lrze: inc.a.get(set.totalProfit) ?? 0,
      jlr: inc.a.get(set.netProfit) ?? 0,
      ...facts,
    },
  };
}

/**
 * A return's figures (sbsj) from the books: 财务报表 (zcze, fzze, syzqy, yysr, jlr) or 企业所得税 A200000: 营业收入,
 * 营业成本 and 利润总额 each as on the 利润表 (never derived from one another), 弥补以前年度亏损 from the books'
 * open losses (citA200000's line 9), zcze the 资产总额 季度平均值. 从业人数 is left to the bureau, which fills it
 * from the IIT withholding it holds (the books keep no headcount).
 */
export function sbsjFromBooks(
  taxType: 'cwbb' | 'qysds',
  f: BookStatementFigures,
): { sbsj: Record<string, string>; srze: number } | null {
  if (taxType === 'cwbb')
    return {
      sbsj: {
        zcze: taxFenToYuan(f.zcze),
        fzze: taxFenToYuan(f.fzze),
        syzqy: taxFenToYuan(f.syzqy),
        yysr: taxFenToYuan(f.yysr),
        jlr: taxFenToYuan(f.jlr),
      },
      srze: f.yysr,
    };
  if (f.yysr < 0 || f.yycbLine < 0) return null;
  const lines = citA200000({
    periodEnd: `${f.period}-28`,
    revenue: f.yysr,
    cost: f.yycbLine,
    profit: f.lrze,
    losses: f.losses,
    prepaid: 0,
    staffQuarters: [],
    assetQuarters: f.assetQuarters,
  }).lines;
  const sbsj: Record<string, string> = {
    yysr: taxFenToYuan(f.yysr),
    yycb: taxFenToYuan(f.yycbLine),
    lrze: taxFenToYuan(f.lrze),
    zcze: taxFenToYuan(f.assetQuarters.length ? averageValue(quarterlyAverage(f.assetQuarters)) : f.zcze),
  };
  if (lines.l9 > 0) sbsj.mbyqndks = taxFenToYuan(lines.l9);
  return { sbsj, srze: f.yysr };
}

/** The books' answer per item of one client (财务报表 and 企业所得税 items only), one per 所属期 month. */
export async function bookAnswersFor(
  tx: Queryable,
  agencyId: number,
  enterpriseId: number,
  items: readonly { id: number; taxType: string; skssqz: string }[],
): Promise<Map<number, BooksAnswer | null>> {
  const out = new Map<number, BooksAnswer | null>();
  const byPeriod = new Map<string, BooksAnswer | null>();
  for (const it of items) {
    if (it.taxType !== 'cwbb' && it.taxType !== 'qysds') continue;
    const period = it.skssqz.slice(0, 7);
    if (!byPeriod.has(period)) byPeriod.set(period, await bookFiguresOf(tx, agencyId, enterpriseId, period));
    out.set(it.id, byPeriod.get(period) ?? null);
  }
  return out;
}
