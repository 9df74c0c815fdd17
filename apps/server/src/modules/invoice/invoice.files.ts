import { PassThrough } from 'node:stream';
import {
  BENEFIT_MENU,
  buyerSchema,
  CODE,
  computeInvoice,
  hasPerm,
  IMPORT_MSG,
  INVOICE_BATCH_COLUMNS,
  INVOICE_BATCH_MAX_BYTES,
  INVOICE_BATCH_MAX_ROWS,
  INVOICE_EXPORT_MAX,
  INVOICE_ISSUE_QUEUE,
  INVOICE_OUT_FILES,
  INVOICE_OUT_MSG,
  type IssueLine,
  MSG,
  OUT_KIND_NAMES,
  OUT_STATE_NAMES,
  outFilterSchema,
  type PermKey,
  taxFenToYuan,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { orderOf } from '../../db/paging.js';
import { invoiceRequests, invoiceRuns, invoices } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { chinaDate, enqueue } from '../../plugins/jobs.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { agencyOf } from '../customer/customer.repo.js';
import { enforceEquity } from '../customer/customer.service.js';
import { ExcelJS, neutralise, readTableUpload } from '../customer/xlsx.js';
import {
  detailOf,
  findOutInvoice,
  invoiceBlock,
  invoiceClient,
  kpBody,
  requireIssuableMethod,
  rowsById,
} from './invoice.repo.js';
import { findRun, outWhere, sortOf } from './invoice.routes.js';
import { newRequest, userName } from './invoice.service.js';
import { invoicePdf } from './invoice-pdf.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (kind: 'attachment' | 'inline', name: string) =>
  `${kind}; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

async function guard(deps: Deps, req: FastifyRequest, perm: PermKey) {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  const agencyId = agencyOf(session as SessionCtx);
  const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, { ...scopeOf(session), agencyId }, fn);
  return { session: session as SessionCtx, agencyId, scoped };
}

/** A workbook streamed into the reply as it is written. */
function streamed(reply: FastifyReply, sheet: string, fileName: string, columns: { header: string; width: number }[]) {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns;
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  void reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', disposition('attachment', fileName))
    .header('cache-control', 'private, no-store')
    .send(out);
  return { wb, ws };
}

const cell = (v: string | number) => (typeof v === 'number' ? v : neutralise(v));
const money = (y: string) => Number(y);

/** '13%', '0.13', '13' or '免税' as a rate of the contract ('' when not one). */
function rateOf(v: string): string {
  const t = v.trim().replace('％', '%');
  if (t === '免税' || t === '免征') return 'mz';
  const n = t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t) >= 1 ? Number(t) / 100 : Number(t);
  const s = String(Number(n.toFixed(2)));
  return ['0.13', '0.09', '0.06', '0.05', '0.03', '0.01', '0'].includes(s) && t !== '' ? s : '';
}

type FileRow = { line: number; cells: string[] };

/** Groups the file's rows by 发票序号 into invoice forms, each checked as a form would be. */
function groupsOf(rows: FileRow[], kind: '0' | '1') {
  const bySeq = new Map<string, FileRow[]>();
  for (const r of rows) {
    const seq = (r.cells[0] ?? '').trim() || `行${r.line}`;
    bySeq.set(seq, [...(bySeq.get(seq) ?? []), r]);
  }
  return [...bySeq.entries()].map(([seq, group]) => {
    const first = group[0] as FileRow;
    const c = (r: FileRow, i: number) => (r.cells[i] ?? '').trim();
    const kindText = c(first, 1);
    const fplx: 'zp' | 'pp' | null =
      kindText.includes('专') || kindText === 'zp' ? 'zp' : kindText.includes('普') || kindText === 'pp' ? 'pp' : null;
    const buyer = buyerSchema.safeParse({ name: c(first, 2), taxNo: c(first, 3) });
    const lines: IssueLine[] = group.map((r) => ({
      ssflbm: c(r, 4),
      spmc: c(r, 5),
      ggxh: c(r, 6),
      dw: c(r, 7),
      sl: c(r, 8),
      dj: c(r, 9),
      je: c(r, 10).replace(/,/g, ''),
      slv: rateOf(c(r, 11)) as IssueLine['slv'],
    }));
    const bz = c(first, 12).slice(0, 200);
    let msg = '';
    if (!fplx) msg = '发票类型须为专票或普票';
    else if (!buyer.success) msg = buyer.error.issues[0]?.message ?? INVOICE_OUT_MSG.buyerTaxNo;
    else if (lines.some((l) => !l.slv)) msg = '税率须为13%、9%、6%、5%、3%、1%、0%或免税';
    else if (lines.length > 100) msg = INVOICE_OUT_MSG.tooManyLines;
    let computed = null;
    if (!msg && fplx) {
      const r = computeInvoice({ fplx, priceInclTax: true, lines }, kind);
      if (!r.ok) {
        const e = r.errors[0];
        msg = e ? `第${group[e.xh - 1]?.line ?? e.xh}行：${e.msg}` : INVOICE_OUT_MSG.noLines;
      } else computed = r.invoice;
    }
    return {
      seq,
      rows: group.map((r) => ({ line: r.line, cells: r.cells.slice(0, INVOICE_BATCH_COLUMNS.length) })),
      msg,
      form: computed && fplx && buyer.success ? { computed, fplx, bz, buyer: { ...buyer.data } } : null,
    };
  });
}

/**
 * The files of 销项发票: the list as .xlsx (xqExport, the page's filter), an invoice as PDF
 * (doInvoicePrintV2), and batch issuing: the template, the upload (checked at once; each invoice a
 * request committed before a job issues them) and the failure file.
 */
export function invoiceFileRoutes(app: FastifyInstance, deps: Deps) {
  app.post(`/api/${INVOICE_OUT_FILES.export}`, async (req, reply) => {
    const { session, agencyId, scoped } = await guard(deps, req, 'invoice:output:view');
    const parsed = outFilterSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const f = parsed.data;
    const { ent, rows } = await scoped(async (tx) => {
      const ent = await invoiceClient(tx, session, f.aeiId);
      const ids = (
        await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(outWhere(agencyId, ent, f))
          .orderBy(...orderOf(sortOf(f)))
          .limit(INVOICE_EXPORT_MAX)
      ).map((r) => r.id);
      const rows = [];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const got = new Map((await rowsById(tx, agencyId, chunk)).map((r) => [r.id, r]));
        rows.push(...chunk.flatMap((id) => got.get(id) ?? []));
      }
      await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.export', `enterprise:${ent.id}`, {
        month: f.month,
        rows: rows.length,
      });
      return { ent, rows };
    });
    const { wb, ws } = streamed(reply, '销项发票', `${ent.qymc}_销项发票_${f.month}.xlsx`, [
      { header: '发票号码', width: 24 },
      { header: '开票日期', width: 12 },
      { header: '发票类型', width: 8 },
      { header: '状态', width: 10 },
      { header: '购买方名称', width: 30 },
      { header: '购买方纳税人识别号', width: 22 },
      { header: '金额', width: 14 },
      { header: '税额', width: 12 },
      { header: '价税合计', width: 14 },
      { header: '税率', width: 10 },
      { header: '被红冲发票号码', width: 24 },
      { header: '开票人', width: 10 },
    ]);
    for (const r of rows) {
      const row = ws.addRow([
        cell(r.fphm),
        r.kprq,
        OUT_KIND_NAMES[r.fplx],
        OUT_STATE_NAMES[r.state],
        cell(r.gfmc),
        cell(r.gfsh),
        money(r.hjje),
        money(r.hjse),
        money(r.jshj),
        r.slv,
        cell(r.lzfphm),
        cell(r.kpr),
      ]);
      for (const i of [7, 8, 9]) row.getCell(i).numFmt = '#,##0.00';
      row.commit();
    }
    await wb.commit();
    return reply;
  });

  app.get<{ Params: { id: string } }>(`/api/${INVOICE_OUT_FILES.pdf}/:id`, async (req, reply) => {
    const { session, scoped } = await guard(deps, req, 'invoice:output:view');
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.notFound);
    const { detail, kpr } = await scoped(async (tx) => {
      const { inv, ent } = await findOutInvoice(tx, session, id);
      const detail = await detailOf(tx, inv, ent);
      return { detail, kpr: detail.kpr || (inv.issuedBy ? await userName(tx, inv.issuedBy) : '') };
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', disposition('inline', `${detail.fphm}.pdf`))
      .header('cache-control', 'private, no-store')
      .send(await invoicePdf(detail, kpr));
  });

  app.get(`/api/${INVOICE_OUT_FILES.batchTemplate}`, async (req, reply) => {
    await guard(deps, req, 'invoice:output:batch');
    const { wb, ws } = streamed(
      reply,
      '批量开票',
      '批量开票模板.xlsx',
      INVOICE_BATCH_COLUMNS.map((h) => ({ header: h, width: h.length > 6 ? 22 : 14 })),
    );
    const example = [
      [
        '1',
        '普票',
        '杭州示例贸易有限公司',
        '91330106MA2H3C0X1X',
        '3040201010000000000',
        '软件开发服务',
        '',
        '项',
        '1',
        '10600',
        '10600',
        '6%',
        '示例：同一发票序号的行开在一张发票上',
      ],
      [
        '1',
        '普票',
        '杭州示例贸易有限公司',
        '91330106MA2H3C0X1X',
        '3040802000000000000',
        '技术咨询',
        '',
        '',
        '',
        '',
        '530',
        '6%',
        '',
      ],
    ];
    for (const r of example) ws.addRow(r).commit();
    await wb.commit();
    return reply;
  });

  app.get<{ Params: { runId: string } }>(`/api/${INVOICE_OUT_FILES.batchFail}/:runId`, async (req, reply) => {
    const { session, agencyId, scoped } = await guard(deps, req, 'invoice:output:batch');
    const runId = Number(req.params.runId);
    if (!Number.isInteger(runId) || runId <= 0) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.runNotFound);
    const failed = await scoped(async (tx) => {
      const { run } = await findRun(tx, session, runId);
      return tx
        .select({ payload: invoiceRequests.payload, msg: invoiceRequests.msg })
        .from(invoiceRequests)
        .where(
          and(
            eq(invoiceRequests.agencyId, agencyId),
            eq(invoiceRequests.runId, run.id),
            eq(invoiceRequests.state, 'failed'),
          ),
        )
        .orderBy(invoiceRequests.id);
    });
    const { wb, ws } = streamed(reply, '批量开票失败记录', '批量开票失败记录.xlsx', [
      { header: '行号', width: 8 },
      ...INVOICE_BATCH_COLUMNS.map((h) => ({ header: h, width: 16 })),
      { header: '失败原因', width: 50 },
    ]);
    for (const f of failed) {
      const rows = ((f.payload as { rows?: FileRow[] }).rows ?? []) as FileRow[];
      for (const r of rows) ws.addRow([r.line, ...r.cells.map((c) => cell(c)), cell(f.msg)]).commit();
    }
    await wb.commit();
    return reply;
  });

  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: INVOICE_BATCH_MAX_BYTES, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });
    scope.post<{ Querystring: { aeiId?: string } }>(`/api/${INVOICE_OUT_FILES.batchUpload}`, async (req) => {
      const { session, agencyId, scoped } = await guard(deps, req, 'invoice:output:batch');
      const aeiId = Number(req.query.aeiId);
      if (!Number.isInteger(aeiId) || aeiId <= 0)
        throw new AppError(CODE.BAD_REQUEST, INVOICE_OUT_MSG.chooseEnterprise);
      const ent = await scoped(async (tx) => {
        const e = await invoiceClient(tx, session, aeiId);
        const blocked = await invoiceBlock(tx, e, chinaDate());
        if (blocked) throw new AppError(CODE.CONFLICT, blocked);
        await requireIssuableMethod(tx, e);
        await enforceEquity(tx, session, agencyId, BENEFIT_MENU.invoiceIssue, [e.id]);
        return e;
      });
      if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, IMPORT_MSG.noFile);
      let buf: Buffer;
      let fileName: string;
      try {
        const part = await req.file({ limits: { fileSize: INVOICE_BATCH_MAX_BYTES, files: 1 } });
        if (part?.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, IMPORT_MSG.noFile);
        buf = await part.toBuffer();
        fileName = (part.filename || 'file').slice(-120);
      } catch (err) {
        if (err instanceof AppError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(CODE.TOO_LARGE, IMPORT_MSG.tooLarge);
        throw new AppError(CODE.BAD_REQUEST, IMPORT_MSG.noFile);
      }
      const read = await readTableUpload(
        buf,
        fileName,
        INVOICE_BATCH_COLUMNS,
        INVOICE_BATCH_MAX_ROWS,
        `agency:${agencyId}`,
      );
      if (!read.ok) {
        const msg = {
          bad: IMPORT_MSG.badType,
          tooMany: `单次最多${INVOICE_BATCH_MAX_ROWS}行，请分批上传`,
          tooBig: IMPORT_MSG.tooBig,
          busy: IMPORT_MSG.busy,
          header: IMPORT_MSG.header,
          empty: INVOICE_OUT_MSG.batchEmpty,
        }[read.reason];
        throw new AppError(CODE.BAD_REQUEST, msg);
      }
      const groups = groupsOf(read.rows, ent.qyxz === '0' ? '0' : '1');
      if (groups.length === 0) throw new AppError(CODE.BAD_REQUEST, INVOICE_OUT_MSG.batchEmpty);
      const runId = await scoped(async (tx) => {
        const kpr = await userName(tx, session.userId);
        const [run] = await tx
          .insert(invoiceRuns)
          .values({ agencyId, userId: session.userId, kind: 'issue', totalNum: groups.length })
          .returning({ id: invoiceRuns.id });
        if (!run) throw new Error('invoice run insert returned nothing');
        for (const g of groups) {
          const payload = g.form
            ? {
                ...kpBody(g.form.computed, { fplx: g.form.fplx, bz: g.form.bz, buyer: g.form.buyer }, kpr),
                rows: g.rows,
              }
            : { parsed: false, rows: g.rows };
          await newRequest(tx, {
            agencyId,
            enterpriseId: ent.id,
            kind: 'blue',
            payload,
            createdBy: session.userId,
            runId: run.id,
            ...(g.form ? {} : { state: 'failed' as const, msg: g.msg }),
          });
        }
        const valid = groups.filter((g) => g.form);
        if (valid.length > 0) {
          await enqueue(tx, {
            agencyId,
            queue: INVOICE_ISSUE_QUEUE,
            key: String(run.id),
            payload: { runId: run.id, userId: session.userId },
          });
        } else {
          await tx.update(invoiceRuns).set({ state: 'done', finishedAt: new Date() }).where(eq(invoiceRuns.id, run.id));
        }
        await audit(tx, req, { agencyId, userId: session.userId }, 'invoice.batch_issue', `run:${run.id}`, {
          aeiId: ent.id,
          fileName,
          rows: read.rows.length,
          invoices: groups.length,
          refused: groups.length - valid.length,
          jshj: taxFenToYuan(valid.reduce((s, g) => s + (g.form?.computed.total ?? 0), 0)),
        });
        return run.id;
      });
      deps.wakeJobs();
      return { code: CODE.OK, msg: MSG.ok, data: { runId, total: groups.length } };
    });
  });
}
