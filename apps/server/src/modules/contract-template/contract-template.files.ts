import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  CODE,
  CONTRACT_TEMPLATE_FILES,
  hasPerm,
  JOB_TYPES,
  MSG,
  type PermKey,
  SERVICE_IMPORT_COLUMNS,
  SERVICE_IMPORT_MAX_ROWS,
  TEMPLATE_IMPORT_COLUMNS,
  TEMPLATE_IMPORT_MAX_BYTES,
  TEMPLATE_IMPORT_MAX_ROWS,
  TEMPLATE_IMPORT_MSG,
  type TemplateImportResult,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { contractTemplates, serviceItems } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { hasInvalidText } from '../../plugins/security.js';
import { fileOwner, resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { ExcelJS, readTableUpload, writeXlsx } from '../customer/xlsx.js';
import { type FailedRow, planServiceImport, planTemplateImport, type SheetRow } from './contract-template.import.js';
import { writeTemplatesBulk } from './contract-template.service.js';

type Agent = SessionCtx & { agencyId: number };

/** The caller of a plain route, with the permission it needs and an agency; refusals as the calls give them. */
async function guard(deps: Deps, req: FastifyRequest, perm: PermKey): Promise<Agent> {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return session as Agent;
}

const scoped = <T>(deps: Deps, s: Agent, fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scopeOf(s), fn);

export const templateImportDir = (deps: Pick<Deps, 'config'>) =>
  resolve(deps.config.dataDir, 'uploads', 'contract-template-import');
const failFile = (owner: SessionCtx, kind: 'temp' | 'service', key: string) =>
  `${kind}-${fileOwner(owner)}-${key}.xlsx`;

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

const sendXlsx = (reply: FastifyReply, body: Buffer | ReturnType<typeof createReadStream>, name: string) =>
  reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', disposition(name))
    .header('cache-control', 'private, no-store')
    .send(body);

/**
 * The one uploaded file (field `file`), read and checked: type, size, header, rows. The template file is .xlsx
 * only, by the spec (business.md, 模板导入: 文件格式有误，请检查后再上传!); the service items' may be a .csv too.
 */
async function readUpload(
  req: FastifyRequest,
  columns: readonly string[],
  maxRows: number,
  agencyId: number,
  accept: 'table' | 'xlsx',
): Promise<SheetRow[]> {
  if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, TEMPLATE_IMPORT_MSG.noFile);
  let buf: Buffer;
  let fileName: string;
  try {
    // Every part is read, so that a second file is refused rather than silently dropped.
    let got: { buf: Buffer; fileName: string } | null = null;
    for await (const part of req.parts({ limits: { fileSize: TEMPLATE_IMPORT_MAX_BYTES, files: 2 } })) {
      if (part.type !== 'file') continue;
      if (got || part.fieldname !== 'file') {
        await part.toBuffer();
        throw new AppError(CODE.BAD_REQUEST, got ? TEMPLATE_IMPORT_MSG.oneFile : TEMPLATE_IMPORT_MSG.noFile);
      }
      if (hasInvalidText(part.filename)) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
      got = { buf: await part.toBuffer(), fileName: basename(part.filename || 'file') };
    }
    if (!got) throw new AppError(CODE.BAD_REQUEST, TEMPLATE_IMPORT_MSG.noFile);
    buf = got.buf;
    fileName = got.fileName;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(CODE.TOO_LARGE, TEMPLATE_IMPORT_MSG.tooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError(CODE.BAD_REQUEST, TEMPLATE_IMPORT_MSG.oneFile);
    }
    if (err instanceof AppError) throw err;
    throw new AppError(CODE.BAD_REQUEST, TEMPLATE_IMPORT_MSG.noFile);
  }
  const read = await readTableUpload(buf, fileName, columns, maxRows, `agency:${agencyId}`, accept);
  if (read.ok) return read.rows;
  const msg = {
    bad: TEMPLATE_IMPORT_MSG.badType,
    tooMany: TEMPLATE_IMPORT_MSG.tooManyRows(maxRows),
    tooBig: TEMPLATE_IMPORT_MSG.tooBig,
    busy: TEMPLATE_IMPORT_MSG.busy,
    header: TEMPLATE_IMPORT_MSG.header,
    empty: TEMPLATE_IMPORT_MSG.empty,
  }[read.reason];
  throw new AppError(CODE.BAD_REQUEST, msg);
}

/** Writes the failure file (the original columns, the row number and the reason); returns its key. */
async function writeFailures(
  deps: Deps,
  s: Agent,
  kind: 'temp' | 'service',
  columns: readonly string[],
  rows: readonly FailedRow[],
): Promise<string> {
  if (rows.length === 0) return '';
  const key = randomBytes(16).toString('hex');
  const dir = templateImportDir(deps);
  await mkdir(dir, { recursive: true });
  await writeXlsx(
    join(dir, failFile(s, kind, key)),
    kind === 'temp' ? '合同模板导入失败记录' : '服务项目导入失败记录',
    [...columns, '行号', '失败原因'],
    rows.map((r) => [...columns.map((_, i) => r.cells[i] ?? ''), String(r.line), r.reason]),
    [...columns.map(() => 16), 8, 44],
  );
  return key;
}

async function staticWorkbook(
  sheet: string,
  columns: readonly string[],
  examples: string[][],
  notes: readonly string[],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c, width: Math.max(14, c.length * 3 + 4) }));
  ws.getRow(1).font = { bold: true };
  for (let c = 1; c <= columns.length; c++) ws.getColumn(c).numFmt = '@';
  for (const e of examples) ws.addRow(e);
  const help = wb.addWorksheet('填写说明');
  help.getColumn(1).width = 100;
  for (const n of notes) help.addRow([n]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** htmb_temp.xlsx: one row per template line, rows of one template share its name. */
export const htmbTemplate = () =>
  staticWorkbook(
    '合同模板',
    TEMPLATE_IMPORT_COLUMNS,
    [
      ['小规模全年套餐', '小规模纳税人记账报税全年服务', '记账报税', '否', '3600.00', '600.00'],
      ['小规模全年套餐', '', '工商年报', '是', '200.00', '0.00'],
      ['一般纳税人套餐', '含个税申报', '记账报税', '否', '9600.00', '0.00'],
      ['一般纳税人套餐', '', '个税申报', '否', '600.00', '100.00'],
    ],
    [
      ...TEMPLATE_IMPORT_MSG.notes.map((n, i) => `${i + 1}. ${n}。`),
      '5. 服务项目须为本机构“服务项目”页面中已启用的名称。',
      '6. 是否赠送填“是”或“否”，不填为否；单价、优惠为金额（元），最多两位小数、不超过10位；优惠不填为0，不能大于单价。',
      '7. 模板名称不超过10个字符，模板说明不超过50个字符（取该模板第一行填写的说明）。',
      '8. 一个模板中任意一行有误，整个模板不导入，该模板的所有行都会列入失败记录。',
      '9. 示例行请在导入前删除。',
    ],
  );

export const fwxmTemplate = () =>
  staticWorkbook(
    '服务项目',
    SERVICE_IMPORT_COLUMNS,
    [['记账报税', '记账', '记账', '300.00', '启用']],
    [
      '1. 服务名称必填，不超过20个字符；服务名称相同的将更新已有服务项目。',
      '2. 服务简称不超过10个字符。',
      `3. 业务类型填：${JOB_TYPES.map((j) => j.label).join('、')}。`,
      '4. 单价为金额（元），最多两位小数、不超过10位。',
      '5. 状态填“启用”或“停用”，不填为启用。',
      '6. 请勿修改表头；示例行请在导入前删除。',
    ],
  );

export function contractTemplateFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: TEMPLATE_IMPORT_MAX_BYTES, files: 2, fields: 5, headerPairs: 50, parts: 6 },
    });

    scope.post(`/api/${CONTRACT_TEMPLATE_FILES.templateImport}`, async (req) => {
      const s = await guard(deps, req, 'contract:template:import');
      const rows = await readUpload(req, TEMPLATE_IMPORT_COLUMNS, TEMPLATE_IMPORT_MAX_ROWS, s.agencyId, 'xlsx');
      const plan = await scoped(deps, s, async (tx) => {
        const services = await tx
          .select({ id: serviceItems.id, name: serviceItems.serviceName, serviceStatic: serviceItems.serviceStatic })
          .from(serviceItems)
          .where(eq(serviceItems.agencyId, s.agencyId));
        const names = [...new Set(rows.map((r) => (r.cells[0] ?? '').trim()).filter(Boolean))];
        const existing = new Map<string, number>();
        for (let i = 0; i < names.length; i += 1000) {
          const hits = await tx
            .select({ id: contractTemplates.id, name: contractTemplates.tempName })
            .from(contractTemplates)
            .where(
              and(
                eq(contractTemplates.agencyId, s.agencyId),
                inArray(contractTemplates.tempName, names.slice(i, i + 1000)),
              ),
            );
          for (const h of hits) existing.set(h.name, h.id);
        }
        const p = planTemplateImport(rows, new Map(services.map((v) => [v.name, v])), existing);
        // Every template was checked in full above: what is written now is whole.
        await writeTemplatesBulk(tx, s.agencyId, s.userId, p.items);
        await audit(tx, req, s, 'contract_template.import', `rows:${rows.length}`, {
          successNum: p.items.length,
          failNum: p.failNum,
          unExport: p.unExport,
          added: p.items.filter((i) => i.existingId === undefined).length,
          updated: p.items.filter((i) => i.existingId !== undefined).map((i) => i.existingId),
        });
        return p;
      });
      const redisKey = await writeFailures(deps, s, 'temp', TEMPLATE_IMPORT_COLUMNS, [...plan.failed, ...plan.skipped]);
      const data: TemplateImportResult = {
        successNum: plan.items.length,
        failNum: plan.failNum,
        unExport: plan.unExport,
        redisKey,
      };
      return { code: CODE.OK, msg: MSG.ok, data };
    });

    scope.post(`/api/${CONTRACT_TEMPLATE_FILES.serviceImport}`, async (req) => {
      const s = await guard(deps, req, 'contract:service:import');
      const rows = await readUpload(req, SERVICE_IMPORT_COLUMNS, SERVICE_IMPORT_MAX_ROWS, s.agencyId, 'table');
      const plan = await scoped(deps, s, async (tx) => {
        const existing = await tx
          .select({ id: serviceItems.id, name: serviceItems.serviceName })
          .from(serviceItems)
          .where(eq(serviceItems.agencyId, s.agencyId));
        const p = planServiceImport(rows, new Map(existing.map((e) => [e.name, e.id])));
        const fresh = p.items.filter((i) => i.existingId === undefined);
        for (let i = 0; i < fresh.length; i += 500) {
          await tx.insert(serviceItems).values(
            fresh.slice(i, i + 500).map((f) => ({
              agencyId: s.agencyId,
              serviceName: f.serviceName,
              serviceBriName: f.serviceBriName,
              jobType: f.jobType,
              priceFen: f.priceFen,
              serviceStatic: f.serviceStatic,
            })),
          );
        }
        for (const u of p.items.filter((i) => i.existingId !== undefined)) {
          await tx
            .update(serviceItems)
            .set({
              serviceBriName: u.serviceBriName,
              jobType: u.jobType,
              priceFen: u.priceFen,
              serviceStatic: u.serviceStatic,
            })
            .where(and(eq(serviceItems.id, u.existingId as number), eq(serviceItems.agencyId, s.agencyId)));
        }
        await audit(tx, req, s, 'service_item.import', `rows:${rows.length}`, {
          successNum: p.items.length,
          failNum: p.failed.length,
        });
        return p;
      });
      const redisKey = await writeFailures(deps, s, 'service', SERVICE_IMPORT_COLUMNS, plan.failed);
      const data: TemplateImportResult = {
        successNum: plan.items.length,
        failNum: plan.failed.length,
        unExport: 0,
        redisKey,
      };
      return { code: CODE.OK, msg: MSG.ok, data };
    });
  });

  const failRoute = (path: string, kind: 'temp' | 'service', perm: PermKey, name: string) =>
    app.get<{ Querystring: { redisKey?: string } }>(`/api/${path}`, async (req, reply) => {
      const s = await guard(deps, req, perm);
      const key = req.query.redisKey ?? '';
      if (!/^[0-9a-f]{32}$/.test(key)) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      // The agency is in the file name: another agency's key finds nothing.
      const file = join(templateImportDir(deps), failFile(s, kind, key));
      if (!(await stat(file).catch(() => null))) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      return sendXlsx(reply, createReadStream(file), `${name}.xlsx`);
    });
  failRoute(
    CONTRACT_TEMPLATE_FILES.templateFailList,
    'temp',
    'contract:template:import',
    TEMPLATE_IMPORT_MSG.failListName,
  );
  failRoute(
    CONTRACT_TEMPLATE_FILES.serviceFailList,
    'service',
    'contract:service:import',
    TEMPLATE_IMPORT_MSG.serviceFailListName,
  );

  let htmb: Promise<Buffer> | null = null;
  app.get(`/api/${CONTRACT_TEMPLATE_FILES.templateStatic}`, async (req, reply) => {
    await guard(deps, req, 'contract:template:import');
    htmb ??= htmbTemplate();
    return sendXlsx(reply, await htmb, 'htmb_temp.xlsx');
  });
  let fwxm: Promise<Buffer> | null = null;
  app.get(`/api/${CONTRACT_TEMPLATE_FILES.serviceTemplate}`, async (req, reply) => {
    await guard(deps, req, 'contract:service:import');
    fwxm ??= fwxmTemplate();
    return sendXlsx(reply, await fwxm, 'fwxm_temp.xlsx');
  });
}
