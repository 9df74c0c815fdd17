import {
  CODE,
  type CustomerItem,
  chargeListCall,
  customerListCall,
  PAGING_MSG,
  type PageCursors,
  receivableListCall,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { ADMIN, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

type Page = { list: CustomerItem[]; total: number; cursor: PageCursors };

const TWINS = 45; // clients of one name: ties on the sort key, ordered by id
const BULK = 21_000; // the other agency's book: past the jump bound from both ends

/**
 * The fee lists' data in agency 1: 12 contracts (the last one deleted, htzt '0', whose fees nobody sees) on
 * the first 12 clients, 3 periods each, 4 charges a period: two amounts and three pay dates, so every sort
 * has ties; every 7th charge revoked; pay methods in turn.
 */
async function seedFees(owner: Db) {
  const admin = sql`(select id from users where phone = ${ADMIN})`;
  await owner.execute(sql`
    insert into contracts (agency_id, contract_no, enterprise_id, contract_user_id, htzt, sign_date, start_date,
                           end_date, pay_cycle, total_price_fen, amount_fen)
    select 1, 'PG' || lpad(e.n::text, 4, '0'), e.id, ${admin}, case when e.n = 12 then '0' else '2' end,
           '2025-01-01', '2025-01-01', '2025-04-01', 1, 120000, 120000
    from (select id, row_number() over (order by id) n from enterprises where agency_id = 1 and deleted_at is null
          order by id limit 12) e`);
  await owner.execute(sql`
    insert into receivables (agency_id, contract_id, enterprise_id, period_no, period_start, period_end, due_date,
                             amount_fen, paid_fen)
    select 1, c.id, c.enterprise_id, p, ('2025-01-01'::date + make_interval(months => p - 1))::date,
           ('2025-01-01'::date + make_interval(months => p))::date,
           ('2025-01-01'::date + make_interval(months => p - 1))::date, 40000, (p - 1) * 10000
    from contracts c cross join generate_series(1, 3) p where c.contract_no like 'PG%'`);
  await owner.execute(sql`
    insert into charges (agency_id, receivable_id, contract_id, enterprise_id, amount_fen, pay_date, pay_method,
                         receipt_no, created_by, revoked_at)
    select 1, r.id, r.contract_id, r.enterprise_id, case when r.n % 2 = 0 then 10000 else 25000 end, r.due_date,
           (array['1','2','3','4','9'])[r.n % 5 + 1], 'PGR' || r.n, ${admin},
           case when r.n % 7 = 0 then now() end
    from (select r.*, row_number() over (order by r.id, k) n
          from receivables r join contracts c on c.id = r.contract_id cross join generate_series(1, 4) k
          where c.contract_no like 'PG%') r`);
}

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
      await seedFees(owner);
    },
  });
  [admin, other] = await Promise.all([t.login(ADMIN), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

/** Any list call: walks forward and back by cursor; both equal the pages by number. Answers the ids in order. */
async function walkCall(path: string, filter: Record<string, unknown>, pageSize: number): Promise<number[]> {
  type P = { list: { id: number }[]; total: number; cursor: PageCursors };
  const get = async (body: Record<string, unknown>) => {
    const r = await t.call<P>(path, { ...filter, pageSize, ...body }, admin);
    if (r.code !== CODE.OK) throw new Error(`${r.code} ${r.msg}`);
    return r.data;
  };
  const first = await get({ pageNo: 1 });
  const pages = Math.ceil(first.total / pageSize);
  const byNumber: number[][] = [];
  for (let n = 1; n <= pages; n++) byNumber.push((await get({ pageNo: n })).list.map((e) => e.id));
  let cur = first;
  const forward = [cur.list.map((e) => e.id)];
  for (let n = 2; n <= pages; n++) {
    cur = await get({ pageNo: n, cursor: cur.cursor.next });
    forward.push(cur.list.map((e) => e.id));
  }
  const backward = [cur.list.map((e) => e.id)];
  for (let n = pages - 1; n >= 1; n--) {
    cur = await get({ pageNo: n, cursor: cur.cursor.prev });
    backward.unshift(cur.list.map((e) => e.id));
  }
  expect(forward, `${path} ${JSON.stringify(filter)} forward`).toEqual(byNumber);
  expect(backward, `${path} ${JSON.stringify(filter)} backward`).toEqual(byNumber);
  const all = byNumber.flat();
  expect(new Set(all).size).toBe(first.total);
  return all;
}

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

  it('a cursor whose values were edited to fit no column is refused with 400, not an error', async () => {
    const p1 = await page(admin, { pageNo: 1 });
    const real = JSON.parse(Buffer.from(p1.cursor.next ?? '', 'base64url').toString('utf8')) as { key: string[] };
    const forged = Buffer.from(JSON.stringify({ ...real, key: real.key.map(() => 'x') })).toString('base64url');
    const r = await t.call(customerListCall.path, { pageNo: 2, pageSize: 20, cursor: forged }, admin);
    expect([r.status, r.code, r.msg]).toEqual([400, CODE.BAD_REQUEST, PAGING_MSG.badCursor]);
    // The same user's next request is answered as usual.
    expect((await page(admin, { pageNo: 2, cursor: p1.cursor.next })).list).toHaveLength(20);
  });

  it('the fee lists: steps by cursor give the pages by number for every sort, ties included', async () => {
    const visible = await t.ownerQuery<{ id: number }>(
      `select ch.id from charges ch join contracts c on c.id = ch.contract_id
       where ch.agency_id = 1 and c.htzt <> '0' and c.contract_no like 'PG%'`,
    );
    expect(visible.length).toBe(11 * 3 * 4);
    for (const sort of [
      {},
      { sortOrder: 'ascend' },
      { sortField: 'amount' },
      { sortField: 'amount', sortOrder: 'ascend' },
      { sortField: 'createdAt' },
    ]) {
      const ids = await walkCall(chargeListCall.path, { contractNo: 'PG', ...sort }, 20);
      expect([...ids].sort((a, b) => a - b)).toEqual(visible.map((r) => r.id).sort((a, b) => a - b));
    }
    const periods = await t.ownerQuery<{ n: number }>(
      `select count(*)::int n from receivables r join contracts c on c.id = r.contract_id
       where r.agency_id = 1 and c.htzt <> '0' and c.contract_no like 'PG%'`,
    );
    for (const sortField of [undefined, 'dueDate', 'amount', 'paid', 'unpaid']) {
      for (const sortOrder of ['ascend', 'descend']) {
        const ids = await walkCall(receivableListCall.path, { contractNo: 'PG', sortField, sortOrder }, 20);
        expect(ids.length).toBe(periods[0]?.n);
      }
    }
  });

  it('the fee lists: total and 合计 cover the whole filter, deleted contracts left out', async () => {
    type Charges = { total: number; totals: { amount: string } };
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'true'],
      [{ payMethod: '2' }, `ch.pay_method = '2'`],
      [{ revoked: '1' }, 'ch.revoked_at is not null'],
      [{ revoked: '0', payFrom: '2025-02-01' }, `ch.revoked_at is null and ch.pay_date >= '2025-02-01'`],
      [{ contractNo: 'PG0003' }, `c.contract_no = 'PG0003'`],
    ];
    for (const [filter, cond] of cases) {
      const r = await t.call<Charges>(chargeListCall.path, { pageNo: 1, pageSize: 20, ...filter }, admin);
      expect(r.code).toBe(CODE.OK);
      const [want] = await t.ownerQuery<{ n: number; s: string }>(
        `select count(*)::int n, coalesce(sum(ch.amount_fen) filter (where ch.revoked_at is null), 0)::text s
         from charges ch join contracts c on c.id = ch.contract_id
         where ch.agency_id = 1 and c.htzt <> '0' and (${cond})`,
      );
      expect([r.data.total, Math.round(Number(r.data.totals.amount) * 100)], JSON.stringify(filter)).toEqual([
        want?.n,
        Number(want?.s),
      ]);
    }
    const r = await t.call<{ total: number; totals: { amount: string; paid: string } }>(
      receivableListCall.path,
      { pageNo: 1, pageSize: 20, contractNo: 'PG' },
      admin,
    );
    const [want] = await t.ownerQuery<{ n: number; a: string; p: string }>(
      `select count(*)::int n, sum(r.amount_fen)::text a, sum(r.paid_fen)::text p
       from receivables r join contracts c on c.id = r.contract_id
       where r.agency_id = 1 and c.htzt <> '0' and c.contract_no like 'PG%'`,
    );
    expect(r.data.total).toBe(want?.n);
    expect(Math.round(Number(r.data.totals.amount) * 100)).toBe(Number(want?.a));
    expect(Math.round(Number(r.data.totals.paid) * 100)).toBe(Number(want?.p));
    // Another agency sees only its own charges, whatever cursor it is handed.
    const mine = await t.call<{ cursor: PageCursors }>(chargeListCall.path, { pageNo: 1, pageSize: 20 }, admin);
    const theirs = await t.call<{ list: { id: number }[] }>(
      chargeListCall.path,
      { pageNo: 2, pageSize: 20, cursor: mine.data.cursor.next },
      other,
    );
    expect(theirs.code).toBe(CODE.OK);
    const owners = await t.ownerQuery<{ agency_id: number }>(
      'select distinct agency_id from charges where id = any($1::int[])',
      [`{${theirs.data.list.map((c) => c.id).join(',')}}`],
    );
    expect(owners.every((o) => o.agency_id === 2)).toBe(true);
    // Exactly the caller's own rows past the boundary the cursor names (newest payment first).
    const key = (
      JSON.parse(Buffer.from(mine.data.cursor.next ?? '', 'base64url').toString('utf8')) as { key: string[] }
    ).key;
    const past = await t.ownerQuery<{ id: number }>(
      `select ch.id from charges ch join contracts c on c.id = ch.contract_id
       where ch.agency_id = 2 and c.htzt <> '0' and (ch.pay_date, ch.id) < ($1::date, $2::int)
       order by ch.pay_date desc, ch.id desc limit 20`,
      key,
    );
    expect(past.length).toBeGreaterThan(0);
    expect(theirs.data.list.map((c) => c.id)).toEqual(past.map((r) => r.id));
  });

  it('the fee list pages the same way and its 合计 covers the whole filter', async () => {
    const r1 = await t.call<{ list: { id: number }[]; total: number; totals: { amount: string }; cursor: PageCursors }>(
      chargeListCall.path,
      { pageNo: 1, pageSize: 20 },
      admin,
    );
    expect(r1.code).toBe(CODE.OK);
    const sum = await t.ownerQuery<{ s: string; n: number }>(
      `select coalesce(sum(ch.amount_fen) filter (where ch.revoked_at is null), 0)::text as s, count(*)::int as n
       from charges ch join contracts c on c.id = ch.contract_id where ch.agency_id = 1 and c.htzt <> '0'`,
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
