import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AUDIT_EXPORT_MAX,
  auditFilterSchema,
  auditLogListCall,
  auditOptionsCall,
  CODE,
  hasPerm,
  MSG,
  platformAuditLogListCall,
} from '@dzy/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inScope } from '../../db/client.js';
import { enterprises, memberships, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { clientKeyword } from '../../lib/search.js';
import { type Deps, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { resolveSession, scopeOf } from '../../plugins/session.js';
import { writeXlsx } from '../customer/xlsx.js';
import { auditRetentionJob, startAuditRetention } from './audit-log.jobs.js';
import { auditItems, auditPage, auditWhere } from './audit-log.service.js';

export const AUDIT_EXPORT_PATH = 'files/audit/export';

const shanghai = (iso: string) =>
  new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  })
    .format(new Date(iso))
    .replaceAll('/', '-');

/** 操作日志 export: the filter's newest AUDIT_EXPORT_MAX rows as .xlsx (bounded; narrow the filter for more). */
function exportRoute(app: FastifyInstance, deps: Deps) {
  app.get<{ Querystring: Record<string, string> }>(`/api/${AUDIT_EXPORT_PATH}`, async (req, reply) => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    if (!hasPerm(session.perms, 'agency:audit:view')) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, MSG.notFound);
    const q = req.query;
    const parsed = auditFilterSchema.safeParse({
      dateFrom: q.dateFrom || undefined,
      dateTo: q.dateTo || undefined,
      userId: q.userId ? Number(q.userId) : undefined,
      kind: q.kind ?? '',
      enterpriseId: q.enterpriseId ? Number(q.enterpriseId) : undefined,
    });
    if (!parsed.success) throw new AppError(CODE.BAD_REQUEST, parsed.error.issues[0]?.message ?? '筛选条件无效');
    const agencyId = session.agencyId;
    const items = await inScope(deps.db.app, scopeOf(session), async (tx) => {
      const rows = await auditItems(tx, [], auditWhere(agencyId, parsed.data), AUDIT_EXPORT_MAX);
      await audit(tx, req, session, 'audit.export', `rows:${rows.length}`, { filter: parsed.data });
      return rows;
    });
    const dir = await mkdtemp(join(tmpdir(), 'dzy-audit-'));
    try {
      const path = join(dir, 'audit.xlsx');
      await writeXlsx(
        path,
        '操作日志',
        ['时间', '操作人', '操作', '客户', '对象', '详情（变更前 → 变更后）', 'IP'],
        items.map((i) => [
          shanghai(i.at),
          i.userName,
          i.actionLabel,
          i.enterpriseName,
          i.target,
          JSON.stringify(i.detail),
          i.ip,
        ]),
        [20, 14, 22, 24, 18, 60, 16],
      );
      const body = await readFile(path);
      const name = encodeURIComponent('操作日志.xlsx');
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${name}`)
        .header('cache-control', 'private, no-store')
        .send(body);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

export const auditLogModule: ServerModule = {
  name: 'audit-log',
  calls: [
    serve(auditLogListCall, async ({ body, tx, session }) => {
      if (session.agencyId === null) return { list: [], total: 0, cursor: { next: null, prev: null } };
      return auditPage(tx, session.agencyId, body);
    }),
    serve(auditOptionsCall, async ({ body, tx, session }) => {
      const agencyId = session.agencyId ?? -1;
      const members = await tx
        .select({ userId: users.id, name: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone})` })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.agencyId, agencyId))
        .orderBy(asc(memberships.id))
        .limit(2000);
      const clients = await tx
        .select({ id: enterprises.id, qymc: enterprises.qymc })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, agencyId), clientKeyword(body.keyword)))
        .orderBy(asc(enterprises.id))
        .limit(20);
      return { members, clients };
    }),
    serve(platformAuditLogListCall, async ({ body, tx }) => auditPage(tx, null, body)),
  ],
  jobs: [auditRetentionJob],
  routes: (app, deps) => {
    exportRoute(app, deps);
    startAuditRetention(app, deps);
  },
};
