import { type PdfPage, renderPdf } from '@dzy/pdf';
import {
  BOOK_PRINT_MSG,
  BOOK_PRINT_QUEUE,
  fillMsg,
  type PrintItem,
  type PrintLayout,
  type PrintRun,
  type Voucher,
} from '@dzy/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { bookPrintClients, bookRuns, books, enterprises, users, vouchers } from '../../db/schema/index.js';
import { AppError, isConnectionLost } from '../../plugins/errors.js';
import { type JobContext, type JobHandler, RetryableError } from '../../plugins/jobs.js';
import { ledgerTable, statementTable } from '../book-reports/book-reports.files.js';
import type { ScopedBook } from '../book-reports/book-reports.service.js';
import { trialBalance } from '../book-reports/book-reports.service.js';
import { tablePages } from '../book-reports/report-pdf.js';
import { vouchersById } from '../books/books.repo.js';
import { voucherPages } from './voucher-pdf.js';

export type BookRunRow = typeof bookRuns.$inferSelect;

/** A print run's choices, kept in book_runs.options. */
export interface PrintOptions {
  from: string;
  to: string;
  items: PrintItem[];
  layout: PrintLayout;
}

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Clients of one agency printed at once (and workers per process): rendering is CPU work on 2 cores. */
export const printConcurrency = () => envInt('BOOK_PRINT_CONCURRENCY', 1);
/** A client's vouchers printed at most (a larger range is refused with a reason: narrow it). */
export const PRINT_MAX_VOUCHERS = 5000;

const monthsOf = (from: string, to: string) => {
  const out: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  for (;;) {
    const p = `${y}-${String(m).padStart(2, '0')}`;
    if (p > to) break;
    out.push(p);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
};

export interface ClientPrint {
  state: 'ok' | 'empty' | 'failed';
  msg: string;
  pages: number;
  pdf: Buffer | null;
}

/** One client's PDF: its vouchers, ledgers and statements over the range, in that order. */
export async function renderClient(
  tx: Tx,
  agencyId: number,
  enterpriseId: number,
  o: PrintOptions,
): Promise<ClientPrint & { bookId: number | null }> {
  const [row] = await tx
    .select({ book: books, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(and(eq(books.agencyId, agencyId), eq(books.enterpriseId, enterpriseId)));
  if (!row) return { bookId: null, state: 'empty', msg: BOOK_PRINT_MSG.noBook, pages: 0, pdf: null };
  const book: ScopedBook = { ...row.book, qymc: row.qymc, qysh: row.qysh };
  const done = (r: ClientPrint) => ({ ...r, bookId: book.id });
  if (o.to < book.startPeriod)
    return done({
      state: 'empty',
      msg: fillMsg(BOOK_PRINT_MSG.beforeStart, { start: book.startPeriod }),
      pages: 0,
      pdf: null,
    });
  const from = o.from < book.startPeriod ? book.startPeriod : o.from;
  const { to } = o;
  const want = new Set(o.items);
  const notes: string[] = [];
  const pages: PdfPage[] = [];
  try {
    const ids = await tx
      .select({ id: vouchers.id })
      .from(vouchers)
      .where(
        and(
          eq(vouchers.agencyId, agencyId),
          eq(vouchers.bookId, book.id),
          sql`${vouchers.period} between ${from} and ${to}`,
        ),
      )
      .orderBy(asc(vouchers.period), asc(vouchers.word), asc(vouchers.number), asc(vouchers.id))
      .limit(PRINT_MAX_VOUCHERS + 1);
    const hasVouchers = ids.length > 0;
    if (want.has('vouchers')) {
      if (ids.length > PRINT_MAX_VOUCHERS)
        return done({
          state: 'failed',
          msg: `凭证超过${PRINT_MAX_VOUCHERS}张，请缩小期间`,
          pages: 0,
          pdf: null,
        });
      if (!hasVouchers && want.size === 1)
        return done({ state: 'empty', msg: BOOK_PRINT_MSG.noVouchers, pages: 0, pdf: null });
      if (!hasVouchers) notes.push(BOOK_PRINT_MSG.noVouchersPrinted);
      const list: Voucher[] = [];
      for (let i = 0; i < ids.length; i += 200)
        list.push(
          ...(await vouchersById(
            tx,
            agencyId,
            ids.slice(i, i + 200).map((r) => r.id),
          )),
        );
      pages.push(...voucherPages(list, book.qymc, o.layout));
    }
    const ledger = (kind: 'balances' | 'general' | 'detail', codes: string[] = []) =>
      ledgerTable(tx, book, { bookId: book.id, from, to, kind, format: 'pdf', codes, maxLevel: 6 });
    if (want.has('balances')) pages.push(...tablePages([await ledger('balances')]));
    if (want.has('general')) pages.push(...tablePages([await ledger('general')]));
    if (want.has('detail')) {
      // 明细账: each first-level account that moved in the range, on its own pages.
      const tb = await trialBalance(tx, book, { from, to, maxLevel: 1, showZero: false });
      for (const r of tb.rows) {
        if (r.periodDebit === 0 && r.periodCredit === 0) continue;
        pages.push(...tablePages([await ledger('detail', [r.code])]));
      }
    }
    const kinds = (['balance', 'income', 'cashflow'] as const).filter((k) => want.has(k));
    if (kinds.length > 0) {
      if (book.standard !== 'small2013') notes.push(BOOK_PRINT_MSG.statementsRefused);
      else
        for (const period of monthsOf(from, to))
          for (const k of kinds) pages.push(...tablePages([await statementTable(tx, book, period, k)]));
    }
  } catch (err) {
    // A refusal of the reports (明细账 too long, a range they refuse) is the client's reason, not a crash.
    if (err instanceof AppError) return done({ state: 'failed', msg: err.message, pages: 0, pdf: null });
    throw err;
  }
  if (pages.length === 0) return done({ state: 'empty', msg: BOOK_PRINT_MSG.noVouchers, pages: 0, pdf: null });
  notes.unshift(fillMsg(BOOK_PRINT_MSG.printed, { pages: pages.length }));
  return done({
    state: 'ok',
    msg: notes.join('；'),
    pages: pages.length,
    pdf: await renderPdf(pages, { title: book.qymc }),
  });
}

const optionsOf = (r: BookRunRow) => r.options as unknown as PrintOptions;

/** The download's name: the client's PDF when one was printed, else a zip of them. */
export function downloadName(r: BookRunRow, okNum: number, onlyQymc: string) {
  const o = optionsOf(r);
  const span = o.from === o.to ? o.from : `${o.from}至${o.to}`;
  if (okNum === 0) return '';
  return okNum === 1 ? `${onlyQymc}_账务打印_${span}.pdf` : `账务打印_${span}_${okNum}户.zip`;
}

/** Runs with their progress, counted from their clients' rows. */
export async function runsWithRate(tx: Queryable, runs: readonly BookRunRow[]): Promise<PrintRun[]> {
  if (runs.length === 0) return [];
  const ids = runs.map((r) => r.id);
  const counts = await tx
    .select({
      runId: bookPrintClients.runId,
      ok: sql<number>`count(*) filter (where ${bookPrintClients.state} = 'ok')`.mapWith(Number),
      empty: sql<number>`count(*) filter (where ${bookPrintClients.state} in ('empty', 'skipped'))`.mapWith(Number),
      bad: sql<number>`count(*) filter (where ${bookPrintClients.state} = 'failed')`.mapWith(Number),
    })
    .from(bookPrintClients)
    .where(inArray(bookPrintClients.runId, ids))
    .groupBy(bookPrintClients.runId);
  const names = await tx
    .select({ id: users.id, name: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone})` })
    .from(users)
    .where(inArray(users.id, [...new Set(runs.map((r) => r.userId))]));
  const byRun = new Map(counts.map((c) => [c.runId, c]));
  const byUser = new Map(names.map((n) => [n.id, n.name]));
  return runs.map((r) => {
    const c = byRun.get(r.id);
    const o = optionsOf(r);
    const okNum = c?.ok ?? 0;
    const emptyNum = c?.empty ?? 0;
    const failNum = c?.bad ?? 0;
    const completeNum = okNum + emptyNum + failNum;
    return {
      id: r.id,
      runId: String(r.id),
      from: o.from,
      to: o.to,
      items: o.items,
      layout: o.layout,
      state: r.state,
      totalNum: r.totalNum,
      okNum,
      emptyNum,
      failNum,
      completeNum,
      rate: r.totalNum === 0 ? 100 : Math.floor((completeNum * 100) / r.totalNum),
      fileName: r.state === 'done' ? r.fileName : '',
      createdAt: r.createdAt.toISOString(),
      userName: byUser.get(r.userId) ?? '',
    };
  });
}

/** Ends a run once no client is left (naming its download); null while clients remain or when it had ended. */
export async function finishIfDone(tx: Queryable, runId: number): Promise<BookRunRow | null> {
  const [pending] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(bookPrintClients)
    .where(and(eq(bookPrintClients.runId, runId), sql`${bookPrintClients.state} is null`));
  if ((pending?.n ?? 0) > 0) return null;
  const ok = await tx
    .select({ qymc: enterprises.qymc })
    .from(bookPrintClients)
    .innerJoin(enterprises, eq(enterprises.id, bookPrintClients.enterpriseId))
    .where(and(eq(bookPrintClients.runId, runId), eq(bookPrintClients.state, 'ok')))
    .limit(2);
  const [run] = await tx.select().from(bookRuns).where(eq(bookRuns.id, runId));
  if (run?.state !== 'running') return null;
  const [count] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(bookPrintClients)
    .where(and(eq(bookPrintClients.runId, runId), eq(bookPrintClients.state, 'ok')));
  const [r] = await tx
    .update(bookRuns)
    .set({ state: 'done', finishedAt: new Date(), fileName: downloadName(run, count?.n ?? 0, ok[0]?.qymc ?? '') })
    .where(and(eq(bookRuns.id, runId), eq(bookRuns.state, 'running')))
    .returning();
  return r ?? null;
}

/**
 * One client of a print run: its PDF and its outcome row written with the job's done mark in ONE
 * transaction — a worker that dies mid-way leaves nothing, and the job taken again after its lease prints
 * the client once; a client whose outcome is recorded is skipped.
 */
export const bookPrintJob: JobHandler = {
  queue: BOOK_PRINT_QUEUE,
  get perAgencyCap() {
    return printConcurrency();
  },
  get workers() {
    return printConcurrency();
  },
  get leaseSeconds() {
    return envInt('BOOK_PRINT_LEASE_SECONDS', 30);
  },
  maxAttempts: 3,
  async run(ctx) {
    const p = ctx.job.payload as { runId: number; enterpriseId: number; userId?: number };
    try {
      return await printOne(ctx, p);
    } catch (err) {
      // A lost connection is retried by the runner; anything else is this client's failure, recorded so
      // the run still ends (with 失败 and the reason) instead of waiting for a client that never comes.
      if (isConnectionLost(err) || err instanceof RetryableError) throw err;
      const msg = `${BOOK_PRINT_MSG.failed}：${err instanceof Error ? err.message.slice(0, 200) : String(err)}`;
      await ctx.inTx(async (tx) => {
        await tx
          .update(bookPrintClients)
          .set({ state: 'failed', msg, pages: 0, pdf: null, updatedAt: new Date() })
          .where(
            and(
              eq(bookPrintClients.runId, p.runId),
              eq(bookPrintClients.enterpriseId, p.enterpriseId),
              sql`${bookPrintClients.state} is null`,
            ),
          );
        await ctx.doneIn(tx, { state: 'failed' });
      });
      await ctx.inTx((tx) => finishIfDone(tx, p.runId));
      return { state: 'failed' };
    }
  },
};

async function printOne(ctx: JobContext, p: { runId: number; enterpriseId: number; userId?: number }) {
  const outcome = await ctx.inTx(async (tx) => {
    const [row] = await tx
      .select({ run: bookRuns, state: bookPrintClients.state })
      .from(bookPrintClients)
      .innerJoin(bookRuns, eq(bookRuns.id, bookPrintClients.runId))
      .where(and(eq(bookPrintClients.runId, p.runId), eq(bookPrintClients.enterpriseId, p.enterpriseId)))
      .for('update', { of: bookPrintClients });
    if (row?.run.state !== 'running' || row.state !== null) return null;
    const res = await renderClient(tx, row.run.agencyId, p.enterpriseId, optionsOf(row.run));
    await tx
      .update(bookPrintClients)
      .set({
        state: res.state,
        msg: res.msg,
        pages: res.pages,
        pdf: res.pdf,
        bookId: res.bookId,
        updatedAt: new Date(),
      })
      .where(and(eq(bookPrintClients.runId, p.runId), eq(bookPrintClients.enterpriseId, p.enterpriseId)));
    await ctx.doneIn(tx, { state: res.state, pages: res.pages });
    return res.state;
  }, p.userId);
  await ctx.inTx((tx) => finishIfDone(tx, p.runId));
  return outcome ? { state: outcome } : { skipped: true };
}
