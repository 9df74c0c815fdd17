import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { VOUCHER_IMPORT_COLUMNS, VOUCHER_IMPORT_QUEUE, type VoucherImportResult } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { jobs } from '../../db/schema/index.js';
import type { JobHandler } from '../../plugins/jobs.js';
import { writeXlsx } from '../customer/xlsx.js';
import { failName, importDir, importVoucherRows, rowsFileName, type SheetRow } from './books.files.js';

/** The job's payload: the parsed rows wait on disk (`<agency>-<key>.rows.json`), not in the jobs table. */
export interface VoucherImportPayload {
  key: string;
  bookId: number;
  userId: number;
  total: number;
}

/** What a chunk's transaction records with its vouchers: so a retaken job goes on where it stopped. */
interface Progress {
  total: number;
  done: number;
  vouchers: number;
  failed: { row: SheetRow; msg: string }[];
}

/** Vouchers saved per transaction (and the progress the page polls moves by as much). */
const VOUCHERS_PER_CHUNK = 50;

/**
 * A voucher .xlsx import (docs/decisions-16-close.md): the sheet's vouchers are saved through the voucher store
 * in chunks; each chunk's transaction also records how far the import got, so a worker that dies mid-way
 * leaves whole chunks and the job taken again starts after them (no voucher saved twice). At the end the
 * failure file is written and the result recorded.
 */
export const voucherImportJob: JobHandler = {
  queue: VOUCHER_IMPORT_QUEUE,
  perAgencyCap: 2,
  workers: 1,
  leaseSeconds: 60,
  maxAttempts: 3,
  async run(ctx) {
    const p = ctx.job.payload as unknown as VoucherImportPayload;
    const agencyId = ctx.job.agencyId;
    const file = join(importDir(ctx.deps), rowsFileName(agencyId, p.key));
    const rows = JSON.parse(await readFile(file, 'utf8')) as SheetRow[];
    // Rows of one voucher (same 日期 and 凭证号) stay together, in file order.
    const groups = new Map<string, SheetRow[]>();
    for (const r of rows) {
      const key = `${(r.cells[0] ?? '').trim()}|${(r.cells[1] ?? '').trim()}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const list = [...groups.values()];
    const [row] = await ctx.inTx((tx) =>
      tx.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, ctx.job.id)),
    );
    const saved = row?.progress as (Progress & { groups?: number }) | null | undefined;
    let progress: Progress & { groups: number } = saved?.groups
      ? { ...saved, groups: saved.groups }
      : { total: rows.length, done: 0, vouchers: 0, failed: [], groups: 0 };
    while (progress.groups < list.length) {
      const chunk = list.slice(progress.groups, progress.groups + VOUCHERS_PER_CHUNK);
      progress = await ctx.inTx(async (tx) => {
        const out = await importVoucherRows(tx, { agencyId, userId: p.userId }, p.bookId, chunk.flat());
        const next = {
          total: rows.length,
          done: progress.done + chunk.reduce((n, g) => n + g.length, 0),
          vouchers: progress.vouchers + out.vouchers,
          failed: [...progress.failed, ...out.failed],
          groups: progress.groups + chunk.length,
        };
        await tx.update(jobs).set({ progress: next }).where(eq(jobs.id, ctx.job.id));
        return next;
      }, p.userId);
    }
    let failKey = '';
    if (progress.failed.length > 0) {
      failKey = p.key;
      await writeXlsx(
        join(importDir(ctx.deps), failName(ctx.job, failKey)),
        '导入失败',
        [...VOUCHER_IMPORT_COLUMNS, '失败原因'],
        progress.failed.map((f) => [...VOUCHER_IMPORT_COLUMNS.map((_, i) => f.row.cells[i] ?? ''), f.msg]),
      );
    }
    const result: VoucherImportResult = {
      total: rows.length,
      vouchers: progress.vouchers,
      failNum: progress.failed.length,
      failKey,
    };
    await ctx.inTx((tx) => ctx.doneIn(tx, result), p.userId);
    await unlink(file).catch(() => undefined);
    return result;
  },
};
