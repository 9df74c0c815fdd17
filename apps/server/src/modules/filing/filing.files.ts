import { PassThrough } from 'node:stream';
import {
  CODE,
  FILING_EXPORT_MAX,
  FILING_FILES,
  FILING_MSG,
  FILING_STATE_NAMES,
  FILING_TAX_TYPE_SHORT,
  FILING_TAX_TYPES,
  filingFilterSchema,
  hasPerm,
  MSG,
  type PermKey,
  TAXPAYER_KIND_NAMES,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { inScope, type Tx } from '../../db/client.js';
import { orderOf } from '../../db/paging.js';
import { enterprises } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { ExcelJS, neutralise } from '../customer/xlsx.js';
import { agencyOf, monthOf, ROSTER_SORT, rosterFrom, rosterWhere, rowsFor } from './filing.repo.js';
import { scheduleOf } from './filing.schedule.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
const CHUNK = 500;

/** The caller of a file route with its permission and tenant; refusals as the calls give them. */
async function guard(deps: Deps, req: FastifyRequest, perm: PermKey) {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  const agencyId = agencyOf(session);
  const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, { ...scopeOf(session), agencyId }, fn);
  return { session: session as SessionCtx, agencyId, scoped };
}

/** A workbook streamed into the reply as it is written. */
function streamed(reply: FastifyReply, sheet: string, fileName: string, columns: { header: string; width: number }[]) {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
  ws.columns = columns;
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  void reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', disposition(fileName))
    .header('cache-control', 'private, no-store')
    .send(out);
  return { out, wb, ws };
}

const text = (v: string | number) => (typeof v === 'number' ? v : neutralise(v));
const dateTime = (iso: string | null) =>
  iso ? new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ') : '';

/**
 * 导出 of the roster (the page's filters, streamed as written, as the customer export) and of the
 * schedule (DeclareScheduleV3Export). The roster's ids are read first in list order, the rows then by id
 * in chunks; a money cell is a number with two decimals so the sheet can sum it.
 */
export function filingFileRoutes(app: FastifyInstance, deps: Deps) {
  app.post(`/api/${FILING_FILES.rosterExport}`, async (req, reply) => {
    const { session, agencyId, scoped } = await guard(deps, req, 'declare:roster:export');
    const parsed = filingFilterSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const f = parsed.data;
    const month = monthOf(f.filingMonth);
    const ids = await scoped(async (tx) => {
      const rows = (await tx.execute(
        sql`select ${enterprises.id} as id from ${rosterFrom(month, f)} where ${rosterWhere(session, f, month)}
            order by ${sql.join(orderOf(ROSTER_SORT), sql`, `)} limit ${FILING_EXPORT_MAX + 1}`,
      )) as unknown as { rows: { id: number }[] };
      return rows.rows.map((r) => Number(r.id));
    });
    if (ids.length > FILING_EXPORT_MAX) throw new AppError(CODE.BAD_REQUEST, FILING_MSG.exportTooMany);
    await scoped((tx) =>
      audit(tx, req, session, 'declare.roster.export', `rows:${ids.length}`, { filter: { ...f, filingMonth: month } }),
    );
    const columns = [
      { header: '企业名称', width: 36 },
      { header: '企业税号', width: 24 },
      { header: '纳税人类型', width: 14 },
      { header: '负责人', width: 12 },
      ...FILING_TAX_TYPES.flatMap((t) => [
        { header: `${FILING_TAX_TYPE_SHORT[t]}状态`, width: 12 },
        { header: `${FILING_TAX_TYPE_SHORT[t]}应补(退)税额`, width: 16 },
        { header: `${FILING_TAX_TYPE_SHORT[t]}申报期限`, width: 12 },
        { header: `${FILING_TAX_TYPE_SHORT[t]}申报日期`, width: 12 },
      ]),
      { header: '往期逾期未申报', width: 14 },
      { header: '最近同步', width: 18 },
      { header: '同步失败原因', width: 36 },
    ];
    const { out, wb, ws } = streamed(reply, `申报清册${month}`, `申报清册_${month}.xlsx`, columns);
    (async () => {
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const rows = await scoped((tx) => rowsFor(tx, agencyId, chunk, month));
        const byId = new Map(rows.map((r) => [r.aeiId, r]));
        for (const id of chunk) {
          const r = byId.get(id);
          if (!r) continue;
          ws.addRow(
            [
              r.qymc,
              r.qysh,
              TAXPAYER_KIND_NAMES[r.nsrlx],
              r.allocateUserName,
              ...FILING_TAX_TYPES.flatMap((t) => {
                const c = r.cells[t];
                if (!c) return ['', '', '', ''];
                return [FILING_STATE_NAMES[c.state], Number(c.ybtse), c.sbqx, c.sbrq];
              }),
              r.yqCount,
              dateTime(r.syncedAt),
              r.failMsg,
            ].map(text),
          ).commit();
        }
      }
      for (let c = 6; c < 4 + FILING_TAX_TYPES.length * 4; c += 4) ws.getColumn(c).numFmt = '#,##0.00';
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      req.log.error({ err }, 'roster export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply;
  });

  app.post(`/api/${FILING_FILES.scheduleExport}`, async (req, reply) => {
    const { session, scoped } = await guard(deps, req, 'declare:overview:view');
    const parsed = z.strictObject({ filingMonth: filingFilterSchema.shape.filingMonth }).safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const month = monthOf(parsed.data.filingMonth);
    const { list, sum } = await scoped(async (tx) => {
      const s = await scheduleOf(tx, session, month);
      await audit(tx, req, session, 'declare.schedule.export', `rows:${s.list.length}`, { filingMonth: month });
      return s;
    });
    const columns = [
      { header: '负责人', width: 16 },
      { header: '客户数', width: 10 },
      { header: '应申报', width: 10 },
      { header: '已申报', width: 10 },
      { header: '已缴款', width: 10 },
      { header: '未申报', width: 10 },
      { header: '逾期未申报', width: 12 },
      { header: '完成率(%)', width: 10 },
    ];
    const { out, wb, ws } = streamed(
      reply,
      `申报进度${month}`,
      `申报进度_${month}_${chinaDate().replaceAll('-', '')}.xlsx`,
      columns,
    );
    (async () => {
      for (const r of [...list, sum]) {
        ws.addRow(
          [r.userName, r.clientNum, r.dueNum, r.filedNum, r.paidNum, r.unfiledNum, r.overdueNum, r.percent].map(text),
        ).commit();
      }
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      req.log.error({ err }, 'schedule export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply;
  });
}
