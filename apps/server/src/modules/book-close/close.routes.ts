import {
  BOOK_CLOSE_MSG,
  BOOK_CLOSE_QUEUE,
  batchCloseCall,
  batchCloseRateCall,
  batchCloseReportCall,
  type CjsRate,
  CODE,
  closeBookCall,
  closeListCall,
  closeStateCall,
  reopenBookCall,
  transferCall,
} from '@dzy/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { bookRunClients, bookRuns, books, enterprises } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf, visible } from '../customer/customer.repo.js';
import { bookCloseJob, finishIfDone, runRate } from './close.jobs.js';
import { closeBook, closeState, makeTransfer, reopenBook, rulesOf } from './close.service.js';
import { proposalCalls } from './proposals.routes.js';
import { bookInScope } from './scope.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

async function optsOf(tx: Queryable, agencyId: number, cjsRate?: CjsRate) {
  const rules = await rulesOf(tx, agencyId);
  return { cjsRate: cjsRate ?? rules.close.cjsRate, halve: rules.close.halve, incomeTax: rules.close.incomeTax };
}

const BOOK_SORT = { name: 'qymc', keys: [enterprises.qymc, books.id], desc: false };

const list = serve(closeListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const where = and(
    visible(session, agencyId),
    eq(books.agencyId, agencyId),
    nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.keyword?.trim() || undefined),
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
      const rows = rowsOf<{
        id: number;
        enterprise_id: number;
        qymc: string;
        qysh: string;
        current_period: string;
        start_period: string;
        closed: boolean;
        n: number;
      }>(
        await tx.execute(sql`
          select b.id, b.enterprise_id, e.qymc, e.qysh, b.current_period, b.start_period,
            exists (select 1 from book_closes c where c.book_id = b.id and c.period = ${body.period}) as closed,
            (select count(*) from vouchers v where v.book_id = b.id and v.period = ${body.period})::int as n
          from books b join enterprises e on e.id = b.enterprise_id
          where b.agency_id = ${agencyId} and b.id in (${sql.join(
            ids.map((x) => sql`${x}`),
            sql`, `,
          )})`),
      );
      return rows.map((r) => ({
        id: Number(r.id),
        bookId: Number(r.id),
        aeiId: Number(r.enterprise_id),
        qymc: r.qymc,
        qysh: r.qysh,
        currentPeriod: r.current_period,
        state: r.closed
          ? ('closed' as const)
          : r.current_period === body.period
            ? ('open' as const)
            : r.current_period < body.period
              ? ('early' as const)
              : ('future' as const),
        vouchers: Number(r.n),
      }));
    },
  );
});

const state = serve(closeStateCall, async ({ body, session, tx }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  return closeState(tx, agencyId, body.bookId, await optsOf(tx, agencyId, body.cjsRate));
});

const transfer = serve(transferCall, async ({ body, session, tx, req }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  const opts = await optsOf(tx, agencyId, body.cjsRate);
  const ctx = { agencyId, userId: session.userId };
  const v = await makeTransfer(tx, ctx, body.bookId, body.kind, opts);
  await audit(tx, req, ctx, `account.close.${body.kind}`, String(body.bookId), { voucherId: v?.id ?? null });
  return closeState(tx, agencyId, body.bookId, opts);
});

const close = serve(closeBookCall, async ({ body, session, tx, req }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  const opts = await optsOf(tx, agencyId);
  const ctx = { agencyId, userId: session.userId };
  const period = await closeBook(tx, ctx, body.bookId, opts);
  await audit(tx, req, ctx, 'account.close.close', String(body.bookId), { period });
  return closeState(tx, agencyId, body.bookId, opts);
});

const reopen = serve(reopenBookCall, async ({ body, session, tx, req }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  const ctx = { agencyId, userId: session.userId };
  const period = await reopenBook(tx, ctx, body.bookId);
  await audit(tx, req, ctx, 'account.close.reopen', String(body.bookId), { period });
  return closeState(tx, agencyId, body.bookId, await optsOf(tx, agencyId));
});

const batch = serve(batchCloseCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const wanted = [...new Set(body.bookIds)];
  const found = await tx
    .select({ id: books.id })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(and(eq(books.agencyId, agencyId), inArray(books.id, wanted), visible(session, agencyId)));
  if (found.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, BOOK_CLOSE_MSG.bookNotFound);
  const rules = await rulesOf(tx, agencyId);
  const [run] = await tx
    .insert(bookRuns)
    .values({
      agencyId,
      userId: session.userId,
      kind: 'close',
      period: body.period,
      options: { cjsRate: rules.close.cjsRate },
      totalNum: wanted.length,
    })
    .returning();
  if (!run) throw new Error('run not created');
  for (let i = 0; i < wanted.length; i += 2000) {
    const part = wanted.slice(i, i + 2000);
    const list = sql.join(
      part.map((x) => sql`(${x}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      with c as (
        insert into book_run_clients (agency_id, run_id, book_id)
        select ${agencyId}::int, ${run.id}::int, v.id from (values ${list}) as v(id)
        returning book_id
      )
      insert into jobs (agency_id, queue, key, payload)
      select ${agencyId}::int, ${BOOK_CLOSE_QUEUE}, ${run.id}::text || ':' || c.book_id::text,
        jsonb_build_object('runId', ${run.id}::int, 'bookId', c.book_id, 'userId', ${session.userId}::int)
      from c on conflict (queue, key) do nothing`);
  }
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.close.batch', String(run.id), {
    period: body.period,
    books: wanted.length,
  });
  afterCommit(() => deps.wakeJobs());
  return { runId: String(run.id) };
});

async function findRun(tx: Queryable, session: SessionCtx, runId: string) {
  const id = Number(runId);
  const [r] = await tx
    .select()
    .from(bookRuns)
    .where(
      and(
        eq(bookRuns.agencyId, agencyOf(session)),
        eq(bookRuns.id, id),
        eq(bookRuns.kind, 'close'),
        dataScope(session, bookRuns.userId),
      ),
    );
  if (!r) throw new AppError(CODE.NOT_FOUND, BOOK_CLOSE_MSG.runNotFound);
  return r;
}

const rate = serve(batchCloseRateCall, async ({ body, session, tx }) => {
  const run = await findRun(tx, session, body.runId);
  const done = run.state === 'running' ? await finishIfDone(tx, run.id) : null;
  return runRate(tx, done ?? run);
});

const RUN_SORT = { name: 'id', keys: [bookRunClients.id], desc: false };

const report = serve(batchCloseReportCall, async ({ body, session, tx }) => {
  const run = await findRun(tx, session, body.runId);
  const stateWhere =
    body.state === 'pending'
      ? sql`${bookRunClients.state} is null`
      : body.state
        ? eq(bookRunClients.state, body.state)
        : undefined;
  const where = and(eq(bookRunClients.runId, run.id), stateWhere) as SQL;
  const { pageNo, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: sql`${bookRunClients}`, where, sort: RUN_SORT, ask: { pageNo, pageSize, cursor }, filter },
    async (ids) => {
      const rows = await tx
        .select({
          id: bookRunClients.id,
          bookId: bookRunClients.bookId,
          state: bookRunClients.state,
          msg: bookRunClients.msg,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
        })
        .from(bookRunClients)
        .innerJoin(books, eq(books.id, bookRunClients.bookId))
        .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
        .where(inArray(bookRunClients.id, ids));
      return rows.map((r) => ({ ...r, state: r.state ?? ('pending' as const) }));
    },
  );
});

export const bookCloseCalls: Served[] = [list, state, transfer, close, reopen, batch, rate, report, ...proposalCalls];

export const bookCloseModule: ServerModule = {
  name: 'book-close',
  calls: bookCloseCalls,
  jobs: [bookCloseJob],
};
