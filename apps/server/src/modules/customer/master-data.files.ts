import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CODE,
  customerFilterSchema,
  IMPORT_MSG,
  MASTER_FILES,
  NEED_UPDATE_EXPORT_COLUMNS,
  SFBM_OPTIONS,
  SHUIJU_PWD_COLUMNS,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.js';
import { orderOf } from '../../db/paging.js';
import { enterpriseBureauDiffs, enterprises } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import {
  disposition,
  guard,
  queueImport,
  readUpload,
  scoped,
  sendFile,
  templateWorkbook,
  uploadedFile,
  XLSX_MIME,
} from './customer.files.js';
import { importDir, pwdFailFile } from './customer.jobs.js';
import { customerSort, customerWhere } from './customer.repo.js';
import { diffItems } from './master-data.routes.js';
import { ExcelJS, neutralise } from './xlsx.js';

const EXPORT_MAX = 50_000;
const SHUIJU_UPLOAD_MAX = 5 * 1024 * 1024;
const FAIL_GONE = '失败记录不存在或已过期';
/** 税局 failure files live beside the credentials import's, under their own prefix. */
const shuiJuFail = (owner: SessionCtx, key: string) => pwdFailFile('shuiju', owner, key);

/** The rows of the 需更新 export: one per difference, in the list's order, within the caller's data scope. */
export async function needUpdateRows(tx: Tx, s: SessionCtx & { agencyId: number }, body: unknown) {
  const parsed = customerFilterSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  const f = { ...parsed.data, needUpdate: '1' as const };
  const ids = (
    await tx
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(customerWhere(s, s.agencyId, f))
      .orderBy(...orderOf(customerSort(f)))
      .limit(EXPORT_MAX + 1)
  ).map((r) => r.id);
  if (ids.length > EXPORT_MAX) throw new AppError(CODE.BAD_REQUEST, `单次最多导出${EXPORT_MAX}条，请缩小筛选范围`);
  const rows: string[][] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const found = await tx
      .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh, d: enterpriseBureauDiffs })
      .from(enterprises)
      .innerJoin(
        enterpriseBureauDiffs,
        and(
          eq(enterpriseBureauDiffs.agencyId, enterprises.agencyId),
          eq(enterpriseBureauDiffs.enterpriseId, enterprises.id),
        ),
      )
      .where(and(eq(enterprises.agencyId, s.agencyId), inArray(enterprises.id, chunk)));
    const byId = new Map(found.map((r) => [r.id, r]));
    for (const id of chunk) {
      const r = byId.get(id);
      if (!r) continue;
      const at = new Date(r.d.checkedAt.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
      for (const d of diffItems(r.d.diffs)) rows.push([r.qymc, r.qysh, d.label, d.bookText, d.bureauText, at]);
    }
  }
  return { clients: ids.length, rows };
}

async function sendNeedUpdate(deps: Deps, req: FastifyRequest, reply: FastifyReply, body: unknown) {
  const s = await guard(deps, req, 'customer:export');
  const { clients, rows } = await scoped(deps, s, async (tx) => {
    const out = await needUpdateRows(tx, s, body);
    await audit(tx, req, s, 'customer.export_need_update', `rows:${out.clients}`, {});
    return out;
  });
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('需更新客户', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = NEED_UPDATE_EXPORT_COLUMNS.map((h, i) => ({ header: h, width: [36, 24, 14, 36, 36, 20][i] ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r.map((v) => neutralise(v)));
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', disposition(`需更新客户_${stamp}.xlsx`))
    .header('cache-control', 'private, no-store')
    .header('x-client-count', String(clients))
    .send(buf);
}

/** Downloads and the upload of the client master data (issue 19 points 1 and 2). */
export function masterDataFileRoutes(app: FastifyInstance, deps: Deps) {
  app.post(`/api/${MASTER_FILES.needUpdateExport}`, (req, reply) => sendNeedUpdate(deps, req, reply, req.body));
  app.get(`/api/${MASTER_FILES.needUpdateExport}`, (req, reply) => sendNeedUpdate(deps, req, reply, {}));

  app.get(`/api/${MASTER_FILES.shuiJuTemplate}`, async (req, reply) => {
    await guard(deps, req, 'customer:import');
    const buf = await templateWorkbook(
      '税局密码导入',
      SHUIJU_PWD_COLUMNS,
      [],
      [
        '按企业税号匹配您可见的客户，导入电子税务局的登录账号和密码；企业名称仅供核对。',
        `登录身份填：${SFBM_OPTIONS.map((o) => `${o.value} ${o.label}`).join('、')}；不填则不改动。`,
        '密码加密保存，导入后页面只显示******；失败的行可下载失败记录（不含密码）。',
      ],
    );
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition('税局密码导入模板.xlsx'))
      .send(buf);
  });

  app.get<{ Querystring: { redisKey?: string } }>(`/api/${MASTER_FILES.shuiJuFailList}`, async (req, reply) => {
    const s = await guard(deps, req, 'customer:import');
    const key = req.query.redisKey ?? '';
    if (!/^[0-9a-f]{32}$/.test(key)) throw new AppError(CODE.NOT_FOUND, FAIL_GONE);
    const file = join(importDir(deps), shuiJuFail(s, key));
    if (!(await stat(file).catch(() => null))) throw new AppError(CODE.NOT_FOUND, FAIL_GONE);
    return sendFile(reply, file, '批量导入税局密码失败记录.xlsx', XLSX_MIME);
  });

  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SHUIJU_UPLOAD_MAX, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });
    scope.post(`/api/${MASTER_FILES.shuiJuUpload}`, async (req) => {
      const s = await guard(deps, req, 'customer:import');
      const { buf, fileName } = await uploadedFile(req, SHUIJU_UPLOAD_MAX, {
        missing: IMPORT_MSG.noFile,
        tooLarge: IMPORT_MSG.tooLarge,
      });
      const rows = await readUpload(buf, fileName, SHUIJU_PWD_COLUMNS, s.agencyId);
      // A job of the customer-import queue, as the other two imports (customer.jobs.ts passwordJob).
      return queueImport(deps, req, s, 'shuiju', rows, fileName);
    });
  });
}
