import { PassThrough } from 'node:stream';
import {
  CODE,
  DATA_CONTRACT_STATES,
  DATA_FILING_STATES,
  DATA_LIST_EXPORT_MAX,
  DATA_LIST_FILES,
  dataListCall,
  dataListFilterSchema,
  hasPerm,
  MSG,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { listPage, NO_CURSORS, orderOf } from '../../db/paging.js';
import { enterprises } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Deps, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { ExcelJS, neutralise } from '../customer/xlsx.js';
import { dataItemsFor, dataListDay, dataListSort, dataListWhere } from './data-list.service.js';

const label = (list: readonly { value: string; label: string }[], v: string) =>
  list.find((x) => x.value === v)?.label ?? v;

export const dataListCalls = [
  serve(dataListCall, async ({ body, session, tx }) => {
    const { today, month } = dataListDay();
    if (session.agencyId === null) return { list: [], total: 0, cursor: NO_CURSORS, filingMonth: month };
    const agencyId = session.agencyId;
    const { pageNo, pageSize, cursor, ...filter } = body;
    const page = await listPage(
      tx,
      {
        from: sql`${enterprises}`,
        where: dataListWhere(session, agencyId, filter, today, month),
        sort: dataListSort(),
        ask: { pageNo, pageSize, cursor },
        filter: { ...filter, month },
      },
      (ids) => dataItemsFor(tx, agencyId, ids, today, month),
    );
    return { ...page, filingMonth: month };
  }),
];

const EXPORT_COLUMNS = [
  { header: '企业名称', width: 36 },
  { header: '企业税号', width: 24 },
  { header: '负责人', width: 12 },
  { header: '合同状态', width: 10 },
  { header: '合同到期日', width: 14 },
  { header: '欠费金额（元）', width: 16 },
  { header: '欠费月数', width: 10 },
  { header: '申报月份', width: 10 },
  { header: '本月申报', width: 10 },
  { header: '未申报税种数', width: 14 },
  { header: '未完成工单', width: 12 },
];

/** The .xlsx of the current filter, streamed as it is written (the customer export's mechanism). */
function dataListFileRoutes(app: FastifyInstance, deps: Deps) {
  app.post(`/api/${DATA_LIST_FILES.export}`, async (req: FastifyRequest, reply) => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    if (!hasPerm(session.perms, 'customer:data:export')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
    const s = session as SessionCtx & { agencyId: number };
    const parsed = dataListFilterSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const f = parsed.data;
    const { today, month } = dataListDay();
    const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scopeOf(s), fn);
    const ids = await scoped(async (tx) => {
      const rows = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(dataListWhere(s, s.agencyId, f, today, month))
        .orderBy(...orderOf(dataListSort()))
        .limit(DATA_LIST_EXPORT_MAX + 1);
      return rows.map((r) => r.id);
    });
    if (ids.length > DATA_LIST_EXPORT_MAX) {
      throw new AppError(CODE.BAD_REQUEST, `单次最多导出${DATA_LIST_EXPORT_MAX}条，请缩小筛选范围`);
    }
    await scoped((tx) =>
      audit(tx, req, s, 'data_list.export', `rows:${ids.length}`, { filter: f as Record<string, unknown> }),
    );
    const out = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet('数据列表', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    const stamp = today.replaceAll('-', '');
    const name = `数据列表_${stamp}.xlsx`;
    void reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .header('cache-control', 'private, no-store')
      .send(out);
    (async () => {
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        const items = await scoped((tx) => dataItemsFor(tx, s.agencyId, chunk, today, month));
        for (const e of items) {
          ws.addRow(
            [
              e.qymc,
              e.qysh,
              e.allocateUserName,
              label(DATA_CONTRACT_STATES, e.contractState),
              e.contractEnd ?? '',
              e.arrearsAmount,
              String(e.arrearsMonths),
              e.filingMonth,
              label(DATA_FILING_STATES, e.filingState),
              String(e.filingPending),
              String(e.openWorkOrders),
            ].map((v) => neutralise(String(v))),
          ).commit();
        }
      }
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      req.log.error({ err }, 'data list export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply;
  });
}

export const dataListModule: ServerModule = {
  name: 'data-list',
  calls: dataListCalls,
  routes: dataListFileRoutes,
};
