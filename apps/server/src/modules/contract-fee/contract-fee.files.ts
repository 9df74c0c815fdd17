import { PassThrough } from 'node:stream';
import {
  CODE,
  FEE_EXPORT_MAX,
  FEE_FILES,
  FEE_MSG,
  FEE_STATUS_NAMES,
  feeExportBodySchema,
  hasPerm,
  MSG,
  PAY_METHOD_NAMES,
} from '@dzy/shared';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { orderOf } from '../../db/paging.js';
import { charges, receivables } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { ExcelJS, neutralise } from '../customer/xlsx.js';
import {
  agencyOf,
  chargeQuery,
  chargeSort,
  chargeTotals,
  chargeWhere,
  feeAccessOf,
  feeFrom,
  receivableQuery,
  receivableSort,
  receivableTotals,
  receivableWhere,
  toChargeItem,
  toReceivableItem,
} from './contract-fee.repo.js';
import { arrearsOf, feeToday } from './contract-fee.service.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
const CHUNK = 1000;

const RECEIVABLE_COLUMNS = [
  { header: '企业名称', width: 36 },
  { header: '企业税号', width: 24 },
  { header: '合同编号', width: 18 },
  { header: '账期', width: 8 },
  { header: '服务期间', width: 26 },
  { header: '应收日期', width: 12 },
  { header: '应收金额（元）', width: 16 },
  { header: '已收金额（元）', width: 16 },
  { header: '未收金额（元）', width: 16 },
  { header: '收款状态', width: 12 },
  { header: '欠费月数', width: 10 },
  { header: '合同负责人', width: 12 },
];
const CHARGE_COLUMNS = [
  { header: '收款日期', width: 12 },
  { header: '企业名称', width: 36 },
  { header: '企业税号', width: 24 },
  { header: '合同编号', width: 18 },
  { header: '账期', width: 8 },
  { header: '收款金额（元）', width: 16 },
  { header: '收款方式', width: 12 },
  { header: '付款人', width: 16 },
  { header: '收据编号', width: 16 },
  { header: '备注', width: 24 },
  { header: '登记人', width: 12 },
  { header: '登记时间', width: 20 },
  { header: '状态', width: 10 },
];

/** The column index (0-based) of the money columns, where the 合计 row puts its sums. */
const RECEIVABLE_MONEY = [6, 7, 8];
const CHARGE_MONEY = [5];

/** Money cells are written as numbers (two decimals shown) so the sheet can sum them; exact below 2^53 fen. */
const money = (yuan: string) => Number(yuan);

/**
 * 导出 of the fee list: the tab's current filter, streamed as it is written, with a 合计 row at the end
 * (business.md §5: the label 合计, money totals over the whole filter, dashes elsewhere from column 4).
 */
export function feeFileRoutes(app: FastifyInstance, deps: Deps) {
  app.post(`/api/${FEE_FILES.export}`, async (req, reply) => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    if (!hasPerm(session.perms, 'fee:export')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    const agencyId = agencyOf(session);
    const parsed = feeExportBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const body = parsed.data;
    const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, { ...scopeOf(session), agencyId }, fn);
    const today = feeToday();

    // The rows' ids in the list's order and the totals, first; the rows are then read in chunks by id.
    const { ids, totals } = await scoped(async (tx) => {
      const a = await feeAccessOf(tx, session as SessionCtx);
      if (body.tab === 'receivable') {
        const where = receivableWhere(a, body, today);
        const rows = await receivableQuery(tx, a, where)
          .orderBy(...orderOf(receivableSort(body)))
          .limit(FEE_EXPORT_MAX + 1);
        return {
          ids: rows.map((r) => r.id),
          totals: (await receivableTotals(tx, feeFrom('receivables', a, body), where)).totals,
        };
      }
      const where = chargeWhere(a, body);
      const rows = await chargeQuery(tx, a, where)
        .orderBy(...orderOf(chargeSort(body)))
        .limit(FEE_EXPORT_MAX + 1);
      const t = await chargeTotals(tx, feeFrom('charges', a, body), where);
      return { ids: rows.map((r) => r.id), totals: { amount: t.totals.amount, paid: '', unpaid: '' } };
    });
    if (ids.length > FEE_EXPORT_MAX) throw new AppError(CODE.BAD_REQUEST, FEE_MSG.exportTooMany);
    await scoped((tx) =>
      audit(tx, req, session, 'fee.export', `rows:${ids.length}`, { filter: body as Record<string, unknown> }),
    );

    const receivable = body.tab === 'receivable';
    const columns = receivable ? RECEIVABLE_COLUMNS : CHARGE_COLUMNS;
    const sheetName = receivable ? '应收' : '收款记录';
    const out = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = columns.map((c) => ({ header: c.header, width: c.width }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    const stamp = today.replaceAll('-', '');
    void reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition(`收费列表_${sheetName}_${stamp}.xlsx`))
      .header('cache-control', 'private, no-store')
      .send(out);

    const text = (v: string | number) => (typeof v === 'number' ? v : neutralise(v));
    (async () => {
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const lines = await scoped(async (tx) => {
          const a = await feeAccessOf(tx, session as SessionCtx);
          if (receivable) {
            const rows = await receivableQuery(tx, a, inArray(receivables.id, chunk));
            const arrears = await arrearsOf(tx, [...new Set(rows.map((r) => r.enterpriseId))], today);
            const byId = new Map(rows.map((r) => [r.id, toReceivableItem(r, today, arrears.get(r.enterpriseId) ?? 0)]));
            return chunk.flatMap((id) => {
              const r = byId.get(id);
              if (!r) return [];
              return [
                [
                  r.qymc,
                  r.qysh,
                  r.contractNo,
                  `第${r.periodNo}期`,
                  `${r.periodStart} 至 ${r.periodEnd}`,
                  r.dueDate,
                  money(r.amount),
                  money(r.paid),
                  money(r.unpaid),
                  FEE_STATUS_NAMES[r.feeStatus] ?? '',
                  r.qfys,
                  r.contractUserName,
                ],
              ];
            });
          }
          const rows = await chargeQuery(tx, a, inArray(charges.id, chunk));
          const byId = new Map(rows.map((r) => [r.id, toChargeItem(r)]));
          return chunk.flatMap((id) => {
            const c = byId.get(id);
            if (!c) return [];
            return [
              [
                c.payDate,
                c.qymc,
                c.qysh,
                c.contractNo,
                `第${c.periodNo}期`,
                money(c.amount),
                PAY_METHOD_NAMES[c.payMethod] ?? c.payMethod,
                c.payer,
                c.receiptNo,
                c.remark,
                c.operatorName,
                c.createdAt.slice(0, 19).replace('T', ' '),
                c.revoked ? '已撤销' : '有效',
              ],
            ];
          });
        });
        for (const line of lines) {
          const row = ws.addRow(line.map(text));
          for (const idx of receivable ? RECEIVABLE_MONEY : CHARGE_MONEY) row.getCell(idx + 1).numFmt = '#,##0.00';
          row.commit();
        }
      }
      // 合计: label first, money totals in their columns, dashes from column index 4 elsewhere.
      const moneyCols = receivable ? RECEIVABLE_MONEY : CHARGE_MONEY;
      const sums = receivable ? [totals.amount, totals.paid, totals.unpaid] : [totals.amount];
      const sumRow = columns.map((_, idx): string | number => {
        if (idx === 0) return '合计';
        const at = moneyCols.indexOf(idx);
        if (at >= 0) return money(sums[at] ?? '0');
        return idx >= 4 ? '-' : '';
      });
      const row = ws.addRow(sumRow);
      row.font = { bold: true };
      for (const idx of moneyCols) row.getCell(idx + 1).numFmt = '#,##0.00';
      row.commit();
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      req.log.error({ err }, 'fee export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply;
  });
}
