import { BOOK_REPORT_MSG, fillMsg, taxFenToYuan } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bookCloses, books } from '../../db/schema/index.js';
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
    },
  };
}

/**
 * A return's figures (sbsj) from the books: 财务报表 (zcze, fzze, syzqy, yysr, jlr) or 企业所得税 (yysr,
 * yycb, lrze, zcze). The bureau's prepayment form checks 利润总额 = 营业收入 − 营业成本, so yycb carries
 * every deduction (营业收入 − 利润总额); a profit above revenue cannot be put that way (typed instead).
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
  const yycb = f.yysr - f.lrze;
  if (yycb < 0 || f.yysr < 0) return null;
  return {
    sbsj: {
      yysr: taxFenToYuan(f.yysr),
      yycb: taxFenToYuan(yycb),
      lrze: taxFenToYuan(f.lrze),
      zcze: taxFenToYuan(f.zcze),
    },
    srze: f.yysr,
  };
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
