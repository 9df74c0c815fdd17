import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { agencyScope, inScope, type Queryable, type Scope, type Tx } from '../db/client.js';
import { jobs, organisations } from '../db/schema/index.js';
import type { Deps } from './calls.js';
import { isConnectionLost, withoutRowData } from './errors.js';

export type JobRow = typeof jobs.$inferSelect;

/** A failure worth another try later (the bureau was busy, a 5xx); anything else fails the job at once. */
export class RetryableError extends Error {}

export interface JobContext {
  job: JobRow;
  deps: Deps;
  /** A short transaction scoped to the job's agency; don't hold one open across slow calls. */
  inTx<T>(fn: (tx: Tx) => Promise<T>, userId?: number | null): Promise<T>;
  /** Records progress the page can poll (and that survives a restart). */
  setProgress(progress: Record<string, unknown>): Promise<void>;
  /**
   * Marks the job done inside the handler's own last transaction, so that its outcome and its end
   * commit together (one round trip fewer per job); the runner then does not finish it again.
   */
  doneIn(tx: Tx, result?: Record<string, unknown>): Promise<void>;
}

export interface JobHandler {
  queue: string;
  /** Jobs of one agency running at once, across every server process. */
  perAgencyCap: number;
  /** Workers of this queue in this process. */
  workers: number;
  /**
   * How long a claimed job is its worker's without news: the runner renews the lease every third of it
   * while the handler runs, so a crashed worker's job is taken again within this time. Keep it short.
   */
  leaseSeconds: number;
  maxAttempts: number;
  run(ctx: JobContext): Promise<Record<string, unknown> | undefined>;
}

/** Queues a unit of work; the same (queue, key) twice is one job. Call inside the caller's transaction. */
export async function enqueue(
  tx: Queryable,
  job: { agencyId: number; queue: string; key: string; payload: Record<string, unknown> },
): Promise<void> {
  await tx
    .insert(jobs)
    .values(job)
    .onConflictDoNothing({ target: [jobs.queue, jobs.key] });
}

/**
 * Lets waiting requests run before a job's next batch. PGlite executes on the main thread, so a job
 * that runs its batches back to back would hold every request until it ends; setImmediate puts the
 * next batch behind the I/O (incoming requests) that arrived meanwhile.
 */
export const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

const LOST_CONNECTION_RETRIES = 10;
/** How often idle queues look for work that no wake announced (another process's, retries, leases). */
const POLL_MS = 500;
/** An idle worker claims anyway after this long, should the poll keep failing. */
const IDLE_FALLBACK_MS = 30_000;

const backoffMs = (attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1)) + Math.floor(Math.random() * 250);

/**
 * Whom a job works for: its agency and, when a factory (会计工厂) started it, that factory, so the job sees
 * only the clients handed over to it, as its starter did.
 */
export const jobScope = (job: Pick<JobRow, 'agencyId' | 'kjgcId'>, userId?: number | null): Scope => ({
  agencyId: job.agencyId,
  userId: userId ?? null,
  kjgcId: job.kjgcId,
});

/** Runs the handlers' queues in this process until stopped. */
export function startJobRunner(deps: Deps, handlers: readonly JobHandler[], log: FastifyBaseLogger) {
  let stopping = false;
  const wakers = new Set<() => void>();
  /** The idle workers of each queue, woken when the poll finds work of theirs. */
  const idle = new Map<string, Set<() => void>>();
  const loops: Promise<void>[] = [];

  async function claim(h: JobHandler): Promise<JobRow | null> {
    const res = await deps.db.app.execute(
      sql`select * from claim_job(${h.queue}, ${h.leaseSeconds}, ${h.perAgencyCap})`,
    );
    const row = (res as unknown as { rows: Record<string, unknown>[] }).rows[0];
    if (!row) return null;
    // claim_job returns column names; map the few the runner and handlers read.
    return {
      id: Number(row.id),
      agencyId: Number(row.agency_id),
      kjgcId: row.kjgc_id === null || row.kjgc_id === undefined ? null : Number(row.kjgc_id),
      queue: String(row.queue),
      key: String(row.key),
      payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>,
      state: String(row.state),
      attempts: Number(row.attempts),
      runAfter: new Date(row.run_after as string),
      lockedUntil: row.locked_until ? new Date(row.locked_until as string) : null,
      progress: null,
      result: null,
      error: null,
      createdAt: new Date(row.created_at as string),
      finishedAt: null,
    };
  }

  /** Only the worker holding the claim (same attempt) may write the job's state: a retaken job is fenced off. */
  const held = (job: JobRow) => and(eq(jobs.id, job.id), eq(jobs.state, 'running'), eq(jobs.attempts, job.attempts));

  async function finish(job: JobRow, set: Partial<typeof jobs.$inferInsert>) {
    await inScope(deps.db.app, jobScope(job), (tx) => tx.update(jobs).set(set).where(held(job)));
  }

  /** Renews the lease every third of it while the handler runs; a lost database only skips a beat. */
  function heartbeat(h: JobHandler, job: JobRow): () => void {
    const timer = setInterval(
      () => {
        inScope(deps.db.app, jobScope(job), (tx) =>
          tx
            .update(jobs)
            .set({ lockedUntil: sql`now() + make_interval(secs => ${h.leaseSeconds})` })
            .where(held(job)),
        ).catch((err) => log.warn({ err, job: job.id }, 'job heartbeat failed'));
      },
      (h.leaseSeconds * 1000) / 3,
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  async function runOne(h: JobHandler, job: JobRow) {
    const scope = (userId?: number | null): Scope => jobScope(job, userId);
    let doneInHandler = false;
    const ctx: JobContext = {
      job,
      deps,
      doneIn: async (tx, result) => {
        await tx
          .update(jobs)
          .set({ state: 'done', result: result ?? {}, finishedAt: new Date(), lockedUntil: null })
          .where(held(job));
        doneInHandler = true;
      },
      inTx: (fn, userId) => inScope(deps.db.app, scope(userId), fn),
      setProgress: (progress) =>
        inScope(deps.db.app, scope(), async (tx) => {
          await tx.update(jobs).set({ progress }).where(eq(jobs.id, job.id));
        }),
    };
    const stopBeating = heartbeat(h, job);
    try {
      const result = await h.run(ctx);
      if (!doneInHandler) {
        await finish(job, { state: 'done', result: result ?? {}, finishedAt: new Date(), lockedUntil: null });
      }
    } catch (err) {
      // A cut database connection undid only the batch in flight: the job resumes from what committed.
      // A lost connection is the database's fault, not the job's: it gets LOST_CONNECTION_RETRIES more tries
      // than the handler allows for its own failures (a restarting server cuts every job at once), yet a
      // job that keeps losing its connection still ends.
      const lost = isConnectionLost(err);
      const transient = lost || err instanceof RetryableError;
      const retry = transient && job.attempts < h.maxAttempts + (lost ? LOST_CONNECTION_RETRIES : 0);
      // Never the row's data (a failed query's parameters) in the job's error or the log.
      const error = (err instanceof Error ? err.message : String(err)).split('\nparams:')[0] ?? '';
      if (!transient) log.error({ err: withoutRowData(err), job: job.id, queue: h.queue }, 'job failed');
      await finish(
        job,
        retry
          ? { state: 'queued', error, runAfter: new Date(Date.now() + backoffMs(job.attempts)), lockedUntil: null }
          : { state: 'failed', error, finishedAt: new Date(), lockedUntil: null },
      ).catch((e) => log.warn({ err: e, job: job.id }, 'recording a job failure failed; its lease will run out'));
    } finally {
      stopBeating();
    }
  }

  async function loop(h: JobHandler) {
    while (!stopping) {
      let job: JobRow | null = null;
      try {
        job = await claim(h);
      } catch (err) {
        if (!stopping) log.error({ err, queue: h.queue }, 'claiming a job failed');
      }
      if (job) {
        await runOne(h, job);
        continue;
      }
      // Idle: wait for an enqueue in this process, or for the shared poll to find work of this queue
      // (another process's, a retry come due, a lease run out); a long timer in case the poll fails.
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          wakers.delete(wake);
          idle.get(h.queue)?.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, IDLE_FALLBACK_MS);
        wakers.add(wake);
        idle.get(h.queue)?.add(wake);
      });
    }
  }

  /**
   * One query every POLL_MS for all idle queues (job_ready_queues, migration 0047), instead of a claim_job
   * per idle worker every POLL_MS: ~35 calls a second on PGlite's one thread before (issue 30 points 4, 6).
   */
  async function poll() {
    const queues = [...idle].filter(([, w]) => w.size > 0).map(([q]) => q);
    if (queues.length === 0 || stopping) return;
    try {
      const res = await deps.db.app.execute(
        sql`select q from job_ready_queues(array[${sql.join(
          queues.map((q) => sql`${q}`),
          sql`, `,
        )}]::text[]) as q`,
      );
      for (const row of (res as unknown as { rows: { q: string }[] }).rows)
        for (const w of [...(idle.get(row.q) ?? [])]) w();
    } catch (err) {
      if (!stopping) log.error({ err }, 'polling the job queues failed');
    }
  }
  let polling = false;
  const poller = setInterval(() => {
    if (polling) return;
    polling = true;
    void poll().finally(() => {
      polling = false;
    });
  }, POLL_MS);
  poller.unref();

  for (const h of handlers) {
    if (!idle.has(h.queue)) idle.set(h.queue, new Set());
    for (let i = 0; i < h.workers; i++) loops.push(loop(h));
  }

  return {
    /** Wakes idle workers at once (after enqueueing in this process). */
    wake() {
      for (const w of [...wakers]) w();
    },
    /** Stops taking jobs and waits for those running; their leases let another process resume them. */
    async stop() {
      stopping = true;
      clearInterval(poller);
      for (const w of [...wakers]) w();
      await Promise.all(loops);
    },
  };
}

/** Today's date in China (the agencies' day), YYYY-MM-DD. */
export function chinaDate(at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * Queues, for a China date, one job of each given queue for every agency (代理机构 and 会计工厂), keyed
 * `<key>:<agency>:<date>` so that several server processes (or several ticks) create each job once.
 * Returns how many agencies got them.
 */
export async function enqueueForEveryAgency(
  deps: Pick<Deps, 'db' | 'wakeJobs'>,
  date: string,
  queues: readonly { queue: string; key: string }[],
): Promise<number> {
  const agencies = await deps.db.app
    .select({ id: organisations.id })
    .from(organisations)
    .where(inArray(organisations.orgType, ['dls', 'kd']))
    .orderBy(asc(organisations.id));
  for (const { id } of agencies) {
    await inScope(deps.db.app, agencyScope(id), async (tx) => {
      for (const q of queues)
        await enqueue(tx, { agencyId: id, queue: q.queue, key: `${q.key}:${id}:${date}`, payload: { date } });
    });
  }
  deps.wakeJobs();
  return agencies.length;
}

/** How often a daily timer looks whether a new day began. */
const DAILY_CHECK_EVERY_MS = 10 * 60_000;

/**
 * Runs `schedule(date)` once per day in China while the server is up (not in unit tests, which call
 * their schedule themselves; `DAILY_JOBS=0` turns it off). The schedule creates jobs keyed by the date,
 * so several server processes (or several ticks) create each day's jobs once.
 */
export function startDailyTimer(
  app: { log: FastifyBaseLogger; addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown },
  what: string,
  schedule: (date: string) => Promise<unknown>,
) {
  if (process.env.NODE_ENV === 'test' || process.env.DAILY_JOBS === '0') return;
  let lastDate = '';
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    const date = chinaDate();
    if (date === lastDate) return;
    try {
      await schedule(date);
      lastDate = date;
    } catch (err) {
      app.log.error({ err }, `scheduling the daily ${what} failed`);
    }
  };
  let first: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    // Not in the first minute after a start (issue 30 point 4): the day's jobs of every agency (scans of
    // their clients, contracts, messages) would run beside the first requests, on PGlite on the same thread.
    first = setTimeout(() => void tick(), dailyFirstDelayMs());
    first.unref();
    timer = setInterval(() => void tick(), DAILY_CHECK_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}

/** How long after a start the daily schedules first look at the date: DAILY_FIRST_DELAY_MS, else a minute. */
export function dailyFirstDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.DAILY_FIRST_DELAY_MS);
  return env.DAILY_FIRST_DELAY_MS !== undefined && env.DAILY_FIRST_DELAY_MS !== '' && n >= 0 ? n : 60_000;
}
