import { type AuditItem, auditLogListCall, CODE, platformAuditLogListCall } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inScope } from '../src/db/client.js';
import { agencySecurity } from '../src/db/schema/index.js';
import { AUDIT_RETENTION_QUEUE, scheduleAuditRetention } from '../src/modules/audit-log/audit-log.jobs.js';
import { ADMIN, ID, LI, OTHER_ADMIN, readSheet, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, jobsDone, OPERATOR, testDeps } from './message-helpers.js';

vi.setConfig({ testTimeout: 120_000 });

let t: TestApp;
let admin: string;
let zhang: string;
let other: string;
let operator: string;
let ent = 0;

type Page = { list: AuditItem[]; total: number; cursor: { next: string | null; prev: string | null } };

/** Writes audit rows as the modules do (in the agency's scope), with a chosen age. */
async function seedRow(row: {
  agencyId: number | null;
  userId: number | null;
  action: string;
  target?: string;
  detail?: Record<string, unknown>;
  daysAgo?: number;
}) {
  const [r] = await t.ownerQuery<{ id: number }>(
    `insert into audit_log (agency_id, user_id, action, target, detail, ip, at)
     values ($1, $2, $3, $4, $5::jsonb, '10.0.0.9', now() - make_interval(days => $6::int)) returning id`,
    [row.agencyId, row.userId, row.action, row.target ?? '', JSON.stringify(row.detail ?? {}), row.daysAgo ?? 0],
  );
  return Number(r?.id);
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, zhang, other, operator] = await Promise.all([
    t.login(ADMIN),
    t.login(ZHANG),
    t.login(OTHER_ADMIN),
    t.login(OPERATOR),
  ]);
  await t.login(LI);
  const [e] = await t.ownerQuery<{ id: number }>('select id from enterprises where agency_id = 1 order by id limit 1');
  ent = Number(e?.id);
  await seedRow({
    agencyId: 1,
    userId: ID.admin,
    action: 'customer.update',
    target: `enterprise:${ent}`,
    detail: { before: { dlmm: 'Secret#123456', fee: 10000 }, after: { dlmm: 'Other#654321', fee: 12000 } },
  });
  await seedRow({
    agencyId: 1,
    userId: ID.li,
    action: 'fee.charge_add',
    detail: { enterpriseId: ent, amountFen: 50000 },
    daysAgo: 3,
  });
  await seedRow({ agencyId: 2, userId: ID.otherAdmin, action: 'customer.create', target: 'enterprise:999999' });
}, 400_000);
afterAll(() => t.close());

const list = (cookie: string, body: Record<string, unknown> = {}) => t.call<Page>(auditLogListCall.path, body, cookie);

describe('操作日志 (the audit log viewer)', () => {
  it('is refused to staff without the permission, and shown once the administrator grants it', async () => {
    const refused = await list(zhang);
    expect(refused.code).toBe(CODE.NO_PERMISSION);
    await withDefaultPerms(t, ['agency:audit:view'], async () => {
      const granted = await list(zhang);
      expect(granted.code).toBe(CODE.OK);
    });
  });

  it("lists the agency's rows newest first with who, the action in Chinese, the client, masked credentials and IP", async () => {
    const page = await list(admin, { pageSize: 20 });
    expect(page.code).toBe(CODE.OK);
    expect(page.data.list.length).toBeGreaterThan(0);
    const ids = page.data.list.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const update = page.data.list.find((r) => r.action === 'customer.update');
    expect(update).toMatchObject({ actionLabel: '修改客户', enterpriseId: ent, ip: '10.0.0.9', userId: ID.admin });
    expect(update?.enterpriseName).not.toBe('');
    expect(update?.userName).not.toBe('');
    expect(update?.detail).toEqual({
      before: { dlmm: 'Sec****3456', fee: 10000 },
      after: { dlmm: 'Oth****4321', fee: 12000 },
    });
    // Agency 2's rows are not agency 1's to see, and the reverse.
    expect(page.data.list.some((r) => r.action === 'customer.create' && r.target === 'enterprise:999999')).toBe(false);
    const theirs = await list(other);
    expect(theirs.code).toBe(CODE.OK);
    expect(theirs.data.list.some((r) => r.action === 'customer.create' && r.target === 'enterprise:999999')).toBe(true);
    expect(theirs.data.list.some((r) => r.action === 'customer.update' && r.enterpriseId === ent)).toBe(false);
  });

  it('filters by member, action kind, client and time range; pages by cursor', async () => {
    const byLi = await list(admin, { userId: ID.li });
    expect(byLi.data.list.length).toBeGreaterThan(0);
    expect(byLi.data.list.every((r) => r.userId === ID.li)).toBe(true);
    const fees = await list(admin, { kind: 'fee' });
    expect(fees.data.list.map((r) => r.action)).toEqual(['fee.charge_add']);
    expect(fees.data.total).toBe(1);
    const client = await list(admin, { enterpriseId: ent });
    expect(client.data.list.map((r) => r.action).sort()).toEqual(['customer.update', 'fee.charge_add']);
    const day = (d: number) => new Date(Date.now() - d * 86_400_000 + 8 * 3600_000).toISOString().slice(0, 10);
    const old = await list(admin, { enterpriseId: ent, dateFrom: day(5), dateTo: day(2) });
    expect(old.data.list.map((r) => r.action)).toEqual(['fee.charge_add']);
    const bad = await list(admin, { dateFrom: '2026/01/01' });
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toContain('日期格式应为 YYYY-MM-DD');
    const badSize = await list(admin, { pageSize: 7 });
    expect(badSize.msg).toContain('每页条数须为20、50或100');

    for (let i = 0; i < 25; i++)
      await seedRow({ agencyId: 1, userId: ID.zhang, action: 'workorder.add', target: `wo:${i}` });
    const p1 = await list(admin, { kind: 'workorder', pageSize: 20 });
    expect(p1.data.total).toBe(25);
    const p2 = await list(admin, { kind: 'workorder', pageSize: 20, pageNo: 2, cursor: p1.data.cursor.next });
    expect(p2.data.list).toHaveLength(5);
    const all = [...p1.data.list, ...p2.data.list].map((r) => r.id);
    expect(new Set(all).size).toBe(25);
  });

  it('exports the filtered rows as .xlsx, refused without the permission', async () => {
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/files/audit/export?kind=fee',
      headers: { cookie: zhang },
    });
    expect(refused.json()).toMatchObject({ code: CODE.NO_PERMISSION });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/files/audit/export?kind=fee',
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(['时间', '操作人', '操作', '客户', '对象', '详情（变更前 → 变更后）', 'IP']);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.[2]).toBe('登记收款');
  });

  it("shows the operator the platform's events, and no agency anything of the platform's", async () => {
    await seedRow({ agencyId: null, userId: null, action: 'auth.login_failed', target: '13512345678' });
    const ops = await t.call<Page>(platformAuditLogListCall.path, { kind: 'auth' }, operator);
    expect(ops.code).toBe(CODE.OK);
    expect(ops.data.list.some((r) => r.action === 'auth.login_failed' && r.target === '13512345678')).toBe(true);
    expect(ops.data.list.every((r) => r.actionLabel !== '')).toBe(true);
    expect((await t.call(platformAuditLogListCall.path, {}, admin)).code).toBe(CODE.NO_PERMISSION);
    const mine = await list(admin, { kind: 'auth', pageSize: 100 });
    expect(mine.data.list.some((r) => r.target === '13512345678')).toBe(false);
  });
});

describe('retention', () => {
  it('deletes rows past the retention (at least 180 days) in the daily job, and nothing younger', async () => {
    const keep = await seedRow({ agencyId: 1, userId: ID.admin, action: 'customer.update', daysAgo: 179 });
    // Agency 1 keeps 300 days (below): its rows of 181 and 250 days stay, one of 400 days goes.
    const within = await seedRow({ agencyId: 1, userId: ID.admin, action: 'customer.update', daysAgo: 181 });
    const between = await seedRow({ agencyId: 1, userId: ID.admin, action: 'customer.update', daysAgo: 250 });
    const ancient = await seedRow({ agencyId: 1, userId: ID.admin, action: 'customer.update', daysAgo: 400 });
    // Agency 2 keeps the default 180 days; platform rows are kept 180 days.
    const theirs = await seedRow({ agencyId: 2, userId: ID.otherAdmin, action: 'customer.update', daysAgo: 181 });
    const platform = await seedRow({ agencyId: null, userId: null, action: 'auth.login_failed', daysAgo: 200 });
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.insert(agencySecurity).values({ agencyId: 1, auditRetentionDays: 300 }),
    );
    // The app role deletes no audit row itself, not even an old one; only purge_audit_log() does, and it
    // never takes a row younger than 180 days.
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.execute(sql`delete from audit_log where id in (${keep}, ${ancient})`),
    ).catch(() => undefined);
    expect(
      await t.ownerQuery('select 1 from audit_log where id = any($1::int[])', [`{${keep},${ancient}}`]),
    ).toHaveLength(2);

    await t.ownerQuery('delete from jobs where queue = $1', [AUDIT_RETENTION_QUEUE]);
    await scheduleAuditRetention(testDeps(t), '2031-01-01');
    await t.app.ready();
    for (const agency of [AGENCY.demo, AGENCY.other]) {
      const ran = await jobsDone(t, agency, AUDIT_RETENTION_QUEUE, 60_000);
      expect(ran.map((j) => [j.state, j.error])).toEqual([['done', null]]);
    }
    const left = await t.ownerQuery<{ id: number }>('select id from audit_log where id = any($1::int[])', [
      `{${[keep, within, between, ancient, theirs, platform].join(',')}}`,
    ]);
    expect(left.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual([keep, within, between].sort((a, b) => a - b));
  });
});
