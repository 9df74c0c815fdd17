import {
  BOOK_PRINT_FILES,
  BOOK_PRINT_MSG,
  BOOK_PRINT_QUEUE,
  CODE,
  hasPerm,
  MSG,
  printClientsCall,
  printRunCall,
  printRunsCall,
  printStartCall,
} from '@dzy/shared';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inScope, type Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { bookPrintClients, bookRuns, enterprises } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { type Deps, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { chooseBatchClients } from '../customer/batch-clients.js';
import { agencyOf } from '../customer/customer.repo.js';
import { safeName, zipFiles } from '../filing-evidence/zip.js';
import { bookPrintJob, finishIfDone, type PrintOptions, runsWithRate } from './print.jobs.js';

const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

const start = serve(printStartCall, async ({ body, session, tx, req, deps, afterCommit }) => {
  const agencyId = agencyOf(session);
  const { chosen, noQysh, blocked } = await chooseBatchClients(tx, session, body, { ly: 'jz', msg: BOOK_PRINT_MSG });
  const options: PrintOptions = { from: body.from, to: body.to, items: [...new Set(body.items)], layout: body.layout };
  const skipped = [...noQysh, ...blocked];
  const [run] = await tx
    .insert(bookRuns)
    .values({
      agencyId,
      userId: session.userId,
      kind: 'print',
      period: body.to,
      options: { ...options },
      totalNum: chosen.length + skipped.length,
    })
    .returning();
  if (!run) throw new Error('run not created');
  // Clients the batch rule left out are in the run with their reason; the others get a job each.
  for (let i = 0; i < skipped.length; i += 1000)
    await tx.insert(bookPrintClients).values(
      skipped.slice(i, i + 1000).map((s) => ({
        agencyId,
        runId: run.id,
        enterpriseId: s.aeiId,
        state: 'skipped' as const,
        msg: s.warning,
      })),
    );
  for (let i = 0; i < chosen.length; i += 1000) {
    const list = sql.join(
      chosen.slice(i, i + 1000).map((c) => sql`(${c.id}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      with c as (
        insert into book_print_clients (agency_id, run_id, enterprise_id)
        select ${agencyId}::int, ${run.id}::int, v.id from (values ${list}) as v(id)
        returning enterprise_id
      )
      insert into jobs (agency_id, queue, key, payload)
      select ${agencyId}::int, ${BOOK_PRINT_QUEUE}, ${run.id}::text || ':' || c.enterprise_id::text,
        jsonb_build_object('runId', ${run.id}::int, 'enterpriseId', c.enterprise_id, 'userId', ${session.userId}::int)
      from c on conflict (queue, key) do nothing`);
  }
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.print.start', String(run.id), {
    ...options,
    clients: chosen.length,
    skipped: skipped.map((s) => s.aeiId),
  });
  afterCommit(() => deps.wakeJobs());
  return { runId: String(run.id), total: chosen.length, blocked, noQysh };
});

/** The caller's print runs: the tenant, and the data scope over who started them (as batch close). */
const runsOf = (session: SessionCtx) =>
  and(eq(bookRuns.agencyId, agencyOf(session)), eq(bookRuns.kind, 'print'), dataScope(session, bookRuns.userId)) as SQL;

async function findRun(tx: Queryable, session: SessionCtx, runId: string) {
  const [r] = await tx
    .select()
    .from(bookRuns)
    .where(and(runsOf(session), eq(bookRuns.id, Number(runId))));
  if (!r) throw new AppError(CODE.NOT_FOUND, BOOK_PRINT_MSG.runNotFound);
  return r;
}

const RUN_SORT = { name: 'id', keys: [bookRuns.id], desc: true };

const runs = serve(printRunsCall, async ({ body, session, tx }) => {
  const { pageNo, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: sql`${bookRuns}`, where: runsOf(session), sort: RUN_SORT, ask: { pageNo, pageSize, cursor }, filter },
    async (ids) => runsWithRate(tx, await tx.select().from(bookRuns).where(inArray(bookRuns.id, ids))),
  );
});

const rate = serve(printRunCall, async ({ body, session, tx }) => {
  const run = await findRun(tx, session, body.runId);
  const done = run.state === 'running' ? await finishIfDone(tx, run.id) : null;
  const [r] = await runsWithRate(tx, [done ?? run]);
  if (!r) throw new AppError(CODE.NOT_FOUND, BOOK_PRINT_MSG.runNotFound);
  return r;
});

const CLIENT_SORT = { name: 'id', keys: [bookPrintClients.id], desc: false };

const clients = serve(printClientsCall, async ({ body, session, tx }) => {
  const run = await findRun(tx, session, body.runId);
  const stateWhere =
    body.state === 'pending'
      ? sql`${bookPrintClients.state} is null`
      : body.state
        ? eq(bookPrintClients.state, body.state)
        : undefined;
  const { pageNo, pageSize, cursor, runId: _r, ...filter } = body;
  return listPage(
    tx,
    {
      from: sql`${bookPrintClients}`,
      where: and(eq(bookPrintClients.runId, run.id), stateWhere) as SQL,
      sort: CLIENT_SORT,
      ask: { pageNo, pageSize, cursor },
      filter: { runId: body.runId, ...filter },
    },
    async (ids) => {
      const rows = await tx
        .select({
          id: bookPrintClients.id,
          aeiId: bookPrintClients.enterpriseId,
          state: bookPrintClients.state,
          msg: bookPrintClients.msg,
          pages: bookPrintClients.pages,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
        })
        .from(bookPrintClients)
        .innerJoin(enterprises, eq(enterprises.id, bookPrintClients.enterpriseId))
        .where(inArray(bookPrintClients.id, ids));
      return rows.map((r) => ({ ...r, state: r.state ?? ('pending' as const) }));
    },
  );
});

/**
 * 下载: a finished run's file — the client's PDF when one client was printed, else a zip of one PDF per
 * client (built when downloaded, with the receipts' zip writer).
 */
function printFileRoutes(app: FastifyInstance, deps: Deps) {
  app.get(`/api/${BOOK_PRINT_FILES.download}`, async (req, reply) => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    if (!hasPerm(session.perms, 'account:print:view')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, BOOK_PRINT_MSG.runNotFound);
    const runId = String((req.query as Record<string, unknown> | undefined)?.runId ?? '');
    if (!/^\d{1,10}$/.test(runId)) throw new AppError(CODE.NOT_FOUND, BOOK_PRINT_MSG.runNotFound);
    const { run, files } = await inScope(deps.db.app, scopeOf(session), async (tx) => {
      const run = await findRun(tx, session, runId);
      if (run.state !== 'done') throw new AppError(CODE.CONFLICT, BOOK_PRINT_MSG.notReady);
      const files = await tx
        .select({ qymc: enterprises.qymc, qysh: enterprises.qysh, pdf: bookPrintClients.pdf })
        .from(bookPrintClients)
        .innerJoin(enterprises, eq(enterprises.id, bookPrintClients.enterpriseId))
        .where(and(eq(bookPrintClients.runId, run.id), eq(bookPrintClients.state, 'ok')))
        .orderBy(asc(bookPrintClients.id));
      await audit(tx, req, session, 'account.print.download', String(run.id), { files: files.length });
      return { run, files };
    });
    if (files.length === 0 || !run.fileName) throw new AppError(CODE.EMPTY, BOOK_PRINT_MSG.nothingToDownload);
    const o = run.options as unknown as PrintOptions;
    const span = o.from === o.to ? o.from : `${o.from}至${o.to}`;
    const bytes = (b: unknown) => Buffer.from(b as Uint8Array);
    reply.header('cache-control', 'private, no-store').header('content-disposition', disposition(run.fileName));
    if (files.length === 1) return reply.header('content-type', 'application/pdf').send(bytes(files[0]?.pdf));
    const seen = new Set<string>();
    const entries = files.map((f) => {
      let name = `${safeName(f.qymc)}_${span}.pdf`;
      if (seen.has(name)) name = `${safeName(f.qymc)}_${safeName(f.qysh)}_${span}.pdf`;
      seen.add(name);
      return { name, data: bytes(f.pdf) };
    });
    return reply.header('content-type', 'application/zip').send(await zipFiles(entries));
  });
}

export const bookPrintModule: ServerModule = {
  name: 'book-print',
  calls: [start, runs, rate, clients],
  routes: printFileRoutes,
  jobs: [bookPrintJob],
};
