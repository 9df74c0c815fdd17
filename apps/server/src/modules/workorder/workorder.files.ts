import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  CODE,
  hasPerm,
  MSG,
  type PermKey,
  TEMPLATE_IMPORT_MSG,
  WO_ATTACHMENT_MAX_BYTES,
  WO_ATTACHMENTS_PER_STEP,
  WO_FILES,
  WO_IMPORT_MAX_ROWS,
  WO_IMPORT_MSG,
  WO_MSG,
  WO_ORDER_IMPORT_COLUMNS,
  WO_STEP_DAYS_MAX,
  WO_STEP_NAME_MAX,
  WO_STEPS_MAX,
  WO_TEMPLATE_IMPORT_COLUMNS,
  WO_TEMPLATE_NAME_MAX,
  type WoImportResult,
} from '@dzy/shared';
import fastifyMultipart from '@fastify/multipart';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import {
  enterprises,
  serviceItems,
  stations,
  workOrderAttachments,
  workOrderSteps,
  workOrderTemplates,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { hasInvalidText } from '../../plugins/security.js';
import { fileOwner, resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { sniffAttachment } from '../customer/customer.files.js';
import { ExcelJS, readTableUpload, writeXlsx } from '../customer/xlsx.js';
import {
  createWorkOrder,
  notifyNewOrder,
  requireOrder,
  type TemplateInput,
  writeTemplate,
} from './workorder.service.js';

type Agent = SessionCtx & { agencyId: number };
type Kind = 'template' | 'order';
interface SheetRow {
  line: number;
  cells: string[];
}
interface FailedRow extends SheetRow {
  reason: string;
}

/** Work orders in one import file (each row makes one; further rows are not imported). */
export const WO_ORDER_IMPORT_MAX = 500;

async function guard(deps: Deps, req: FastifyRequest, perms: PermKey[]): Promise<Agent> {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!perms.some((p) => hasPerm(session.perms, p))) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
  return session as Agent;
}

const scoped = <T>(deps: Deps, s: Agent, fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scopeOf(s), fn);

const dirOf = (deps: Pick<Deps, 'config'>, sub: string) => resolve(deps.config.dataDir, 'uploads', sub);
const failFile = (owner: SessionCtx, kind: Kind, key: string) => `${kind}-${fileOwner(owner)}-${key}.xlsx`;
const STORED_RE = /^[0-9a-f]{32}\.(pdf|jpg|png|xlsx|docx)$/;

/** Removes stored step attachments (after their rows are gone). */
export async function removeWoFiles(deps: Pick<Deps, 'config'>, names: readonly string[]) {
  for (const n of names) if (STORED_RE.test(n)) await unlink(join(dirOf(deps, 'workorder'), n)).catch(() => undefined);
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
const sendFile = (
  reply: FastifyReply,
  body: Buffer | ReturnType<typeof createReadStream>,
  name: string,
  mime = XLSX_MIME,
) =>
  reply
    .header('content-type', mime)
    .header('content-disposition', disposition(name))
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(body);

/** The one uploaded file (field `file`) within `max` bytes. */
async function uploaded(req: FastifyRequest, max: number, missing: string, tooLarge: string) {
  if (!req.isMultipart()) throw new AppError(CODE.BAD_REQUEST, missing);
  try {
    const part = await req.file({ limits: { fileSize: max, files: 1 } });
    if (part?.fieldname !== 'file') throw new AppError(CODE.BAD_REQUEST, missing);
    const buf = await part.toBuffer();
    if (hasInvalidText(part.filename)) throw new AppError(CODE.BAD_REQUEST, MSG.invalidText);
    return { buf, fileName: basename(part.filename || 'file').slice(-120) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError(CODE.TOO_LARGE, tooLarge);
    }
    if (err instanceof AppError) throw err;
    throw new AppError(CODE.BAD_REQUEST, missing);
  }
}

async function readRows(buf: Buffer, fileName: string, columns: readonly string[], agencyId: number) {
  const read = await readTableUpload(buf, fileName, columns, WO_IMPORT_MAX_ROWS, `agency:${agencyId}`);
  if (read.ok) return read.rows as SheetRow[];
  const msg = {
    bad: TEMPLATE_IMPORT_MSG.badType,
    tooMany: TEMPLATE_IMPORT_MSG.tooManyRows(WO_IMPORT_MAX_ROWS),
    tooBig: TEMPLATE_IMPORT_MSG.tooBig,
    busy: TEMPLATE_IMPORT_MSG.busy,
    header: TEMPLATE_IMPORT_MSG.header,
    empty: TEMPLATE_IMPORT_MSG.empty,
  }[read.reason];
  throw new AppError(CODE.BAD_REQUEST, msg);
}

/**
 * Plans a template import: rows grouped by template name (row order = step order); a template with any bad
 * row is refused whole and all its rows go to the failure file. The same name updates the existing template.
 */
export function planTemplates(
  rows: readonly SheetRow[],
  stationIds: ReadonlyMap<string, number>,
  serviceIds: ReadonlyMap<string, number>,
) {
  const groups = new Map<string, SheetRow[]>();
  const failed: FailedRow[] = [];
  for (const r of rows) {
    const name = (r.cells[0] ?? '').trim();
    if (!name) failed.push({ ...r, reason: WO_MSG.templateNameRequired });
    else groups.set(name, [...(groups.get(name) ?? []), r]);
  }
  let failNum = failed.length;
  const items: (TemplateInput & { lines: number[] })[] = [];
  for (const [name, group] of groups) {
    const reasons = new Map<number, string>();
    const steps: TemplateInput['steps'] = [];
    const services = new Set<number>();
    for (const r of group) {
      const [, stepName = '', station = '', daysText = '', serviceText = ''] = r.cells.map((c) => c.trim());
      const fail = (why: string) => reasons.set(r.line, why);
      const days = Number(daysText);
      if (name.length > WO_TEMPLATE_NAME_MAX) fail(WO_MSG.templateNameTooLong);
      else if (!stepName) fail(WO_MSG.stepNameRequired);
      else if (stepName.length > WO_STEP_NAME_MAX) fail(WO_MSG.stepNameTooLong);
      else if (station && !stationIds.has(station)) fail(`岗位不存在：${station}`);
      else if (!/^\d+$/.test(daysText) || days < 1 || days > WO_STEP_DAYS_MAX) fail(WO_MSG.stepDays);
      else {
        const names = serviceText
          .split(/[,，、]/)
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = names.find((n) => !serviceIds.has(n));
        if (unknown) fail(`服务项目不存在：${unknown}`);
        else {
          for (const n of names) services.add(serviceIds.get(n) as number);
          steps.push({ name: stepName, stationId: station ? (stationIds.get(station) ?? null) : null, days });
        }
      }
    }
    if (reasons.size === 0 && steps.length > WO_STEPS_MAX)
      for (const r of group) reasons.set(r.line, WO_MSG.tooManySteps);
    if (reasons.size > 0) {
      failNum += 1;
      for (const r of group)
        failed.push({ ...r, reason: reasons.get(r.line) ?? '同一模板的其他行有误，整个模板未导入' });
      continue;
    }
    items.push({ name, remark: '', steps, serviceIds: [...services], lines: group.map((r) => r.line) });
  }
  failed.sort((a, b) => a.line - b.line);
  return { items, failed, failNum };
}

async function writeFailures(deps: Deps, s: Agent, kind: Kind, columns: readonly string[], rows: readonly FailedRow[]) {
  if (rows.length === 0) return '';
  const key = randomBytes(16).toString('hex');
  const dir = dirOf(deps, 'workorder-import');
  await mkdir(dir, { recursive: true });
  await writeXlsx(
    join(dir, failFile(s, kind, key)),
    kind === 'template' ? '工单模板导入失败记录' : '工单导入失败记录',
    [...columns, '行号', '失败原因'],
    rows.map((r) => [...columns.map((_, i) => r.cells[i] ?? ''), String(r.line), r.reason]),
    [...columns.map(() => 18), 8, 44],
  );
  return key;
}

async function staticWorkbook(sheet: string, columns: readonly string[], examples: string[][], notes: string[]) {
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

async function importTemplates(deps: Deps, req: FastifyRequest, s: Agent, rows: SheetRow[]) {
  const plan = await scoped(deps, s, async (tx) => {
    const st = await tx
      .select({ id: stations.id, name: stations.name })
      .from(stations)
      .where(eq(stations.agencyId, s.agencyId));
    const sv = await tx
      .select({ id: serviceItems.id, name: serviceItems.serviceName })
      .from(serviceItems)
      .where(eq(serviceItems.agencyId, s.agencyId));
    const existing = await tx
      .select({ id: workOrderTemplates.id, name: workOrderTemplates.name })
      .from(workOrderTemplates)
      .where(eq(workOrderTemplates.agencyId, s.agencyId));
    const p = planTemplates(rows, new Map(st.map((x) => [x.name, x.id])), new Map(sv.map((x) => [x.name, x.id])));
    const byName = new Map(existing.map((e) => [e.name, e.id]));
    let ok = 0;
    for (const item of p.items) {
      try {
        // Each template in its own savepoint: one refused (a service linked elsewhere) leaves the others.
        await tx.transaction((sp) => writeTemplate(sp, s.agencyId, s.userId, item, byName.get(item.name)));
        ok += 1;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        p.failNum += 1;
        for (const line of item.lines) {
          const r = rows.find((x) => x.line === line);
          if (r) p.failed.push({ ...r, reason: err.message });
        }
      }
    }
    await audit(tx, req, s, 'workorder_template.import', `rows:${rows.length}`, { successNum: ok, failNum: p.failNum });
    return { ok, failNum: p.failNum, failed: p.failed.sort((a, b) => a.line - b.line) };
  });
  const redisKey = await writeFailures(deps, s, 'template', WO_TEMPLATE_IMPORT_COLUMNS, plan.failed);
  const data: WoImportResult = { successNum: plan.ok, failNum: plan.failNum, unExport: 0, redisKey };
  return data;
}

async function importOrders(deps: Deps, req: FastifyRequest, s: Agent, rows: SheetRow[]) {
  const pushes: (() => Promise<void>)[] = [];
  const result = await scoped(deps, s, async (tx) => {
    const failed: FailedRow[] = [];
    const tpls = await tx
      .select({ id: workOrderTemplates.id, name: workOrderTemplates.name, status: workOrderTemplates.status })
      .from(workOrderTemplates)
      .where(eq(workOrderTemplates.agencyId, s.agencyId));
    const tplByName = new Map(tpls.map((t) => [t.name, t]));
    let ok = 0;
    const skipped = rows.slice(WO_ORDER_IMPORT_MAX);
    for (const r of rows.slice(0, WO_ORDER_IMPORT_MAX)) {
      const [qysh = '', tplName = '', remark = ''] = r.cells.map((c) => c.trim());
      const fail = (reason: string) => failed.push({ ...r, reason });
      const tpl = tplByName.get(tplName);
      if (!qysh) {
        fail('请填写企业税号');
        continue;
      }
      if (!tpl) {
        fail(tplName ? `工单模板不存在：${tplName}` : WO_MSG.templateRequired);
        continue;
      }
      if (tpl.status !== '1') {
        fail(WO_MSG.templateDisabled);
        continue;
      }
      if (remark.length > 200) {
        fail('备注不能超过200个字符');
        continue;
      }
      // Only clients the caller sees (data scope).
      const [ent] = await tx
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(
          and(
            eq(enterprises.agencyId, s.agencyId),
            eq(enterprises.qysh, qysh.toUpperCase()),
            isNull(enterprises.deletedAt),
            dataScope(s, enterprises.allocateUser),
          ),
        )
        .limit(1);
      if (!ent) {
        fail(`企业不存在或无权访问：${qysh}`);
        continue;
      }
      try {
        const made = await tx.transaction(async (sp) => {
          const m = await createWorkOrder(sp, s.agencyId, s.userId, {
            enterpriseId: ent.id,
            templateId: tpl.id,
            remark,
            assignees: [],
          });
          await notifyNewOrder(sp, deps, (fn) => void pushes.push(fn), s.agencyId, s.userId, m);
          return m;
        });
        ok += 1;
        void made;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        fail(err.message);
      }
    }
    await audit(tx, req, s, 'workorder.import', `rows:${rows.length}`, { successNum: ok, failNum: failed.length });
    return { ok, failed, skipped };
  });
  for (const fn of pushes) await fn();
  const redisKey = await writeFailures(deps, s, 'order', WO_ORDER_IMPORT_COLUMNS, [
    ...result.failed,
    ...result.skipped.map((r) => ({ ...r, reason: `超出单次导入上限${WO_ORDER_IMPORT_MAX}条，未导入` })),
  ]);
  const data: WoImportResult = {
    successNum: result.ok,
    failNum: result.failed.length,
    unExport: result.skipped.length,
    redisKey,
  };
  return data;
}

export function workOrderFileRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope: FastifyInstance) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: WO_ATTACHMENT_MAX_BYTES, files: 1, fields: 5, headerPairs: 50, parts: 6 },
    });

    scope.post<{ Querystring: { kind?: string } }>(`/api/${WO_FILES.import}`, async (req) => {
      const kind: Kind = req.query.kind === 'order' ? 'order' : 'template';
      const s = await guard(deps, req, [kind === 'order' ? 'workorder:import' : 'workorder:template:import']);
      const { buf, fileName } = await uploaded(
        req,
        5 * 1024 * 1024,
        TEMPLATE_IMPORT_MSG.noFile,
        TEMPLATE_IMPORT_MSG.tooLarge,
      );
      const columns = kind === 'order' ? WO_ORDER_IMPORT_COLUMNS : WO_TEMPLATE_IMPORT_COLUMNS;
      const rows = await readRows(buf, fileName, columns, s.agencyId);
      const data =
        kind === 'order' ? await importOrders(deps, req, s, rows) : await importTemplates(deps, req, s, rows);
      return { code: CODE.OK, msg: MSG.ok, data };
    });

    scope.post<{ Querystring: { stepId?: string } }>(`/api/${WO_FILES.attachmentUpload}`, async (req) => {
      const s = await guard(deps, req, ['workorder:step']);
      const stepId = Number(req.query.stepId);
      if (!Number.isInteger(stepId) || stepId <= 0) throw new AppError(CODE.NOT_FOUND, WO_MSG.stepNotFound);
      // The step is checked before the file is read: nothing is stored for someone else's.
      const check = (tx: Tx) => stepFor(tx, s, stepId);
      await scoped(deps, s, check);
      const { buf, fileName } = await uploaded(
        req,
        WO_ATTACHMENT_MAX_BYTES,
        '请选择要上传的附件',
        '附件大小不能超过 10MB',
      );
      const kind = sniffAttachment(buf, fileName);
      if (!kind) throw new AppError(CODE.BAD_REQUEST, '附件仅支持 PDF、JPG、PNG、Excel（.xlsx）与 Word（.docx）文件');
      const stored = `${randomBytes(16).toString('hex')}.${kind.ext}`;
      const dir = dirOf(deps, 'workorder');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, stored), buf, { mode: 0o640 });
      try {
        const id = await scoped(deps, s, async (tx) => {
          const step = await check(tx);
          const have = await tx
            .select({ id: workOrderAttachments.id })
            .from(workOrderAttachments)
            .where(eq(workOrderAttachments.stepId, step.id));
          if (have.length >= WO_ATTACHMENTS_PER_STEP) {
            throw new AppError(CODE.BAD_REQUEST, `每个步骤最多${WO_ATTACHMENTS_PER_STEP}个附件`);
          }
          const [row] = await tx
            .insert(workOrderAttachments)
            .values({
              agencyId: s.agencyId,
              workOrderId: step.workOrderId,
              stepId: step.id,
              fileName,
              storedName: stored,
              mime: kind.mime,
              size: buf.length,
              uploadedBy: s.userId,
            })
            .returning({ id: workOrderAttachments.id });
          if (!row) throw new Error('attachment insert returned nothing');
          await audit(tx, req, s, 'workorder.attachment_upload', `work_order_step:${step.id}`, {
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

  app.get<{ Querystring: { redisKey?: string; kind?: string } }>(`/api/${WO_FILES.failList}`, async (req, reply) => {
    const kind: Kind = req.query.kind === 'order' ? 'order' : 'template';
    const s = await guard(deps, req, [kind === 'order' ? 'workorder:import' : 'workorder:template:import']);
    const key = req.query.redisKey ?? '';
    if (!/^[0-9a-f]{32}$/.test(key)) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
    // The agency is in the file name: another agency's key finds nothing.
    const file = join(dirOf(deps, 'workorder-import'), failFile(s, kind, key));
    if (!(await stat(file).catch(() => null))) throw new AppError(CODE.NOT_FOUND, '失败记录不存在或已过期');
    const name = kind === 'order' ? WO_IMPORT_MSG.failListName : WO_IMPORT_MSG.templateFailListName;
    return sendFile(reply, createReadStream(file), `${name}.xlsx`);
  });

  app.get<{ Params: { id: string } }>(`/api/${WO_FILES.attachmentDownload}/:id`, async (req, reply) => {
    const s = await guard(deps, req, ['workorder:list:view']);
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
    const a = await scoped(deps, s, async (tx) => {
      const [row] = await tx
        .select()
        .from(workOrderAttachments)
        .where(and(eq(workOrderAttachments.id, id), eq(workOrderAttachments.agencyId, s.agencyId)));
      if (!row) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
      await requireOrder(tx, s, s.agencyId, row.workOrderId).catch(() => {
        throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
      });
      return row;
    });
    const path = join(dirOf(deps, 'workorder'), a.storedName);
    if (!STORED_RE.test(a.storedName) || !(await stat(path).catch(() => null))) {
      throw new AppError(CODE.NOT_FOUND, '附件文件已丢失，请重新上传');
    }
    return sendFile(reply, createReadStream(path), a.fileName, a.mime);
  });

  let gdmb: Promise<Buffer> | null = null;
  app.get(`/api/${WO_FILES.templateStatic}`, async (req, reply) => {
    await guard(deps, req, ['workorder:template:import']);
    gdmb ??= staticWorkbook(
      '工单模板',
      WO_TEMPLATE_IMPORT_COLUMNS,
      [
        ['公司注册', '核名', '工商专员', '2', '工商注册'],
        ['公司注册', '提交设立申请', '工商专员', '5', ''],
        ['公司注册', '领取执照刻章', '工商专员', '3', ''],
      ],
      [
        '1. 每行一个步骤，同一模板的多行须填写相同的模板名称，步骤按行的顺序排列；模板名称相同的将更新已有模板。',
        `2. 模板名称不超过${WO_TEMPLATE_NAME_MAX}个字符，步骤名称不超过${WO_STEP_NAME_MAX}个字符，每个模板最多${WO_STEPS_MAX}个步骤。`,
        '3. 岗位须为本机构“岗位设置”中已有的岗位名称，可不填；步骤的默认处理人为该岗位的成员。',
        `4. 预计天数为1到${WO_STEP_DAYS_MAX}的整数。`,
        '5. 关联服务项目填服务项目名称，多个用顿号分隔；一个服务项目只能关联一个工单模板。',
        '6. 一个模板中任意一行有误，整个模板不导入，该模板的所有行都会列入失败记录。示例行请在导入前删除。',
      ],
    );
    return sendFile(reply, await gdmb, 'gdmb_temp.xlsx');
  });
  let gd: Promise<Buffer> | null = null;
  app.get(`/api/${WO_FILES.orderStatic}`, async (req, reply) => {
    await guard(deps, req, ['workorder:import']);
    gd ??= staticWorkbook(
      '工单',
      WO_ORDER_IMPORT_COLUMNS,
      [['91330106MA2H3C0X1X', '公司注册', '客户要求本月内完成']],
      [
        `1. 每行一个工单，单次最多${WO_ORDER_IMPORT_MAX}条。`,
        '2. 企业税号须为您可见的客户；工单模板须为已启用的模板名称。',
        '3. 各步骤的处理人按模板中的岗位自动分配，可在工单详情中修改。示例行请在导入前删除。',
      ],
    );
    return sendFile(reply, await gd, 'gd_temp.xlsx');
  });
}

/** A step the caller may attach files to: its order visible, open, and the caller its assignee or manager. */
async function stepFor(tx: Tx, s: Agent, stepId: number) {
  const [step] = await tx
    .select()
    .from(workOrderSteps)
    .where(and(eq(workOrderSteps.id, stepId), eq(workOrderSteps.agencyId, s.agencyId)));
  if (!step) throw new AppError(CODE.NOT_FOUND, WO_MSG.stepNotFound);
  const order = await requireOrder(tx, s, s.agencyId, step.workOrderId).catch(() => {
    throw new AppError(CODE.NOT_FOUND, WO_MSG.stepNotFound);
  });
  if (order.state === 'done' || order.state === 'cancelled') throw new AppError(CODE.BAD_REQUEST, WO_MSG.orderClosed);
  if (step.assigneeId !== s.userId && !order.manage) throw new AppError(CODE.NO_PERMISSION, WO_MSG.notAssignee);
  return step;
}
