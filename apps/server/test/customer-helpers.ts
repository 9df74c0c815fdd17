import {
  ADMIN_GRANTED_PERMS,
  CODE,
  type CustomerCreateBody,
  type CustomerDetail,
  type CustomerItem,
  customerCreateCall,
  customerDetailCall,
  customerListCall,
  DEFAULT_STAFF_PERMS,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { inScope } from '../src/db/client.js';
import { enterprises, roles } from '../src/db/schema/index.js';
import { ExcelJS } from '../src/modules/customer/xlsx.js';
import type { TestApp } from './harness.js';

/** Demo people and their user ids (apps/server/src/db/seed/demo.ts). */
export const ADMIN = '13800000000';
export const LI = '13800000001';
export const ZHANG = '13800000002';
export const OTHER_ADMIN = '13900000000';
export const FACTORY = '13700000000';
export const ID = { admin: 1, li: 2, zhang: 3, otherAdmin: 4, factory: 5 } as const;

/**
 * Demo enterprises: agency 1 has ids 1-60 given round-robin to 王建国, 李晓梅, 张伟 (id % 3 = 1, 2, 0);
 * agency 2 has 61-80. Ids 5 (李晓梅's) and 6 (张伟's) have no tax number. Benefit kinds by (id - 1) % 6:
 * 0, 1, 5 active with rights to stop/resume service; 2 about to expire with rights; 3 expired; 4 none.
 */
export const ENT = {
  adminOwn: 1,
  liOwn: 2,
  zhangOwn: 3,
  expired: 4,
  liNoTax: 5,
  zhangNoTax: 6,
  otherAgency: 61,
} as const;

export async function list(t: TestApp, cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<{ list: CustomerItem[]; total: number }>(
    customerListCall.path,
    { pageSize: 100, ...body },
    cookie,
  );
  if (r.code !== CODE.OK) throw new Error(`list failed: ${r.code} ${r.msg}`);
  return r.data;
}

export async function detail(t: TestApp, cookie: string, id: number) {
  const r = await t.call<CustomerDetail>(customerDetailCall.path, { id }, cookie);
  if (r.code !== CODE.OK) throw new Error(`detail failed: ${r.code} ${r.msg}`);
  return r.data;
}

let n = 0;
const usccStart = Math.floor(Math.random() * 800_000);
/** A fresh valid unified social credit code (check character computed). */
export function newUscc(): string {
  n += 1;
  const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  const w = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
  // Distinct within the process (a random start, then one apart), so two calls never collide.
  const first17 = `91330106MA${String(100000 + ((usccStart + n) % 900000)).padStart(6, '0')}X`.slice(0, 17);
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += chars.indexOf(first17.charAt(i)) * (w[i] ?? 0);
  return first17 + chars.charAt((31 - (sum % 31)) % 31);
}

export async function create(t: TestApp, cookie: string, body: Partial<CustomerCreateBody> = {}) {
  const r = await t.call<{ id: number; warning: string | null }>(
    customerCreateCall.path,
    { qymc: `测试企业${Date.now()}${Math.random().toString(36).slice(2, 6)}有限公司`, qysh: newUscc(), ...body },
    cookie,
  );
  return r;
}

/** A row of the enterprises table as stored (read in the agency's scope). */
export async function stored(t: TestApp, agencyId: number, id: number) {
  const [row] = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(enterprises)
      .where(and(eq(enterprises.id, id), eq(enterprises.agencyId, agencyId))),
  );
  return row;
}

/**
 * What an administrator of agency 1 may do for their staff: give the default role (held by 李晓梅 and
 * 张伟) the destructive, bulk and credential permissions as well. For tests of data scope, where the
 * staff member must be allowed the action and only their scope may stop them.
 */
export async function grantStaffEverything(t: TestApp) {
  await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
    tx
      .update(roles)
      .set({ perms: [...DEFAULT_STAFF_PERMS, ...ADMIN_GRANTED_PERMS] })
      .where(and(eq(roles.agencyId, 1), eq(roles.isDefault, true))),
  );
}

/** Runs `fn` while agency 1's default role (普通员工, held by 张伟) has only `perms`; restores it after. */
export async function withDefaultPerms(t: TestApp, perms: string[], fn: () => Promise<void>) {
  const scope = { agencyId: 1, userId: null, kjgcId: null };
  const where = and(eq(roles.agencyId, 1), eq(roles.isDefault, true));
  const [before] = await inScope(t.db.app, scope, (tx) => tx.select({ perms: roles.perms }).from(roles).where(where));
  await inScope(t.db.app, scope, (tx) => tx.update(roles).set({ perms }).where(where));
  try {
    await fn();
  } finally {
    await inScope(t.db.app, scope, (tx) =>
      tx
        .update(roles)
        .set({ perms: before?.perms ?? [] })
        .where(where),
    );
  }
}

/** An .xlsx file: one sheet with a header row and the rows given. */
export async function xlsx(header: readonly string[], rows: readonly (readonly string[])[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow([...header]);
  for (const r of rows) ws.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Reads the first sheet of an .xlsx into rows of text. */
export async function readSheet(buf: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const out: string[][] = [];
  ws?.eachRow((row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    out.push(values.map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return out;
}

/** A multipart/form-data body with one file field `file` (and optional text fields). */
export function multipart(
  file: { name: string; data: Buffer; type?: string } | null,
  fields: Record<string, string> = {},
) {
  const boundary = `----dzy${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Posts a multipart upload; answers the envelope and the HTTP status. */
export async function upload<T = unknown>(
  t: TestApp,
  path: string,
  cookie: string | undefined,
  file: { name: string; data: Buffer; type?: string } | null,
) {
  const body = multipart(file);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
  const json = res.json() as { code: number; msg: string; data: T };
  return { status: res.statusCode, ...json };
}

/** GETs a file; answers status, headers and the bytes. */
export async function download(t: TestApp, url: string, cookie?: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload, json: () => res.json() };
}
