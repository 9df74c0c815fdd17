import { AUDIT_KIND_LABELS, type AuditItem } from '@dzy/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage, type PageAsk, type Sort } from '../../db/paging.js';
import { auditLog } from '../../db/schema/index.js';
import { mask } from '../../lib/crypto.js';

/** Actions in Chinese; an action not listed reads as its kind and its raw name. */
const ACTION_LABELS: Record<string, string> = {
  'auth.login': '登录',
  'auth.login_failed': '登录失败',
  'auth.logout': '退出登录',
  'auth.register': '注册',
  'auth.password_reset': '找回密码',
  'two_factor.enrol': '开启两步验证',
  'two_factor.disable': '关闭两步验证',
  'two_factor.reset': '重置员工两步验证',
  'two_factor.recovery_used': '使用恢复码登录',
  'two_factor.device_remember': '记住设备30天',
  'two_factor.locked': '两步验证错误次数过多被锁定',
  'security.settings': '修改安全设置',
  'audit.export': '导出操作日志',
  'account.password_change': '修改密码',
  'account.phone_change': '更换手机号',
  'account.profile_update': '修改个人信息',
  'org.switch': '切换机构',
  'org.agency_update': '修改机构信息',
  'org.agency_apply': '申请入驻',
  'staff.invite': '邀请员工',
  'staff.remove': '移除员工',
  'staff.handover': '工作交接',
  'staff.admin_transfer': '转让管理员',
  'role.create': '新建角色',
  'role.update': '修改角色',
  'role.delete': '删除角色',
  'role.perms_change': '修改角色权限',
  'role.member_assign': '分配角色成员',
  'customer.create': '新增客户',
  'customer.update': '修改客户',
  'customer.delete': '删除客户',
  'customer.restore': '恢复客户',
  'customer.purge': '彻底删除客户',
  'customer.assign': '分配客户',
  'customer.export': '导出客户',
  'customer.import_start': '导入客户',
  'customer.credential_import': '导入客户密码',
  'contract.create': '新建合同',
  'contract.update': '修改合同',
  'contract.delete': '删除合同',
  'contract.terminate': '终止合同',
  'fee.charge_add': '登记收款',
  'fee.charge_revoke': '撤销收款',
  'fee.export': '导出收费',
  'invoice.issue': '开具发票',
  'invoice.red': '红冲发票',
  'etax.grant': '授权电子税务局登录',
  'platform.agency_approve': '通过入驻申请',
  'platform.agency_reject': '驳回入驻申请',
};

export function actionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const kind = action.split('.')[0] ?? action;
  const k = AUDIT_KIND_LABELS[kind];
  return k ? `${k}：${action.slice(kind.length + 1)}` : action;
}

const SECRET_KEY = /(password|passwd|pwd|secret|token|credential|mm$|^mm|key$)/i;

/** Credentials in a detail are masked (first 3, ****, last 4; short ones all stars), at any depth. */
export function maskDetail(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return SECRET_KEY.test(key) ? mask(value) : value;
  if (Array.isArray(value)) return value.map((v) => maskDetail(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        maskDetail(v, SECRET_KEY.test(key) ? key : k),
      ]),
    );
  }
  return value;
}

export interface AuditQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  userId?: number | undefined;
  kind: string;
  enterpriseId?: number | undefined;
}

/** The filter's conditions: the agency's rows (or platform rows when agencyId is null). */
export function auditWhere(agencyId: number | null, f: AuditQuery): SQL {
  const conds: SQL[] = [
    agencyId === null ? sql`${auditLog.agencyId} is null` : sql`${auditLog.agencyId} = ${agencyId}`,
  ];
  if (f.dateFrom) conds.push(sql`${auditLog.at} >= (${f.dateFrom}::date::timestamp at time zone 'Asia/Shanghai')`);
  if (f.dateTo) conds.push(sql`${auditLog.at} < ((${f.dateTo}::date + 1)::timestamp at time zone 'Asia/Shanghai')`);
  if (f.userId !== undefined) conds.push(sql`${auditLog.userId} = ${f.userId}`);
  if (f.kind) conds.push(sql`${auditLog.action} like ${`${f.kind.replace(/[\\%_]/g, '\\$&')}.%`}`);
  if (f.enterpriseId !== undefined) {
    // The stored column the database derives from the target or detail (migration 0042), on its index.
    conds.push(sql`${auditLog.enterpriseId} = ${f.enterpriseId}`);
  }
  return sql.join(conds, sql` and `);
}

export const AUDIT_SORT: Sort = { name: 'id', keys: [auditLog.id], desc: true };

type Row = {
  id: number;
  at: string | Date;
  user_id: number | null;
  user_name: string | null;
  action: string;
  target: string;
  detail: Record<string, unknown> | string;
  ip: string;
  enterprise_id: number | null;
  qymc: string | null;
};

/** The rows of the given ids (any order), with who and which client, credentials masked. */
export async function auditItems(tx: Queryable, ids: number[], where: SQL, limit?: number): Promise<AuditItem[]> {
  const idFilter = ids.length
    ? sql`${auditLog.id} in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`
    : where;
  const res = (await tx.execute(sql`
    select a.id, a.at, a.user_id, coalesce(nullif(u.hymc, ''), u.phone) as user_name, a.action, a.target, a.detail, a.ip,
           a.ent as enterprise_id, e.qymc
    from (select ${auditLog.id} as id, ${auditLog.at} as at, ${auditLog.userId} as user_id, ${auditLog.action} as action,
                 ${auditLog.target} as target, ${auditLog.detail} as detail, ${auditLog.ip} as ip, ${auditLog.enterpriseId} as ent
          from ${auditLog} where ${idFilter} order by ${auditLog.id} desc ${limit ? sql`limit ${limit}` : sql``}) a
    left join users u on u.id = a.user_id
    left join enterprises e on e.id = a.ent
    order by a.id desc`)) as unknown as { rows: Row[] };
  return res.rows.map((r) => {
    const detail = typeof r.detail === 'string' ? (JSON.parse(r.detail) as Record<string, unknown>) : r.detail;
    return {
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      userId: r.user_id === null ? null : Number(r.user_id),
      userName: r.user_name ?? '',
      action: r.action,
      actionLabel: actionLabel(r.action),
      target: r.target,
      enterpriseId: r.enterprise_id === null ? null : Number(r.enterprise_id),
      enterpriseName: r.qymc ?? '',
      detail: maskDetail(detail ?? {}) as Record<string, unknown>,
      ip: r.ip,
    };
  });
}

export function auditPage(tx: Queryable, agencyId: number | null, body: AuditQuery & PageAsk) {
  const where = auditWhere(agencyId, body);
  const filter = {
    agencyId,
    dateFrom: body.dateFrom,
    dateTo: body.dateTo,
    userId: body.userId,
    kind: body.kind,
    ent: body.enterpriseId,
  };
  return listPage(tx, { from: sql`${auditLog}`, where, sort: AUDIT_SORT, ask: body, filter }, (ids) =>
    auditItems(tx, ids, where),
  );
}
