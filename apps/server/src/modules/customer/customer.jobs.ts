import { existsSync } from 'node:fs';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CUSTOMER_MSG, IMPORT_COLUMNS, IMPORT_PUSH_TYPE, IMPORT_QUEUE, type ImportResult } from '@dzy/shared';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  auditLog,
  enterpriseContacts,
  enterpriseLabels,
  enterprises,
  grades,
  jobs,
  labels,
  memberships,
  users,
} from '../../db/schema/index.js';
import { decrypt, encrypt } from '../../lib/crypto.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { type JobContext, type JobHandler, yieldToRequests } from '../../plugins/jobs.js';
import { fileOwner, type SessionCtx } from '../../plugins/session.js';
import { isAgencyMember } from '../role/member.repo.js';
import { type ImportLookups, type PlannedRow, planImport, type SheetRow } from './customer.import.js';
import { applyPasswordBatch, firstLines, type PwdFailure, type PwdKind } from './customer.pwd-import.js';
import { licenceRoom, quotaCoverage } from './customer.service.js';
import { writeXlsx } from './xlsx.js';

/** Where uploads waiting for their job, plans and failure files live. */
export const importDir = (deps: Pick<Deps, 'config'>) => resolve(deps.config.dataDir, 'uploads', 'customer-import');

/** The job's payload: the parsed rows wait on disk (not in the jobs table). */
export interface ImportPayload {
  key: string;
  userId: number;
  total: number;
  canAssign: boolean;
  fileName: string;
  /** Which of the three imports; absent on jobs queued before the password imports became jobs. */
  kind?: 'customer' | PwdKind;
}

/** Where a queued import's rows wait; password files are encrypted at rest (they hold passwords). */
export const rowsFileOf = (deps: Pick<Deps, 'config'>, agencyId: number, key: string) =>
  join(importDir(deps), `${agencyId}-${key}.rows.json`);

export async function saveRows(
  deps: Pick<Deps, 'config'>,
  agencyId: number,
  key: string,
  rows: SheetRow[],
  secret: boolean,
) {
  await mkdir(importDir(deps), { recursive: true });
  const text = JSON.stringify(rows);
  await writeFile(rowsFileOf(deps, agencyId, key), secret ? encrypt(deps.config.secretKey, text) : text, {
    mode: 0o640,
  });
}

export interface ImportProgress {
  phase: 'plan' | 'insert' | 'report';
  total: number;
  done: number;
  /** Rows found taken while inserting (someone added the tax number meanwhile): line → reason. */
  late: [number, string][];
}

/**
 * Rows per insert transaction. PGlite runs on the main thread: a batch holds every request back while
 * it runs, so there batches are small and the job yields between them.
 */
const batchSize = (deps: Deps) => (deps.db.kind === 'pglite' ? 100 : 500);

/** Who a failure file belongs to: the importer's agency and factory (plugins/session.ts fileOwner). */
type FileOwner = { agencyId: number | null; kjgcId: number | null };

/** The failure file of an import or credentials import: `<agency>-<key>.xlsx` (`<agency>-kjgc<factory>-<key>.xlsx`). */
export const failFileName = (owner: FileOwner, key: string) => `${fileOwner(owner)}-${key}.xlsx`;

/** The importer's data scope, as their session would have it (a member who left sees nothing of others'). */
async function importerScope(
  tx: Tx,
  agencyId: number,
  userId: number,
  kjgcId: number | null = null,
): Promise<SessionCtx & { agencyId: number }> {
  const [me] = await tx
    .select({ isAdmin: memberships.isAdmin, role: memberships.role, departmentId: memberships.departmentId })
    .from(memberships)
    .where(and(eq(memberships.agencyId, agencyId), eq(memberships.userId, userId)))
    .limit(1);
  return {
    userId,
    agencyId,
    isAdmin: me?.isAdmin ?? false,
    role: (me?.role ?? 0) as 0 | 1 | 2,
    departmentId: me?.departmentId ?? null,
    // The factory the job runs for (its transaction is already in it: jobs.kjgc_id), for whatever reads it.
    kjgcId,
  } as SessionCtx & { agencyId: number };
}

async function lookups(tx: Tx, agencyId: number, p: ImportPayload): Promise<ImportLookups> {
  const existing = new Map<string, { qymc: string; deleted: boolean; visible: boolean }>();
  // A duplicate's name is the importer's to learn only when their data scope shows it.
  const scope = await importerScope(tx, agencyId, p.userId);
  const book = await tx
    .select({
      qysh: enterprises.qysh,
      qymc: enterprises.qymc,
      deletedAt: enterprises.deletedAt,
      visible: sql<boolean>`${dataScope(scope, enterprises.allocateUser)}`,
    })
    .from(enterprises)
    .where(eq(enterprises.agencyId, agencyId));
  for (const e of book) {
    if (e.qysh) existing.set(e.qysh, { qymc: e.qymc, deleted: e.deletedAt !== null, visible: e.visible === true });
  }
  const gradeRows = await tx.select().from(grades).where(eq(grades.agencyId, agencyId));
  const labelRows = await tx.select().from(labels).where(eq(labels.agencyId, agencyId));
  const memberRows = await tx
    .select({ userId: memberships.userId, phone: users.phone })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(isAgencyMember(agencyId));
  return {
    existing,
    grades: new Map(gradeRows.map((g) => [g.name, g.id])),
    labels: new Map(labelRows.map((l) => [l.name, l.id])),
    members: new Map(memberRows.map((m) => [m.phone, m.userId])),
    importer: p.userId,
    canAssign: p.canAssign,
    room: await licenceRoom(tx, agencyId),
  };
}

async function readProgress(ctx: JobContext): Promise<ImportProgress | null> {
  return ctx.inTx(async (tx) => {
    const [row] = await tx.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, ctx.job.id));
    return (row?.progress as ImportProgress | null | undefined) ?? null;
  });
}

/** Inserts one batch of planned rows and records how far the job got, in one transaction. */
async function insertBatch(
  tx: Tx,
  agencyId: number,
  batch: PlannedRow[],
  progress: ImportProgress,
  jobId: number,
): Promise<ImportProgress> {
  const ok = batch.flatMap((r) => (r.status === 'ok' ? [r] : []));
  const late: [number, string][] = [];
  if (ok.length > 0) {
    // Someone may have added one of these meanwhile: those rows fail instead of breaking the batch.
    const taken = await tx
      .select({ qysh: enterprises.qysh, qymc: enterprises.qymc })
      .from(enterprises)
      .where(
        and(
          eq(enterprises.agencyId, agencyId),
          // qysh <> '' lets the planner take the partial unique index (agency_id, qysh) instead of the trigram one.
          ne(enterprises.qysh, ''),
          inArray(
            enterprises.qysh,
            ok.map((r) => r.values.qysh),
          ),
        ),
      );
    const takenBy = new Map(taken.map((t) => [t.qysh, t.qymc]));
    const fresh = ok.filter((r) => {
      const by = takenBy.get(r.values.qysh);
      if (by !== undefined) late.push([r.line, CUSTOMER_MSG.duplicateDuringImport]);
      return by === undefined;
    });
    if (fresh.length > 0) {
      // The job planned no more rows than the licence had room for: each new one is covered.
      const covered = await quotaCoverage(tx);
      const ids = await tx
        .insert(enterprises)
        .values(
          fresh.map((r) => ({
            agencyId,
            qymc: r.values.qymc,
            qysh: r.values.qysh,
            qyxz: r.values.qyxz,
            sssf: r.values.sssf,
            ssds: r.values.ssds,
            ssqx: r.values.ssqx,
            address: r.values.address,
            fjh: r.values.fjh,
            remark: r.values.remark,
            gradeId: r.values.gradeId,
            allocateUser: r.values.allocateUser,
            ...covered,
          })),
        )
        .returning({ id: enterprises.id, qysh: enterprises.qysh });
      const idOf = new Map(ids.map((x) => [x.qysh, x.id]));
      const contacts = fresh.flatMap((r) => {
        const enterpriseId = idOf.get(r.values.qysh);
        return enterpriseId && r.values.contactName
          ? [{ agencyId, enterpriseId, name: r.values.contactName, mobile: r.values.contactMobile, isPrimary: true }]
          : [];
      });
      if (contacts.length > 0) await tx.insert(enterpriseContacts).values(contacts);
      const links = fresh.flatMap((r) => {
        const enterpriseId = idOf.get(r.values.qysh);
        return enterpriseId ? r.values.labelIds.map((labelId) => ({ agencyId, enterpriseId, labelId })) : [];
      });
      if (links.length > 0) await tx.insert(enterpriseLabels).values(links);
    }
  }
  const next: ImportProgress = {
    ...progress,
    phase: 'insert',
    done: progress.done + batch.length,
    late: [...progress.late, ...late],
  };
  await tx
    .update(jobs)
    .set({ progress: { ...next } })
    .where(eq(jobs.id, jobId));
  return next;
}

async function publish(deps: Deps, userId: number, jobId: number, p: ImportProgress, state: string) {
  try {
    await deps.push.publish([userId], {
      type: IMPORT_PUSH_TYPE,
      data: { jobId, state, total: p.total, done: p.done },
    });
  } catch {
    // The page polls as well.
  }
}

/**
 * The import job (queue customer-import): plan every row once (kept on disk, so a resumed job decides
 * the same), insert the good rows 500 at a time with the progress in the same transaction (a resumed
 * job goes on after the last committed batch), then write the failure file.
 */
export const importJob: JobHandler = {
  queue: IMPORT_QUEUE,
  perAgencyCap: 1,
  workers: 1,
  leaseSeconds: 30,
  maxAttempts: 3,
  async run(ctx) {
    const { deps, job } = ctx;
    const p = job.payload as unknown as ImportPayload;
    if (p.kind === 'password' || p.kind === 'shuiju') return passwordJob(ctx, p, p.kind);
    const dir = importDir(deps);
    const rowsFile = join(dir, `${job.agencyId}-${p.key}.rows.json`);
    const planFile = join(dir, `${job.agencyId}-${p.key}.plan.json`);

    let plan: PlannedRow[];
    if (existsSync(planFile)) {
      plan = JSON.parse(await readFile(planFile, 'utf8')) as PlannedRow[];
    } else {
      const rows = JSON.parse(await readFile(rowsFile, 'utf8')) as SheetRow[];
      const lk = await ctx.inTx((tx) => lookups(tx, job.agencyId, p));
      plan = planImport(rows, lk);
      await writeFile(planFile, JSON.stringify(plan), { mode: 0o640 });
    }
    let progress: ImportProgress = (await readProgress(ctx)) ?? {
      phase: 'plan',
      total: plan.length,
      done: 0,
      late: [],
    };
    if (progress.phase === 'plan') {
      progress = { phase: 'insert', total: plan.length, done: 0, late: [] };
      await ctx.setProgress({ ...progress });
    }
    while (progress.phase === 'insert' && progress.done < plan.length) {
      const batch = plan.slice(progress.done, progress.done + batchSize(deps));
      const current = progress;
      progress = await ctx.inTx((tx) => insertBatch(tx, job.agencyId, batch, current, job.id), p.userId);
      await publish(deps, p.userId, job.id, progress, 'running');
      await yieldToRequests();
    }

    const late = new Map(progress.late);
    const failed = plan.flatMap((r) => {
      const lateReason = late.get(r.line);
      if (r.status === 'ok' && lateReason === undefined) return [];
      return [
        {
          line: r.line,
          cells: r.cells,
          status: lateReason ? 'fail' : r.status,
          reason: lateReason ?? (r.status === 'ok' ? '' : r.reason),
        },
      ];
    });
    const failNum = failed.filter((r) => r.status === 'fail').length;
    const unExport = failed.filter((r) => r.status === 'skip').length;
    const successNum = plan.length - failNum - unExport;
    let redisKey = '';
    if (failed.length > 0) {
      await mkdir(dir, { recursive: true });
      redisKey = p.key;
      await writeXlsx(
        join(dir, failFileName(job, p.key)),
        '导入失败记录',
        ['行号', ...IMPORT_COLUMNS, '失败原因'],
        failed.map((r) => [String(r.line), ...IMPORT_COLUMNS.map((_, i) => r.cells[i] ?? ''), r.reason]),
        [8, 30, 22, 14, 12, 12, 12, 30, 10, 12, 20, 16, 12, 14, 20, 40],
      );
    }
    const result: ImportResult = { successNum, failNum, unExport, redisKey };
    await ctx.inTx(async (tx) => {
      await tx
        .update(jobs)
        .set({ progress: { ...progress, phase: 'report', done: plan.length } })
        .where(eq(jobs.id, job.id));
      await tx.insert(auditLog).values({
        agencyId: job.agencyId,
        userId: p.userId,
        action: 'customer.import',
        target: `job:${job.id}`,
        detail: { fileName: p.fileName, ...result },
        ip: '',
      });
    }, p.userId);
    await publish(deps, p.userId, job.id, { ...progress, done: plan.length }, 'done');
    await unlink(rowsFile).catch(() => undefined);
    await unlink(planFile).catch(() => undefined);
    return { ...result };
  },
};

interface PwdProgress {
  phase: 'insert' | 'report';
  total: number;
  done: number;
  successNum: number;
  failed: PwdFailure[];
}

const PWD_AUDIT: Record<PwdKind, string> = { password: 'customer.credential_import', shuiju: 'customer.shuiju_import' };

/** The failure file of a password import: 税局 ones under their own prefix. */
export const pwdFailFile = (kind: PwdKind, owner: FileOwner, key: string) =>
  failFileName(owner, kind === 'shuiju' ? `sj-${key}` : key);

/**
 * A password import (账号密码 or 税局密码) as a job: a batch of rows per transaction with the progress
 * (count, refused rows) committed in it, so a job taken again after a crash goes on after the last batch.
 * The refused rows end in a failure file without any password.
 */
async function passwordJob(ctx: JobContext, p: ImportPayload, kind: PwdKind) {
  const { deps, job } = ctx;
  const rowsFile = rowsFileOf(deps, job.agencyId, p.key);
  const rows = JSON.parse(decrypt(deps.config.secretKey, await readFile(rowsFile, 'utf8'))) as SheetRow[];
  const first = firstLines(rows);
  const saved = (await readProgress(ctx)) as unknown as PwdProgress | null;
  let progress: PwdProgress =
    saved && Array.isArray(saved.failed)
      ? saved
      : { phase: 'insert', total: rows.length, done: 0, successNum: 0, failed: [] };
  const size = batchSize(deps);
  while (progress.done < rows.length) {
    const batch = rows.slice(progress.done, progress.done + size);
    const current = progress;
    progress = await ctx.inTx(async (tx) => {
      const scope = await importerScope(tx, job.agencyId, p.userId, job.kjgcId);
      const r = await applyPasswordBatch(tx, kind, deps.config.secretKey, scope, batch, first);
      const next: PwdProgress = {
        ...current,
        done: current.done + batch.length,
        successNum: current.successNum + r.successNum,
        failed: [...current.failed, ...r.failed],
      };
      await tx
        .update(jobs)
        .set({ progress: { ...next } })
        .where(eq(jobs.id, job.id));
      return next;
    }, p.userId);
    await publish(
      deps,
      p.userId,
      job.id,
      { phase: 'insert', total: rows.length, done: progress.done, late: [] },
      'running',
    );
    await yieldToRequests();
  }
  let redisKey = '';
  if (progress.failed.length > 0) {
    await mkdir(importDir(deps), { recursive: true });
    redisKey = p.key;
    await writeXlsx(
      join(importDir(deps), pwdFailFile(kind, job, p.key)),
      kind === 'shuiju' ? '税局密码导入失败记录' : '账号密码导入失败记录',
      ['行号', '企业税号', '失败原因'],
      progress.failed.map((f) => [String(f.line), f.qysh, f.reason]),
      [8, 26, 50],
    );
  }
  const result: ImportResult = {
    successNum: progress.successNum,
    failNum: progress.failed.length,
    unExport: 0,
    redisKey,
  };
  await ctx.inTx(async (tx) => {
    await tx
      .update(jobs)
      .set({ progress: { ...progress, phase: 'report' } })
      .where(eq(jobs.id, job.id));
    await tx.insert(auditLog).values({
      agencyId: job.agencyId,
      userId: p.userId,
      action: PWD_AUDIT[kind],
      target: `job:${job.id}`,
      detail: { fileName: p.fileName, ...result },
      ip: '',
    });
  }, p.userId);
  await publish(deps, p.userId, job.id, { phase: 'report', total: rows.length, done: rows.length, late: [] }, 'done');
  await unlink(rowsFile).catch(() => undefined);
  return { ...result };
}
