import {
  balanceSheetCall,
  CODE,
  columnLedgerCall,
  detailLedgerCall,
  generalLedgerCall,
  hasPerm,
  MSG,
  reportBooksCall,
  STATEMENT_FORMS,
  statementCall,
} from '@dzy/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { listPage } from '../../db/paging.js';
import { books, enterprises } from '../../db/schema/index.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { bookReportFileRoutes } from './book-reports.files.js';
import {
  checkRange,
  columnLedger,
  detailLedger,
  findBook,
  generalLedger,
  scopedBooks,
  statementOf,
  trialBalance,
} from './book-reports.service.js';

const BOOK_SORT = { name: 'qymc', keys: [enterprises.qymc, books.id], desc: false };

/** 账簿 (/account/ledgers) and 财务报表 (/account/statements), their drill-down and exports. */
export const bookReportsModule: ServerModule = {
  name: 'book-reports',
  routes(app, deps) {
    bookReportFileRoutes(app, deps);
  },
  calls: [
    serve(reportBooksCall, async ({ body, session, tx }) => {
      if (!hasPerm(session.perms, 'account:ledger:view') && !hasPerm(session.perms, 'account:statement:view'))
        throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
      const kw = body.keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
      const where = and(
        scopedBooks(session),
        body.keyword
          ? sql`(${enterprises.qymc} like ${`%${kw}%`} or ${enterprises.qysh} = ${body.keyword})`
          : undefined,
      ) as SQL;
      const { pageNo, pageSize, cursor, ...filter } = body;
      return listPage(
        tx,
        {
          from: sql`${books} join ${enterprises} on ${enterprises.id} = ${books.enterpriseId}`,
          where,
          sort: BOOK_SORT,
          ask: { pageNo, pageSize, cursor },
          filter,
        },
        async (ids) => {
          const rows = await tx
            .select({ book: books, qymc: enterprises.qymc, qysh: enterprises.qysh })
            .from(books)
            .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
            .where(and(eq(books.agencyId, session.agencyId ?? 0), inArray(books.id, ids)));
          return rows.map((r) => ({
            id: r.book.id,
            bookId: r.book.id,
            aeiId: r.book.enterpriseId,
            qymc: r.qymc,
            qysh: r.qysh,
            standard: r.book.standard,
            startPeriod: r.book.startPeriod,
            currentPeriod: r.book.currentPeriod,
          }));
        },
      );
    }),

    serve(balanceSheetCall, async ({ body, session, tx }) => {
      const book = await findBook(tx, session, body.bookId);
      checkRange(book, body.from, body.to);
      return trialBalance(tx, book, body);
    }),

    serve(generalLedgerCall, async ({ body, session, tx }) => {
      const book = await findBook(tx, session, body.bookId);
      checkRange(book, body.from, body.to);
      return { accounts: await generalLedger(tx, book, body) };
    }),

    serve(detailLedgerCall, async ({ body, session, tx }) => {
      const book = await findBook(tx, session, body.bookId);
      checkRange(book, body.from, body.to);
      return detailLedger(tx, book, body);
    }),

    serve(columnLedgerCall, async ({ body, session, tx }) => {
      const book = await findBook(tx, session, body.bookId);
      checkRange(book, body.from, body.to);
      return columnLedger(tx, book, body);
    }),

    serve(statementCall, async ({ body, session, tx }) => {
      const book = await findBook(tx, session, body.bookId);
      const s = await statementOf(tx, book, body.period, body.kind);
      return {
        kind: body.kind,
        form: STATEMENT_FORMS[book.standard][body.kind],
        qymc: book.qymc,
        period: body.period,
        lines: s.lines,
        checks: s.checks,
        closed: s.closed,
      };
    }),
  ],
};
