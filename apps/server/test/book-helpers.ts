import type { Queryable } from '../src/db/client.js';
import { accountIdsByCode } from '../src/modules/books/books.service.js';
import { createVoucher, reviewVoucher, type StoreCtx } from '../src/modules/voucher-store/voucher-store.js';

/** One line of a test voucher: account code, debit and credit in fen, and its own summary if any. */
export type VoucherLine = [code: string, debit: number, credit: number, summary?: string];

/**
 * A voucher of the book from account codes, saved through the voucher store (as the 凭证 page saves one) and
 * reviewed unless `review` is false. An unknown code fails the test rather than posting to no account.
 */
export async function postVoucher(
  tx: Queryable,
  ctx: StoreCtx,
  bookId: number,
  vdate: string,
  lines: readonly VoucherLine[],
  opts: { summary?: string; review?: boolean; attachments?: number } = {},
) {
  const ids = await accountIdsByCode(tx, bookId);
  const v = await createVoucher(tx, ctx, bookId, {
    vdate,
    ...(opts.attachments === undefined ? {} : { attachments: opts.attachments }),
    lines: lines.map(([code, debit, credit, summary]) => {
      const accountId = ids.get(code);
      if (!accountId) throw new Error(`no account ${code}`);
      return { summary: summary ?? opts.summary ?? '业务', accountId, debit, credit };
    }),
  });
  if (opts.review ?? true) await reviewVoucher(tx, ctx, v.id, true);
  return v;
}
