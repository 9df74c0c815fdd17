import { BOOK_CLOSE_MSG, CODE } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { books, enterprises } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf, visible } from '../customer/customer.repo.js';

/** A book of the caller's agency whose client the caller may see; 404 otherwise. */
export async function bookInScope(tx: Queryable, session: SessionCtx, bookId: number) {
  const agencyId = agencyOf(session);
  const [row] = await tx
    .select({ id: books.id })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(and(eq(books.id, bookId), eq(books.agencyId, agencyId), visible(session, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, BOOK_CLOSE_MSG.bookNotFound);
  return agencyId;
}
