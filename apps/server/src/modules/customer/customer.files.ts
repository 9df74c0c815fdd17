import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MSG,
  CODE,
  CUSTOMER_FILES,
  CUSTOMER_MSG,
  customerFilterSchema,
  DLFS_OPTIONS,
  HYDJ_NAMES,
  hasPerm,
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MSG,
  IMPORT_QUEUE,
  MSG,
  type PermKey,
  PWD_IMPORT_COLUMNS,
  QYXZ_NAMES,
  SERVICE_STATUS_NAMES,
  SFBM_OPTIONS,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { orderOf } from '../../db/paging.js';
import { enterpriseAttachments, enterprises, jobs } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { enqueue } from '../../plugins/jobs.js';
import { hasInvalidText } from '../../plugins/security.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { failFileName, type ImportPayload, importDir, saveRows } from './customer.jobs.js';

export { SFBM_BY_TEXT } from './customer.pwd-import.js';

import { customerSort, customerWhere, hydjName, itemsFor, requireEnterprise } from './customer.repo.js';
import { ExcelJS, isZip, neutralise, readTableUpload } from './xlsx.js';

/** The caller of a plain route, with the permission it needs and an agency; refusals as the calls give them. */
export async function guard(
  deps: Deps,
  req: FastifyRequest,
  perm: PermKey,
): Promise<SessionCtx & { agencyId: number }> {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return session as SessionCtx & { agencyId: number };
}

export const scoped = <T>(deps: Deps, s: SessionCtx & { agencyId: number }, fn: (tx: Tx) => Promise<T>) =>
  inScope(deps.db.app, scopeOf(s), fn);

const fileLimitHit = (err: unknown) => {
  const code = (err as { code?: string }).code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT';
};

/** Reads the one uploaded file of a multipart request (field `file`), within `max` bytes. */
export async function uploadedFile(req: FastifyRequest, max: number, msg: { missing: string; tooLarge: string }) {
  if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, msg.missing);
  try {
    const part = await req.file({ limits: { fileSize: max, files: 1 } });
    if (part?.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, msg.missing);
    const buf = await part.toBuffer();
    if (hasInvalidText(part.filename)) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
    return { buf, fileName: basename(part.filename || 'file').slice(-120) };
  } catch (err) {
    if (fileLimitHit(err)) throw new AppError(CODE.TOO_LARGE, msg.tooLarge);
    if (err instanceof AppError) throw err;
    throw new AppError(CODE.BAD_REQUEST, msg.missing);
  }
}

/** Content-Disposition for a Chinese file name (RFC 6266 / 5987). */
export const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function sendFile(reply: FastifyReply, path: string, name: string, mime: string) {
  return reply
    .header('content-type', mime)
    .header('content-disposition', disposition(name))
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(createReadStream(path));
}

/** A checked .xlsx or .csv upload: of another kind, unreadable, or too many rows → refused, nothing changes. */
export async function readUpload(buf: Buffer, fileName: string, columns: readonly string[], agencyId: number) {
  const read = await readTableUpload(buf, fileName, columns, IMPORT_MAX_ROWS, `agency:${agencyId}`);
  if (read.ok) return read.rows;
  const msg = {
    bad: IMPORT_MSG.badType,
    tooMany: IMPORT_MSG.tooMany,
    tooBig: IMPORT_MSG.tooBig,
    busy: IMPORT_MSG.busy,
    header: IMPORT_MSG.header,
    empty: IMPORT_MSG.empty,
  }[read.reason];
  throw new AppError(CODE.BAD_REQUEST, msg);
}

const START_AUDIT = {
  customer: 'customer.import_start',
  password: 'customer.credential_import_start',
  shuiju: 'customer.shuiju_import_start',
} as const;

/**
 * Queues one of the three imports (客户, 账号密码, 税局密码) as a job of the customer-import queue: the rows
 * wait on disk, the page follows the job with importAgencyEnterpriseProgress. Answers { jobId, total }.
 */
export async function queueImport(
  deps: Deps,
  req: FastifyRequest,
  s: SessionCtx & { agencyId: number },
  kind: NonNullable<ImportPayload['kind']>,
  rows: { line: number; cells: string[] }[],
  fileName: string,
) {
  const key = randomBytes(16).toString('hex');
  await saveRows(deps, s.agencyId, key, rows, kind !== 'customer');
  const payload: ImportPayload = {
    key,
    userId: s.userId,
    total: rows.length,
    canAssign: hasPerm(s.perms, 'customer:assign'),
    fileName,
    kind,
  };
  const jobId = await scoped(deps, s, async (tx) => {
    await enqueue(tx, { agencyId: s.agencyId, queue: IMPORT_QUEUE, key, payload: { ...payload } });
    const [job] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.queue, IMPORT_QUEUE), eq(jobs.key, key)));
    if (!job) throw new Error('import job not queued');
    await audit(tx, req, s, START_AUDIT[kind], `job:${job.id}`, { fileName, rows: rows.length });
    return job.id;
  });
  deps.wakeJobs();
  return { code: CODE.OK, msg: MSG.ok, data: { jobId, total: rows.length } };
}

// --- attachments -------------------------------------------------------------------------------

/** The kind of an attachment by its bytes; the extension must agree with it. */
export function sniffAttachment(buf: Buffer, fileName: string): { ext: string; mime: string } | null {
  const ext = extname(fileName).toLowerCase();
  const head = buf.subarray(0, 8);
  if (head.toString('latin1', 0, 5) === '%PDF-') return ext === '.pdf' ? { ext: 'pdf', mime: 'application/pdf' } : null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return ext === '.jpg' || ext === '.jpeg' ? { ext: 'jpg', mime: 'image/jpeg' } : null;
  }
  if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return ext === '.png' ? { ext: 'png', mime: 'image/png' } : null;
  }
  if (isZip(buf)) {
    // Office files are zips with a [Content_Types].xml and their own part folder.
    const hasTypes = buf.includes('[Content_Types].xml');
    if (ext === '.xlsx' && hasTypes && buf.includes('xl/')) return { ext: 'xlsx', mime: XLSX_MIME };
    if (ext === '.docx' && hasTypes && buf.includes('word/')) {
      return { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };
    }
  }
  return null;
}

const attachmentDir = (deps: Pick<Deps, 'config'>) => resolve(deps.config.dataDir, 'uploads', 'attachments');
const STORED_RE = /^[0-9a-f]{32}\.(pdf|jpg|png|xlsx|docx)$/;

/** Removes stored attachment files (after their rows are gone). */
export async function removeAttachmentFiles(deps: Pick<Deps, 'config'>, names: readonly string[]) {
  for (const n of names) if (STORED_RE.test(n)) await unlink(join(attachmentDir(deps), n)).catch(() => undefined);
}

const MAX_ATTACHMENTS = 50;

// --- export ------------------------------------------------------------------------------------

const EXPORT_COLUMNS: { header: string; width: number }[] = [
  { header: '企业名称', width: 36 },
  { header: '企业税号', width: 24 },
  { header: '企业性质', width: 14 },
  { header: '所属地区', width: 26 },
  { header: '详细地址', width: 36 },
  { header: '客户等级', width: 12 },
  { header: '标签', width: 20 },
  { header: '负责人', width: 12 },
  { header: '服务状态', width: 12 },
  { header: '会员等级', width: 16 },
  { header: '会员到期', width: 14 },
  { header: '联系人', width: 12 },
  { header: '联系电话', width: 16 },
  { header: '创建时间', width: 20 },
];
const EXPORT_MAX = 50_000;

const exportFilter = customerFilterSchema;

// --- routes ------------------------------------------------------------------------------------

/**
 * Uploads and downloads of the book: import (a job), credentials import, templates, failure files,
 * the export, and attachments. Multipart parsing is registered only inside this scope.
 */
export function customerFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });

    // Import: checked at once (format, header, size, rows), then a job plans and inserts.
    scope.post(`/api/${CUSTOMER_FILES.importUpload}`, async (req) => {
      const s = await guard(deps, req, 'customer:import');
      // A factory adds no clients (customer create says the same); its rows would only fail in the job.
      if (s.kjgcId !== null) throw new AppError(CODE.NO_PERMISSION, CUSTOMER_MSG.factoryNoCreate);
      const { buf, fileName } = await uploadedFile(req, IMPORT_MAX_BYTES, {
        missing: IMPORT_MSG.noFile,
        tooLarge: IMPORT_MSG.tooLarge,
      });
      const rows = await readUpload(buf, fileName, IMPORT_COLUMNS, s.agencyId);
      return queueImport(deps, req, s, 'customer', rows, fileName);
    });

    // Credentials import: a job of the same queue; rows matched by tax number among the clients the caller sees.
    scope.post(`/api/${CUSTOMER_FILES.pwdUpload}`, async (req) => {
      const s = await guard(deps, req, 'customer:import');
      const { buf, fileName } = await uploadedFile(req, IMPORT_MAX_BYTES, {
        missing: IMPORT_MSG.noFile,
        tooLarge: IMPORT_MSG.tooLarge,
      });
      const rows = await readUpload(buf, fileName, PWD_IMPORT_COLUMNS, s.agencyId);
      return queueImport(deps, req, s, 'password', rows, fileName);
    });

    scope.post<{ Querystring: { enterpriseId?: string } }>(`/api/${CUSTOMER_FILES.attachmentUpload}`, async (req) => {
      const s = await guard(deps, req, 'customer:edit');
      const enterpriseId = Number(req.query.enterpriseId);
      if (!Number.isInteger(enterpriseId) || enterpriseId <= 0) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
      // The enterprise is checked before the file is read: nothing is stored for someone else's.
      await scoped(deps, s, (tx) => requireEnterprise(tx, s, enterpriseId));
      const { buf, fileName } = await uploadedFile(req, ATTACHMENT_MAX_BYTES, {
        missing: ATTACHMENT_MSG.missing,
        tooLarge: ATTACHMENT_MSG.tooLarge,
      });
      const kind = sniffAttachment(buf, fileName);
      if (!kind) throw new AppError(CODE.BAD_REQUEST, ATTACHMENT_MSG.badType);
      const stored = `${randomBytes(16).toString('hex')}.${kind.ext}`;
      const dir = attachmentDir(deps);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, stored), buf, { mode: 0o640 });
      try {
        const id = await scoped(deps, s, async (tx) => {
          const e = await requireEnterprise(tx, s, enterpriseId);
          const count = await tx
            .select({ id: enterpriseAttachments.id })
            .from(enterpriseAttachments)
            .where(eq(enterpriseAttachments.enterpriseId, e.id));
          if (count.length >= MAX_ATTACHMENTS) {
            throw new AppError(CODE.BAD_REQUEST, `每家企业最多${MAX_ATTACHMENTS}个附件`);
          }
          const [row] = await tx
            .insert(enterpriseAttachments)
            .values({
              agencyId: s.agencyId,
              enterpriseId: e.id,
              fileName,
              storedName: stored,
              mime: kind.mime,
              size: buf.length,
              uploadedBy: s.userId,
            })
            .returning({ id: enterpriseAttachments.id });
          if (!row) throw new Error('attachment insert returned nothing');
          await audit(tx, req, s, 'customer.attachment_upload', `enterprise:${e.id}`, {
            attachment: row.id,
            fileName,
            bytes: buf.length,
          });
          return row.id;
        });
        return { code: CODE.OK, msg: MSG.ok, data: { id } };
      } catch (err) {
        await unlink(join(dir, stored)).catch(() => undefined);
        throw err;
      }
    });
  });

  app.get<{ Params: { id: string } }>(`/api/${CUSTOMER_FILES.attachmentDownload}/:id`, async (req, reply) => {
    const s = await guard(deps, req, 'customer:list:view');
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
    const a = await scoped(deps, s, async (tx) => {
      const [row] = await tx
        .select()
        .from(enterpriseAttachments)
        .where(and(eq(enterpriseAttachments.id, id), eq(enterpriseAttachments.agencyId, s.agencyId)));
      if (!row) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
      await requireEnterprise(tx, s, row.enterpriseId);
      return row;
    });
    if (!STORED_RE.test(a.storedName)) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
    const path = join(attachmentDir(deps), a.storedName);
    if (!(await stat(path).catch(() => null))) throw new AppError(CODE.NOT_FOUND, '附件文件已丢失，请重新上传');
    return sendFile(reply, path, a.fileName, a.mime);
  });

  app.get(`/api/${CUSTOMER_FILES.importTemplate}`, async (req, reply) => {
    await guard(deps, req, 'customer:import');
    const buf = await templateWorkbook(
      '客户导入',
      IMPORT_COLUMNS,
      [
        [
          '杭州示例科技有限公司',
          '91330106MA2H3C0X1X',
          '小规模纳税人',
          '浙江省',
          '杭州市',
          '西湖区',
          '文三路 398 号',
          '0',
          '',
          '',
          '',
          '张三',
          '13800138000',
          '示例行，导入前请删除',
        ],
      ],
      [
        '企业名称、企业税号必填；税号为6-20位数字或字母（空格会被去掉），同一机构内不可重复。',
        '企业性质填“一般纳税人”或“小规模纳税人”，不填为小规模纳税人。',
        '所属省份、地市、区县须三项都填且与国家行政区划名称一致，或都不填。',
        '客户等级、标签须为本机构已有的名称；多个标签用逗号分隔。',
        '负责人手机号须为本机构成员，不填则为导入人。',
        `单次最多${IMPORT_MAX_ROWS}条，文件不超过5MB；请勿修改表头。`,
      ],
    );
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition('客户导入模板.xlsx'))
      .send(buf);
  });

  app.get(`/api/${CUSTOMER_FILES.pwdTemplate}`, async (req, reply) => {
    await guard(deps, req, 'customer:import');
    const buf = await templateWorkbook(
      '账号密码导入',
      PWD_IMPORT_COLUMNS,
      [],
      [
        '按企业税号匹配您可见的客户；留空的单元格不改动已保存的内容。',
        `登录身份填：${SFBM_OPTIONS.map((o) => `${o.value} ${o.label}`).join('、')}。`,
        `个税登录方式填：${DLFS_OPTIONS.map((o) => `${o.value} ${o.label}`).join('、')}。`,
        '密码加密保存，导入后页面只显示******。',
      ],
    );
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition('账号密码导入模板.xlsx'))
      .send(buf);
  });

  const failFileRoute = (path: string, name: string) =>
    app.get<{ Querystring: { redisKey?: string } }>(`/api/${path}`, async (req, reply) => {
      const s = await guard(deps, req, 'customer:import');
      const key = req.query.redisKey ?? '';
      if (!/^[0-9a-f]{32}$/.test(key)) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      // The agency is in the file name: another agency's key finds nothing.
      const file = join(importDir(deps), failFileName(s, key));
      if (!(await stat(file).catch(() => null))) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
      return sendFile(reply, file, name, XLSX_MIME);
    });
  failFileRoute(CUSTOMER_FILES.importFailList, '批量导入客户失败记录.xlsx');
  failFileRoute(CUSTOMER_FILES.pwdFailList, '批量导入账号密码失败记录.xlsx');

  // Export of the current filter, streamed as it is written (formula-like cells neutralised).
  app.post(`/api/${CUSTOMER_FILES.export}`, async (req, reply) => {
    const s = await guard(deps, req, 'customer:export');
    const parsed = exportFilter.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const f = parsed.data;
    const ids = await scoped(deps, s, async (tx) => {
      const rows = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(customerWhere(s, s.agencyId, f))
        .orderBy(...orderOf(customerSort(f)))
        .limit(EXPORT_MAX + 1);
      return rows.map((r) => r.id);
    });
    if (ids.length > EXPORT_MAX) throw new AppError(CODE.BAD_REQUEST, `单次最多导出${EXPORT_MAX}条，请缩小筛选范围`);
    await scoped(deps, s, (tx) =>
      audit(tx, req, s, 'customer.export', `rows:${ids.length}`, { filter: f as Record<string, unknown> }),
    );
    const out = new PassThrough();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet('我的客户', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, width: c.width }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    void reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', disposition(`我的客户_${stamp}.xlsx`))
      .header('cache-control', 'private, no-store')
      .send(out);
    (async () => {
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        const items = await scoped(deps, s, (tx) => itemsFor(tx, s.agencyId, chunk));
        for (const e of items) {
          ws.addRow(
            [
              e.qymc,
              e.qysh,
              QYXZ_NAMES[e.qyxz] ?? '',
              e.regionName,
              e.address,
              e.gradeName,
              e.labels.map((l) => l.name).join('，'),
              e.allocateUserName,
              SERVICE_STATUS_NAMES[e.serviceStatus] ?? '',
              e.hydj_real === null ? '' : (HYDJ_NAMES[e.hydj_real] ?? hydjName(e.hydj_real)),
              e.hydqsj ?? '',
              e.contactName,
              e.contactPhone,
              e.createdAt.slice(0, 19).replace('T', ' '),
            ].map((v) => neutralise(String(v))),
          ).commit();
        }
      }
      ws.commit();
      await wb.commit();
    })().catch((err) => {
      req.log.error({ err }, 'customer export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return reply;
  });
}

export async function templateWorkbook(
  sheet: string,
  columns: readonly string[],
  examples: string[][],
  notes: string[],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c, width: Math.max(14, c.length * 3 + 4) }));
  ws.getRow(1).font = { bold: true };
  for (const e of examples) ws.addRow(e);
  // Every cell as text, so that long tax numbers and phone numbers are not turned into numbers.
  for (let c = 1; c <= columns.length; c++) ws.getColumn(c).numFmt = '@';
  const help = wb.addWorksheet('填写说明');
  help.getColumn(1).width = 100;
  for (const n of notes) help.addRow([n]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
