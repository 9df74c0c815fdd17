import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  BOOK_FILES,
  BOOK_MSG,
  CODE,
  hasPerm,
  MSG,
  type PermKey,
  VOUCHER_IMPORT_COLUMNS,
  VOUCHER_IMPORT_MAX_BYTES,
  VOUCHER_IMPORT_MAX_ROWS,
  VOUCHER_IMPORT_QUEUE,
  type VoucherImportStart,
  yuanTextToFen,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { bookAccounts, bookAuxItems, jobs } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { hasInvalidText } from '../../plugins/security.js';
import { fileOwner, resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { ExcelJS, isTableUpload, readTableUpload } from '../customer/xlsx.js';
import { createVoucher, type VoucherLineInput } from '../voucher-store/voucher-store.js';
import { findBook } from './books.repo.js';

type Agent = SessionCtx & { agencyId: number };

async function guard(deps: Deps, req: FastifyRequest, perm: PermKey): Promise<Agent> {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return session as Agent;
}

const scoped = <T>(deps: Deps, s: Agent, fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scopeOf(s), fn);

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
export const importDir = (deps: Pick<Deps, 'config'>) => resolve(deps.config.dataDir, 'uploads', 'voucher-import');
export const failName = (owner: { agencyId: number | null; kjgcId: number | null }, key: string) =>
  `${fileOwner(owner)}-${key}.xlsx`;
/** The parsed rows waiting for their import job. */
export const rowsFileName = (agencyId: number, key: string) => `${agencyId}-${key}.rows.json`;

export interface SheetRow {
  line: number;
  cells: string[];
}

/** Groups the sheet's rows into vouchers (same 日期 and 凭证号, in file order) and saves each through the store. */
export async function importVoucherRows(
  tx: Tx,
  ctx: { agencyId: number; userId: number },
  bookId: number,
  rows: readonly SheetRow[],
): Promise<{ vouchers: number; failed: { row: SheetRow; msg: string }[] }> {
  const accounts = await tx.select().from(bookAccounts).where(eq(bookAccounts.bookId, bookId));
  const byCode = new Map(accounts.map((a) => [a.code, a]));
  const aux = await tx.select().from(bookAuxItems).where(eq(bookAuxItems.bookId, bookId));
  const groups = new Map<string, SheetRow[]>();
  for (const r of rows) {
    const key = `${(r.cells[0] ?? '').trim()}|${(r.cells[1] ?? '').trim()}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const failed: { row: SheetRow; msg: string }[] = [];
  let made = 0;
  for (const group of groups.values()) {
    const fail = (msg: string) => {
      for (const row of group) failed.push({ row, msg });
    };
    const first = group[0] as SheetRow;
    const vdate = normDate(first.cells[0] ?? '');
    if (!vdate) {
      fail('日期须为yyyy-MM-dd');
      continue;
    }
    if (!(first.cells[1] ?? '').trim()) {
      fail('请填写凭证号');
      continue;
    }
    const attachments = Number((first.cells[2] ?? '').trim() || '0');
    const lines: VoucherLineInput[] = [];
    let problem = '';
    for (const r of group) {
      const [, , , summary = '', code = '', auxCode = '', debitText = '', creditText = ''] = r.cells.map((c) =>
        c.trim(),
      );
      const acc = byCode.get(code);
      if (!acc) {
        problem = `第${r.line}行：科目编码${code || '（空）'}不存在`;
        break;
      }
      const debit = yuanTextToFen(debitText);
      const credit = yuanTextToFen(creditText);
      if (debit === null || credit === null) {
        problem = `第${r.line}行：金额须为数字，最多两位小数`;
        break;
      }
      let auxItemId = 0;
      if (auxCode) {
        const item = aux.find((x) => x.code === auxCode && acc.auxKinds.includes(x.kind));
        if (!item) {
          problem = `第${r.line}行：辅助核算编码${auxCode}不存在`;
          break;
        }
        auxItemId = item.id;
      }
      lines.push({ summary, accountId: acc.id, auxItemId, debit, credit });
    }
    if (problem) {
      fail(problem);
      continue;
    }
    try {
      await createVoucher(tx, ctx, bookId, {
        vdate,
        attachments: Number.isInteger(attachments) ? attachments : -1,
        source: 'import',
        lines,
      });
      made++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // The store's messages count lines within the voucher: say which sheet rows they are.
      fail(`${err.message}（表格第${group.map((g) => g.line).join('、')}行）`);
    }
  }
  return { vouchers: made, failed };
}

/** 2026-03-05, 2026/3/5, 20260305 → 2026-03-05; null otherwise. */
function normDate(text: string): string | null {
  const t = text.trim();
  const m = /^(\d{4})[-/.年]?(\d{1,2})[-/.月]?(\d{1,2})日?$/.exec(t);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function bookFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: VOUCHER_IMPORT_MAX_BYTES, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });
    scope.post<{ Querystring: { bookId?: string } }>(`/api/${BOOK_FILES.importUpload}`, async (req) => {
      const s = await guard(deps, req, 'account:voucher:import');
      const bookId = Number(req.query.bookId);
      if (!Number.isInteger(bookId) || bookId <= 0) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.bookNotFound);
      if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.importNoFile);
      let buf: Buffer;
      let fileName: string;
      try {
        const part = await req.file({ limits: { fileSize: VOUCHER_IMPORT_MAX_BYTES, files: 1 } });
        if (part?.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.importNoFile);
        buf = await part.toBuffer();
        if (hasInvalidText(part.filename)) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
        fileName = basename(part.filename || 'file');
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
          throw new AppError(CODE.TOO_LARGE, BOOK_MSG.importTooLarge);
        if (err instanceof AppError) throw err;
        throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.importNoFile);
      }
      if (!isTableUpload(buf, fileName)) throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.importBadType);
      // The book is checked (tenant and data scope) before the file is read.
      await scoped(deps, s, (tx) => findBook(tx, s, bookId));
      const read = await readTableUpload(
        buf,
        fileName,
        VOUCHER_IMPORT_COLUMNS,
        VOUCHER_IMPORT_MAX_ROWS,
        `agency:${s.agencyId}`,
      );
      if (!read.ok) {
        const msg = {
          bad: BOOK_MSG.importBadType,
          tooMany: BOOK_MSG.importTooMany,
          tooBig: BOOK_MSG.importTooLarge,
          busy: BOOK_MSG.importBusy,
          header: BOOK_MSG.importHeader,
          empty: BOOK_MSG.importEmpty,
        }[read.reason];
        throw new AppError(CODE.BAD_REQUEST, msg);
      }
      // The rows wait on disk for the import job (books.jobs.ts), which saves the vouchers in chunks and
      // writes the failure file; the page follows it through books/voucher/importProgress.
      const key = randomBytes(16).toString('hex');
      await mkdir(importDir(deps), { recursive: true });
      await writeFile(join(importDir(deps), rowsFileName(s.agencyId, key)), JSON.stringify(read.rows));
      const jobId = await scoped(deps, s, async (tx) => {
        const [job] = await tx
          .insert(jobs)
          .values({
            agencyId: s.agencyId,
            queue: VOUCHER_IMPORT_QUEUE,
            key,
            payload: { key, bookId, userId: s.userId, total: read.rows.length },
          })
          .returning({ id: jobs.id });
        await audit(tx, req, s, 'account.voucher.import', String(bookId), { fileName, rows: read.rows.length });
        return job?.id ?? 0;
      });
      deps.wakeJobs();
      const data: VoucherImportStart = { jobId, total: read.rows.length };
      return { code: CODE.OK, msg: MSG.ok, data };
    });
  });

  app.get(`/api/${BOOK_FILES.importTemplate}`, async (req, reply) => {
    await guard(deps, req, 'account:voucher:import');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('凭证导入', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = VOUCHER_IMPORT_COLUMNS.map((c) => ({ header: c, width: c.includes('摘要') ? 30 : 14 }));
    ws.getRow(1).font = { bold: true };
    for (let c = 1; c <= VOUCHER_IMPORT_COLUMNS.length; c++) ws.getColumn(c).numFmt = '@';
    ws.addRow(['2026-01-05', '1', '1', '提现备用', '1001', '', '5000.00', '']);
    ws.addRow(['2026-01-05', '1', '1', '提现备用', '1002', '', '', '5000.00']);
    const help = wb.addWorksheet('填写说明');
    help.getColumn(1).width = 100;
    for (const n of [
      '每行一条分录；日期和凭证号相同的行组成一张凭证，凭证号只用于分组，保存时按期间顺序重新编号。',
      '科目编码须为本账套的末级科目；有辅助核算的科目须填辅助核算编码。',
      '借方金额、贷方金额只填一方，单位元，最多两位小数；每张凭证借贷合计须相等。',
      `单次最多${VOUCHER_IMPORT_MAX_ROWS}行，文件不超过2MB；请勿修改表头，导入前删除示例行。`,
    ])
      help.addRow([n]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition('凭证导入模板.xlsx'))
      .send(buf);
  });

  app.get<{ Querystring: { key?: string } }>(
    `/api/${BOOK_FILES.importFailList}`,
    async (req: FastifyRequest<{ Querystring: { key?: string } }>, reply: FastifyReply) => {
      const s = await guard(deps, req, 'account:voucher:import');
      const key = req.query.key ?? '';
      if (!/^[0-9a-f]{32}$/.test(key)) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      const file = join(importDir(deps), failName(s, key));
      if (!(await stat(file).catch(() => null))) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      return reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', disposition('凭证导入失败记录.xlsx'))
        .header('cache-control', 'private, no-store')
        .send(createReadStream(file));
    },
  );
}
