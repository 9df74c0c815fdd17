import { type BookAccount, type BookInfo, CODE, fillMsg, pinyinInitials, VOUCHER_MSG, type Voucher } from '@dzy/shared';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import {
  bookAccounts,
  bookAuxItems,
  bookCloses,
  books,
  enterprises,
  users,
  voucherLines,
  vouchers,
} from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf } from '../declare/check.repo.js';
import type { BookRow } from '../voucher-store/voucher-store.js';

export { agencyOf };

export type AccountRow = typeof bookAccounts.$inferSelect;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

/**
 * The book if it is the caller's agency's and its client is in the caller's data scope (an employee sees
 * the books of the clients assigned to them); 404 otherwise, the same as a book that does not exist.
 */
export async function findBook(tx: Queryable, session: SessionCtx, bookId: number) {
  const agencyId = agencyOf(session);
  const [row] = await tx
    .select({ book: books, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(
      and(
        eq(books.id, bookId),
        eq(books.agencyId, agencyId),
        isNull(enterprises.deletedAt),
        dataScope(session, enterprises.allocateUser),
      ),
    );
  if (!row) throw new AppError(CODE.NOT_FOUND, '账套不存在');
  return row;
}

/** The book of a voucher, checked the same way; 404 when the voucher is not there or not in scope. */
export async function findVoucherBook(tx: Queryable, session: SessionCtx, voucherId: number) {
  const agencyId = agencyOf(session);
  const [v] = await tx
    .select({ bookId: vouchers.bookId })
    .from(vouchers)
    .where(and(eq(vouchers.id, voucherId), eq(vouchers.agencyId, agencyId)));
  if (!v) throw new AppError(CODE.NOT_FOUND, '凭证不存在');
  try {
    return await findBook(tx, session, v.bookId);
  } catch {
    throw new AppError(CODE.NOT_FOUND, '凭证不存在');
  }
}

export async function bookInfo(tx: Queryable, row: { book: BookRow; qymc: string; qysh: string }): Promise<BookInfo> {
  const b = row.book;
  const closes = await tx
    .select({ period: bookCloses.period })
    .from(bookCloses)
    .where(eq(bookCloses.bookId, b.id))
    .orderBy(asc(bookCloses.period));
  const res = await tx.execute(sql`
    select (select count(*) from ${bookAccounts} where book_id = ${b.id})::int as accounts,
           (select count(*) from ${vouchers} where book_id = ${b.id})::int as vouchers,
           (select count(*) from ${vouchers} where book_id = ${b.id} and period = ${b.currentPeriod}
              and review = 'unreviewed')::int as unreviewed`);
  const c = (res as unknown as { rows: { accounts: number; vouchers: number; unreviewed: number }[] }).rows[0];
  const closedPeriods = closes.map((x) => x.period);
  return {
    bookId: b.id,
    aeiId: b.enterpriseId,
    qymc: row.qymc,
    qysh: row.qysh,
    standard: b.standard,
    startPeriod: b.startPeriod,
    vatKind: b.vatKind,
    currentPeriod: b.currentPeriod,
    lastClosed: closedPeriods.at(-1) ?? '',
    closedPeriods,
    openingBalanced: b.openingBalanced,
    accountNum: Number(c?.accounts ?? 0),
    voucherNum: Number(c?.vouchers ?? 0),
    unreviewedNum: Number(c?.unreviewed ?? 0),
    createdAt: iso(b.createdAt),
  };
}

/** A book's whole chart in code order, with full names and pinyin initials. */
export async function chartOf(tx: Queryable, bookId: number): Promise<BookAccount[]> {
  const rows = await tx
    .select()
    .from(bookAccounts)
    .where(eq(bookAccounts.bookId, bookId))
    .orderBy(asc(bookAccounts.code));
  return toAccounts(rows);
}

export function toAccounts(rows: readonly AccountRow[], all: readonly AccountRow[] = rows): BookAccount[] {
  const byId = new Map(all.map((a) => [a.id, a]));
  const fullName = (a: AccountRow): string => {
    const names: string[] = [];
    for (let x: AccountRow | undefined = a; x; x = x.parentId ? byId.get(x.parentId) : undefined) names.unshift(x.name);
    return names.join('_');
  };
  return rows.map((a) => ({
    id: a.id,
    code: a.code,
    name: a.name,
    py: pinyinInitials(a.name),
    fullName: fullName(a),
    parentId: a.parentId,
    level: a.level,
    category: a.category,
    direction: a.direction,
    auxKinds: a.auxKinds,
    isLeaf: a.isLeaf,
    enabled: a.enabled,
    preset: a.preset,
  }));
}

/** Vouchers with their lines (account code and name, auxiliary item), in the order of `ids`. */
export async function vouchersById(tx: Queryable, agencyId: number, ids: readonly number[]): Promise<Voucher[]> {
  if (ids.length === 0) return [];
  const reviewer = alias(users, 'reviewer');
  const heads = await tx
    .select({
      v: vouchers,
      creator: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone})`,
      reviewer: sql<string>`coalesce(nullif(${reviewer.hymc}, ''), ${reviewer.phone}, '')`,
    })
    .from(vouchers)
    .innerJoin(users, eq(users.id, vouchers.createdBy))
    .leftJoin(reviewer, eq(reviewer.id, vouchers.reviewedBy))
    .where(and(eq(vouchers.agencyId, agencyId), inArray(vouchers.id, [...ids])));
  const lines = await tx
    .select({
      l: voucherLines,
      code: bookAccounts.code,
      name: bookAccounts.name,
      auxName: sql<string>`coalesce(${bookAuxItems.name}, '')`,
    })
    .from(voucherLines)
    .innerJoin(bookAccounts, eq(bookAccounts.id, voucherLines.accountId))
    .leftJoin(bookAuxItems, eq(bookAuxItems.id, voucherLines.auxItemId))
    .where(inArray(voucherLines.voucherId, [...ids]))
    .orderBy(asc(voucherLines.voucherId), asc(voucherLines.seq));
  const accountIds = [...new Set(lines.map((l) => l.l.accountId))];
  const fullNames = await accountFullNames(tx, accountIds);
  const byVoucher = new Map<number, Voucher['lines']>();
  for (const x of lines) {
    const list = byVoucher.get(x.l.voucherId) ?? [];
    list.push({
      seq: x.l.seq,
      summary: x.l.summary,
      accountId: x.l.accountId,
      accountCode: x.code,
      accountName: fullNames.get(x.l.accountId) ?? x.name,
      auxItemId: x.l.auxItemId,
      auxName: x.auxName,
      debit: x.l.debit,
      credit: x.l.credit,
    });
    byVoucher.set(x.l.voucherId, list);
  }
  const byId = new Map(
    heads.map((h) => [
      h.v.id,
      {
        id: h.v.id,
        bookId: h.v.bookId,
        period: h.v.period,
        word: h.v.word,
        number: h.v.number,
        vdate: h.v.vdate,
        attachments: h.v.attachments,
        total: h.v.total,
        review: h.v.review,
        reviewerName: h.v.reviewedBy ? h.reviewer : '',
        source: h.v.source,
        creatorName: h.creator,
        createdAt: iso(h.v.createdAt),
        lines: byVoucher.get(h.v.id) ?? [],
      } satisfies Voucher,
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Full names (上级_下级) of some accounts. */
async function accountFullNames(tx: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const res = await tx.execute(sql`
    with recursive up(start_id, id, parent_id, name, depth) as (
      select a.id, a.id, a.parent_id, a.name, 0 from ${bookAccounts} a where a.id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})
      union all
      select up.start_id, p.id, p.parent_id, p.name, up.depth + 1
      from up join ${bookAccounts} p on p.id = up.parent_id
    )
    select start_id, string_agg(name, '_' order by depth desc) as full_name from up group by start_id`);
  const rows = (res as unknown as { rows: { start_id: number; full_name: string }[] }).rows;
  return new Map(rows.map((r) => [Number(r.start_id), r.full_name]));
}

/** The 记-number label of a voucher in messages (记-3). */
export const voucherLabel = (v: { period: string; word: string; number: number }) =>
  `${v.period} ${v.word}-${v.number}`;

/** The reason text of an AppError for a batch row; other errors are rethrown. */
export function reasonOf(err: unknown): string {
  if (err instanceof AppError) return err.message;
  throw err;
}

/** A voucher's period must be open (refusal in Chinese) — used before copies. */
export function periodOpenMsg(book: BookRow, period: string): string | null {
  if (period < book.startPeriod) return fillMsg(VOUCHER_MSG.beforeStart, { period: book.startPeriod });
  if (period < book.currentPeriod) return fillMsg(VOUCHER_MSG.periodClosed, { period });
  return null;
}

export type { SQL };
