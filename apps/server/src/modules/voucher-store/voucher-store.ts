import {
  CODE,
  fenToYuanText,
  fillMsg,
  periodOf,
  VOUCHER_MSG,
  type VoucherLineDraft,
  voucherLinesProblem,
} from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { AuxKind, VoucherSource } from '../../db/schema/books.js';
import {
  bookAccounts,
  bookAuxItems,
  bookBalances,
  bookOpenings,
  books,
  voucherLines,
  vouchers,
} from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';

/**
 * The one writer of vouchers (issue 16): every module that makes, changes or removes a voucher (entry, copy,
 * import, proposals from invoices and payroll, the period-end transfers) goes through here, so that
 *   - a voucher always balances and sits on open periods and leaf accounts of its own book,
 *   - numbers run 1, 2, 3 … per book, period and word without gaps (a removal renumbers those after it),
 *   - book_balances (per account, auxiliary item and period) always equals the sum of the lines,
 * all in the caller's transaction, under a lock on the book row so two writers of one book take turns.
 */

export type BookRow = typeof books.$inferSelect;
export type VoucherRow = typeof vouchers.$inferSelect;

export interface StoreCtx {
  agencyId: number;
  userId: number;
}

export interface VoucherLineInput {
  summary: string;
  accountId: number;
  /** 0 or absent: no auxiliary item. */
  auxItemId?: number;
  debit: number;
  credit: number;
}

export interface VoucherInput {
  /** 凭证日期 YYYY-MM-DD; its month is the period. */
  vdate: string;
  attachments?: number;
  source?: VoucherSource;
  /** With a source: the voucher is made once from it (a second save returns the first). */
  sourceRef?: string;
  lines: VoucherLineInput[];
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const bad = (msg: string) => new AppError(CODE.BAD_REQUEST, msg);
const AUX_NAMES: Record<AuxKind, string> = { customer: '客户', supplier: '供应商', dept: '部门', project: '项目' };

/** Locks and returns the book (row-level security: another agency's book is not found). */
export async function lockBook(tx: Queryable, agencyId: number, bookId: number): Promise<BookRow> {
  const [book] = await tx
    .select()
    .from(books)
    .where(and(eq(books.id, bookId), eq(books.agencyId, agencyId)))
    .for('update');
  if (!book) throw new AppError(CODE.NOT_FOUND, '账套不存在');
  return book;
}

/** A period may take vouchers: on or after the start period and not closed. */
export function assertOpenPeriod(book: BookRow, period: string) {
  if (period < book.startPeriod) throw bad(fillMsg(VOUCHER_MSG.beforeStart, { period: book.startPeriod }));
  if (period < book.currentPeriod) throw new AppError(CODE.CONFLICT, fillMsg(VOUCHER_MSG.periodClosed, { period }));
}

/**
 * 期初试算平衡: the opening balances of debit-side accounts equal those of credit-side ones (a balance on
 * the other side counts on that side). Leaf accounts only (parents sum them).
 */
export async function openingTrial(tx: Queryable, bookId: number) {
  const res = await tx.execute(sql`
    select coalesce(sum(case when a.direction = 'debit' then o.balance else 0 end), 0)::bigint as debit,
           coalesce(sum(case when a.direction = 'credit' then o.balance else 0 end), 0)::bigint as credit
    from ${bookOpenings} o join ${bookAccounts} a on a.id = o.account_id
    where o.book_id = ${bookId} and a.is_leaf`);
  const r = rowsOf<{ debit: string | number; credit: string | number }>(res)[0];
  const debit = Number(r?.debit ?? 0);
  const credit = Number(r?.credit ?? 0);
  return { debit, credit, balanced: debit === credit };
}

/** Checks lines against the book's chart and auxiliary items; throws the first problem in Chinese. */
async function checkLines(tx: Queryable, book: BookRow, lines: readonly VoucherLineInput[]) {
  const drafts: VoucherLineDraft[] = lines.map((l) => ({
    summary: l.summary,
    accountId: l.accountId,
    debit: l.debit,
    credit: l.credit,
  }));
  const problem = voucherLinesProblem(drafts);
  if (problem) throw bad(problem);
  const accountIds = [...new Set(lines.map((l) => l.accountId))];
  const accounts = await tx
    .select()
    .from(bookAccounts)
    .where(and(eq(bookAccounts.bookId, book.id), inArray(bookAccounts.id, accountIds)));
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const auxIds = [...new Set(lines.map((l) => l.auxItemId ?? 0).filter((id) => id > 0))];
  const auxItems =
    auxIds.length === 0
      ? []
      : await tx
          .select()
          .from(bookAuxItems)
          .where(and(eq(bookAuxItems.bookId, book.id), inArray(bookAuxItems.id, auxIds)));
  const auxById = new Map(auxItems.map((x) => [x.id, x]));
  for (const [i, l] of lines.entries()) {
    const n = i + 1;
    const a = byId.get(l.accountId);
    if (!a) throw bad(fillMsg(VOUCHER_MSG.accountUnknown, { n }));
    if (!a.isLeaf) throw bad(fillMsg(VOUCHER_MSG.notLeaf, { n, name: `${a.code} ${a.name}` }));
    if (!a.enabled) throw bad(fillMsg(VOUCHER_MSG.accountDisabled, { n, name: `${a.code} ${a.name}` }));
    const auxId = l.auxItemId ?? 0;
    if (a.auxKinds.length > 0) {
      const item = auxById.get(auxId);
      if (!item || !a.auxKinds.includes(item.kind))
        throw bad(
          fillMsg(VOUCHER_MSG.auxRequired, {
            n,
            name: `${a.code} ${a.name}`,
            kinds: a.auxKinds.map((k) => AUX_NAMES[k]).join('、'),
          }),
        );
    } else if (auxId !== 0) {
      throw bad(fillMsg(VOUCHER_MSG.auxUnknown, { n }));
    }
  }
}

/** Adds (sign 1) or takes away (sign -1) lines' amounts in book_balances. */
async function applyBalances(
  tx: Queryable,
  agencyId: number,
  bookId: number,
  period: string,
  lines: readonly { accountId: number; auxItemId: number; debit: number; credit: number }[],
  sign: 1 | -1,
) {
  const sums = new Map<string, { accountId: number; auxItemId: number; debit: number; credit: number }>();
  for (const l of lines) {
    const key = `${l.accountId}:${l.auxItemId}`;
    const s = sums.get(key) ?? { accountId: l.accountId, auxItemId: l.auxItemId, debit: 0, credit: 0 };
    s.debit += sign * l.debit;
    s.credit += sign * l.credit;
    sums.set(key, s);
  }
  if (sums.size === 0) return;
  await tx
    .insert(bookBalances)
    .values([...sums.values()].map((s) => ({ agencyId, bookId, period, ...s })))
    .onConflictDoUpdate({
      target: [bookBalances.bookId, bookBalances.accountId, bookBalances.auxItemId, bookBalances.period],
      set: {
        debit: sql`${bookBalances.debit} + excluded.debit`,
        credit: sql`${bookBalances.credit} + excluded.credit`,
      },
    });
}

async function insertLines(tx: Queryable, ctx: StoreCtx, v: VoucherRow, lines: readonly VoucherLineInput[]) {
  const rows = lines.map((l, i) => ({
    agencyId: ctx.agencyId,
    voucherId: v.id,
    bookId: v.bookId,
    period: v.period,
    seq: i + 1,
    summary: l.summary.trim(),
    accountId: l.accountId,
    auxItemId: l.auxItemId ?? 0,
    debit: l.debit,
    credit: l.credit,
  }));
  await tx.insert(voucherLines).values(rows);
  await applyBalances(tx, ctx.agencyId, v.bookId, v.period, rows, 1);
}

function checkHeader(book: BookRow, input: VoucherInput) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.vdate)) throw bad(fillMsg(VOUCHER_MSG.dateOutside, { period: '' }));
  const attachments = input.attachments ?? 0;
  if (!Number.isInteger(attachments) || attachments < 0 || attachments > 999) throw bad(VOUCHER_MSG.attachments);
  const period = periodOf(input.vdate);
  assertOpenPeriod(book, period);
  return { period, attachments };
}

/**
 * Saves a new voucher with the next number of its period. The first voucher of a book needs the opening
 * balances to balance (期初试算平衡). With a sourceRef, a voucher already made from that source is returned
 * instead of a second one.
 */
export async function createVoucher(tx: Queryable, ctx: StoreCtx, bookId: number, input: VoucherInput) {
  const book = await lockBook(tx, ctx.agencyId, bookId);
  const { period, attachments } = checkHeader(book, input);
  const source = input.source ?? 'manual';
  const sourceRef = input.sourceRef ?? '';
  if (sourceRef) {
    const [made] = await tx
      .select()
      .from(vouchers)
      .where(
        and(
          eq(vouchers.bookId, bookId),
          eq(vouchers.period, period),
          eq(vouchers.source, source),
          eq(vouchers.sourceRef, sourceRef),
        ),
      );
    if (made) return made;
  }
  if (!book.openingBalanced) {
    const trial = await openingTrial(tx, bookId);
    if (!trial.balanced)
      throw new AppError(
        CODE.CONFLICT,
        fillMsg(VOUCHER_MSG.openingUnbalanced, {
          debit: fenToYuanText(trial.debit),
          credit: fenToYuanText(trial.credit),
        }),
      );
    await tx.update(books).set({ openingBalanced: true }).where(eq(books.id, bookId));
  }
  await checkLines(tx, book, input.lines);
  const next = await tx.execute(sql`
    select coalesce(max(number), 0) + 1 as n from ${vouchers}
    where book_id = ${bookId} and period = ${period} and word = '记'`);
  const number = Number(rowsOf<{ n: number | string }>(next)[0]?.n ?? 1);
  const total = input.lines.reduce((s, l) => s + l.debit, 0);
  const [v] = await tx
    .insert(vouchers)
    .values({
      agencyId: ctx.agencyId,
      bookId,
      period,
      number,
      vdate: input.vdate,
      attachments,
      total,
      source,
      sourceRef,
      createdBy: ctx.userId,
    })
    .returning();
  if (!v) throw new Error('voucher not saved');
  await insertLines(tx, ctx, v, input.lines);
  return v;
}

/** Loads a voucher of the caller's agency and locks its book; 404 when it is not there. */
export async function voucherForChange(tx: Queryable, ctx: StoreCtx, voucherId: number) {
  const [found] = await tx
    .select({ bookId: vouchers.bookId })
    .from(vouchers)
    .where(and(eq(vouchers.id, voucherId), eq(vouchers.agencyId, ctx.agencyId)));
  if (!found) throw new AppError(CODE.NOT_FOUND, '凭证不存在');
  const book = await lockBook(tx, ctx.agencyId, found.bookId);
  const [v] = await tx.select().from(vouchers).where(eq(vouchers.id, voucherId));
  if (!v) throw new AppError(CODE.NOT_FOUND, '凭证不存在');
  return { book, voucher: v };
}

async function removeLines(tx: Queryable, ctx: StoreCtx, v: VoucherRow) {
  const old = await tx.select().from(voucherLines).where(eq(voucherLines.voucherId, v.id));
  await applyBalances(tx, ctx.agencyId, v.bookId, v.period, old, -1);
  await tx.delete(voucherLines).where(eq(voucherLines.voucherId, v.id));
}

/**
 * Replaces a voucher's date, attachments and lines. It stays in its period (moving it would renumber two
 * periods); an unreviewed voucher of an open period only.
 */
export async function updateVoucher(tx: Queryable, ctx: StoreCtx, voucherId: number, input: VoucherInput) {
  const { book, voucher } = await voucherForChange(tx, ctx, voucherId);
  assertOpenPeriod(book, voucher.period);
  if (voucher.review === 'reviewed') throw new AppError(CODE.CONFLICT, VOUCHER_MSG.reviewed);
  const { period, attachments } = checkHeader(book, input);
  if (period !== voucher.period) throw bad(fillMsg(VOUCHER_MSG.dateOutside, { period: voucher.period }));
  await checkLines(tx, book, input.lines);
  await removeLines(tx, ctx, voucher);
  const total = input.lines.reduce((s, l) => s + l.debit, 0);
  const [v] = await tx
    .update(vouchers)
    .set({ vdate: input.vdate, attachments, total, updatedAt: sql`now()` })
    .where(eq(vouchers.id, voucherId))
    .returning();
  if (!v) throw new Error('voucher not updated');
  await insertLines(tx, ctx, v, input.lines);
  return v;
}

/** Removes an unreviewed voucher of an open period; the vouchers after it move up one number (no gaps). */
export async function deleteVoucher(tx: Queryable, ctx: StoreCtx, voucherId: number) {
  const { book, voucher } = await voucherForChange(tx, ctx, voucherId);
  assertOpenPeriod(book, voucher.period);
  if (voucher.review === 'reviewed') throw new AppError(CODE.CONFLICT, VOUCHER_MSG.reviewed);
  await removeLines(tx, ctx, voucher);
  await tx.delete(vouchers).where(eq(vouchers.id, voucherId));
  // Two steps, so the unique (book, period, word, number) holds at every row update.
  await tx.execute(sql`
    update ${vouchers} set number = -(number - 1)
    where book_id = ${voucher.bookId} and period = ${voucher.period} and word = ${voucher.word} and number > ${voucher.number}`);
  await tx.execute(sql`
    update ${vouchers} set number = -number
    where book_id = ${voucher.bookId} and period = ${voucher.period} and word = ${voucher.word} and number < 0`);
  return voucher;
}

/** 审核 / 反审核 vouchers of open periods (a closed period's vouchers stay as they were closed). */
export async function reviewVoucher(tx: Queryable, ctx: StoreCtx, voucherId: number, reviewed: boolean) {
  const { book, voucher } = await voucherForChange(tx, ctx, voucherId);
  assertOpenPeriod(book, voucher.period);
  const [v] = await tx
    .update(vouchers)
    .set(
      reviewed
        ? { review: 'reviewed', reviewedBy: ctx.userId, reviewedAt: sql`now()` }
        : { review: 'unreviewed', reviewedBy: null, reviewedAt: null },
    )
    .where(eq(vouchers.id, voucherId))
    .returning();
  return v as VoucherRow;
}
