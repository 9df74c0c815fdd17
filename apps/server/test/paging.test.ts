import { CODE, type CustomerItem, chargeListCall, customerListCall, PAGING_MSG, type PageCursors } from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

type Page = { list: CustomerItem[]; total: number; cursor: PageCursors };

const TWINS = 45; // clients of one name: ties on the sort key, ordered by id
const BULK = 21_000; // the other agency's book: past the jump bound from both ends

let t: TestApp;
let admin: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      await owner.execute(sql`
        insert into enterprises (agency_id, qymc, qysh)
        select 1, '同名测试有限公司', '91310000TWIN' || lpad(n::text, 6, '0') from generate_series(1, ${TWINS}) n`);
      await owner.execute(sql`
        insert into enterprises (agency_id, qymc, qysh)
        select 2, '批量企业' || lpad(n::text, 5, '0'), '91330000BULK' || lpad(n::text, 6, '0')
        from generate_series(1, ${BULK}) n`);
    },
  });
  [admin, other] = await Promise.all([t.login(ADMIN), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

async function page(cookie: string, body: Record<string, unknown>): Promise<Page> {
  const r = await t.call<Page>(customerListCall.path, { pageSize: 20, ...body }, cookie);
  if (r.code !== CODE.OK) throw new Error(`${r.code} ${r.msg}`);
  return r.data;
}

/** Walks every page forward by cursor, then back by cursor; both must equal the pages by number. */
async function walk(cookie: string, filter: Record<string, unknown>) {
  const first = await page(cookie, { ...filter, pageNo: 1 });
  const pages = Math.ceil(first.total / 20);
  const byNumber: number[][] = [];
  for (let n = 1; n <= pages; n++) byNumber.push((await page(cookie, { ...filter, pageNo: n })).list.map((e) => e.id));
  const forward: number[][] = [first.list.map((e) => e.id)];
  let cur = first;
  for (let n = 2; n <= pages; n++) {
    expect(cur.cursor.next, `page ${n - 1} leads on`).not.toBeNull();
    cur = await page(cookie, { ...filter, pageNo: n, cursor: cur.cursor.next });
    forward.push(cur.list.map((e) => e.id));
  }
  expect(cur.cursor.next === null || cur.list.length === 20).toBe(true);
  const backward: number[][] = [cur.list.map((e) => e.id)];
  for (let n = pages - 1; n >= 1; n--) {
    cur = await page(cookie, { ...filter, pageNo: n, cursor: cur.cursor.prev });
    backward.unshift(cur.list.map((e) => e.id));
  }
  expect(cur.cursor.prev).toBeNull();
  expect(forward).toEqual(byNumber);
  expect(backward).toEqual(byNumber);
  const all = byNumber.flat();
  expect(new Set(all).size).toBe(first.total);
  return all;
}

describe('one paging mechanism (keyset steps, bounded jumps)', () => {
  it('steps by cursor give the same pages as page numbers, for every sort, ties included', async () => {
    const newest = await walk(admin, {});
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    const oldest = await walk(admin, { sortOrder: 'ascend' });
    expect(oldest).toEqual([...newest].reverse());
    for (const sortOrder of ['ascend', 'descend']) {
      const ids = await walk(admin, { sortField: 'qymc', sortOrder });
      // The twins sit together, in id order (the sort's direction), across page boundaries.
      const rows = await t.ownerQuery<{ id: number }>(
        `select id from enterprises where agency_id = 1 and qymc = '同名测试有限公司' order by id ${sortOrder === 'ascend' ? 'asc' : 'desc'}`,
      );
      const twins = rows.map((r) => r.id);
      const at = ids.indexOf(twins[0] ?? -1);
      expect(ids.slice(at, at + TWINS)).toEqual(twins);
    }
    await walk(admin, { keyword: '同名测试' });
  });

  it('a cursor of another filter or sort is not applied: the page is read by its number', async () => {
    const p1 = await page(admin, { pageNo: 1 });
    const byName = await page(admin, { pageNo: 2, sortField: 'qymc', sortOrder: 'ascend', cursor: p1.cursor.next });
    const plain = await page(admin, { pageNo: 2, sortField: 'qymc', sortOrder: 'ascend' });
    expect(byName.list.map((e) => e.id)).toEqual(plain.list.map((e) => e.id));
  });

  it('refuses a forged cursor with 400 and the message, and changes nothing', async () => {
    for (const cursor of ['not-a-cursor', Buffer.from('{"to":2}').toString('base64url'), 'x'.repeat(3000)]) {
      const r = await t.call(customerListCall.path, { pageNo: 2, pageSize: 20, cursor }, admin);
      expect(r.status).toBe(400);
      if (cursor.length < 2000) expect(r.msg).toBe(PAGING_MSG.badCursor);
    }
  });

  it("another agency's cursor shows only the caller's own rows", async () => {
    const mine = await page(admin, { pageNo: 1 });
    const theirs = await page(other, { pageNo: 2, cursor: mine.cursor.next });
    const agencies = await t.ownerQuery<{ agency_id: number }>(
      `select distinct agency_id from enterprises where id = any($1::int[])`,
      [`{${theirs.list.map((e) => e.id).join(',')}}`],
    );
    expect(agencies).toEqual([{ agency_id: 2 }]);
  });

  it('jumps near either end of a long list, and refuses the middle with a message', async () => {
    const first = await page(other, { pageNo: 1, pageSize: 500 });
    expect(first.total).toBeGreaterThan(BULK);
    const lastNo = Math.ceil(first.total / 500);
    const last = await page(other, { pageNo: lastNo, pageSize: 500 });
    expect(last.list.length).toBe(first.total - (lastNo - 1) * 500);
    const beforeLast = await page(other, { pageNo: lastNo - 1, pageSize: 500 });
    // The oldest rows, newest first, ending with the very first id.
    const oldest = await t.ownerQuery<{ id: number }>(
      'select id from enterprises where agency_id = 2 and deleted_at is null order by id asc limit 1',
    );
    expect(last.list.at(-1)?.id).toBe(oldest[0]?.id);
    expect(beforeLast.list.at(-1)?.id).toBeGreaterThan(last.list[0]?.id ?? 0);
    const middle = await t.call(customerListCall.path, { pageNo: 22, pageSize: 500 }, other);
    expect([middle.status, middle.msg]).toEqual([400, PAGING_MSG.tooDeep]);
    // Stepping there from a page near it works.
    const p21 = await page(other, { pageNo: 21, pageSize: 500 });
    const p22 = await page(other, { pageNo: 22, pageSize: 500, cursor: p21.cursor.next });
    expect(p22.list.length).toBe(500);
    expect(p22.list[0]?.id).toBeLessThan(p21.list.at(-1)?.id ?? 0);
  });

  it('the fee list pages the same way and its 合计 covers the whole filter', async () => {
    const r1 = await t.call<{ list: { id: number }[]; total: number; totals: { amount: string }; cursor: PageCursors }>(
      chargeListCall.path,
      { pageNo: 1, pageSize: 20 },
      admin,
    );
    expect(r1.code).toBe(CODE.OK);
    const sum = await t.ownerQuery<{ s: string; n: number }>(
      'select coalesce(sum(amount_fen) filter (where revoked_at is null), 0)::text as s, count(*)::int as n from charges where agency_id = 1',
    );
    expect(r1.data.total).toBe(sum[0]?.n);
    expect(Math.round(Number(r1.data.totals.amount) * 100)).toBe(Number(sum[0]?.s));
    if (r1.data.cursor.next) {
      const r2 = await t.call<{ list: { id: number }[] }>(
        chargeListCall.path,
        { pageNo: 2, pageSize: 20, cursor: r1.data.cursor.next },
        admin,
      );
      const plain = await t.call<{ list: { id: number }[] }>(chargeListCall.path, { pageNo: 2, pageSize: 20 }, admin);
      expect(r2.data.list.map((c) => c.id)).toEqual(plain.data.list.map((c) => c.id));
    }
  });
});
