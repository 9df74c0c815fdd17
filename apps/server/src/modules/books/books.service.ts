import { CODE } from '@dzy/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { AccountingStandard, BookVatKind } from '../../db/schema/books.js';
import { bookAccounts, books, enterprises } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import type { BookRow } from '../voucher-store/voucher-store.js';
import { presetChart } from './charts.js';

export interface CreateBookInput {
  enterpriseId: number;
  /** Default 小企业会计准则 (2013). */
  standard?: AccountingStandard;
  /** 启用期间 YYYY-MM: also the first open period. */
  startPeriod: string;
  vatKind: BookVatKind;
}

/**
 * Creates a client's book with its standard's preset chart (issue 16), in the caller's transaction: one
 * book per client (a second is refused with 409 该企业已建账), the client must be an active enterprise of
 * the agency. Returns the book row; the accounts are in book_accounts (see charts.ts for the codes).
 */
export async function createBook(
  tx: Queryable,
  ctx: { agencyId: number; userId: number },
  input: CreateBookInput,
): Promise<BookRow> {
  const [ent] = await tx
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(
      and(
        eq(enterprises.id, input.enterpriseId),
        eq(enterprises.agencyId, ctx.agencyId),
        isNull(enterprises.deletedAt),
      ),
    );
  if (!ent) throw new AppError(CODE.NOT_FOUND, '企业不存在');
  const standard = input.standard ?? 'small2013';
  const [book] = await tx
    .insert(books)
    .values({
      agencyId: ctx.agencyId,
      enterpriseId: input.enterpriseId,
      standard,
      startPeriod: input.startPeriod,
      currentPeriod: input.startPeriod,
      vatKind: input.vatKind,
      createdBy: ctx.userId,
    })
    .onConflictDoNothing()
    .returning();
  if (!book) throw new AppError(CODE.CONFLICT, '该企业已建账，每家企业只能有一个账套');
  const chart = presetChart(standard, input.vatKind);
  const parents = new Set(chart.map((a) => a.parentCode).filter((c): c is string => c !== null));
  const ids = new Map<string, number>();
  for (const level of [1, 2, 3]) {
    const rows = chart.filter((a) => a.level === level);
    if (rows.length === 0) continue;
    const made = await tx
      .insert(bookAccounts)
      .values(
        rows.map((a) => ({
          agencyId: ctx.agencyId,
          bookId: book.id,
          code: a.code,
          name: a.name,
          parentId: a.parentCode ? (ids.get(a.parentCode) ?? null) : null,
          level: a.level,
          category: a.category,
          direction: a.direction,
          isLeaf: !parents.has(a.code),
          preset: true,
        })),
      )
      .returning({ id: bookAccounts.id, code: bookAccounts.code });
    for (const m of made) ids.set(m.code, m.id);
  }
  return book;
}

/** The book's accounts by code (for modules that post to known codes: see chartCodes in charts.ts). */
export async function accountIdsByCode(tx: Queryable, bookId: number): Promise<Map<string, number>> {
  const rows = await tx
    .select({ id: bookAccounts.id, code: bookAccounts.code })
    .from(bookAccounts)
    .where(eq(bookAccounts.bookId, bookId));
  return new Map(rows.map((r) => [r.code, r.id]));
}
