import { createHash } from 'node:crypto';
import { CODE, PAGING_MSG, type PageCursors } from '@dzy/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { AppError } from '../plugins/errors.js';
import type { Queryable } from './client.js';

/**
 * The one paging mechanism of every list (ARCHITECTURE.md "Lists").
 *
 * - A list offers sorts, each served by an index that ends in the id: `keys` are the sort's columns,
 *   the last one the id, all NOT NULL, all in one direction (row-value comparison needs that).
 * - Moving to the next or previous page uses the cursor the previous reply gave: a keyset step that
 *   reads `pageSize` index entries wherever the page is.
 * - Jumping to any other page reads ids by OFFSET in index order (an index-only walk), bounded: a page
 *   more than MAX_JUMP rows from the start is read from the end instead, and one more than MAX_JUMP
 *   from both ends is refused (narrow the filter).
 * - The rows themselves are then read by id; the total and 合计 come from one aggregate (countOf) over
 *   only the tables the filter needs, never a window over the page query.
 */
export const MAX_JUMP = 10_000;

/** The cursors of a list with nothing to page (no rows, or a caller with no agency). */
export const NO_CURSORS: PageCursors = { next: null, prev: null };

export interface Sort {
  /** Names the sort (cursors of one sort are not applied to another). */
  name: string;
  /** Columns (or expressions of the row) in order, the id last; none may be null. */
  keys: readonly (AnyPgColumn | SQL)[];
  desc: boolean;
}

export interface PageAsk {
  pageNo: number;
  pageSize: number;
  cursor?: string | undefined;
}

/** The sort as ORDER BY terms, for queries that read a whole filter in list order (exports). */
export const orderOf = (sort: Sort): SQL[] => sort.keys.map((k) => sql`${k} ${sql.raw(sort.desc ? 'desc' : 'asc')}`);

/** What the cursor holds: the page it leads to, the boundary row's sort key, and which filter it belongs to. */
const cursorSchema = z.object({
  to: z.number().int().min(1),
  dir: z.enum(['after', 'before']),
  key: z.array(z.string().max(500)).min(1).max(4),
  f: z.string().length(16),
});
type Cursor = z.infer<typeof cursorSchema>;

const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decode(raw: string): Cursor {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    throw new AppError(CODE.BAD_REQUEST, PAGING_MSG.badCursor);
  }
}

/** A fingerprint of the filter and sort: a cursor of another query is not applied to this one. */
export function filterKey(filter: unknown, sort: Sort): string {
  const text = JSON.stringify([filter, sort.name, sort.desc]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * One page of ids in the sort's order, and the cursors to the pages next to it. `from` is the FROM
 * clause the filter needs (a table, or the joins a keyword filter needs); `total` is only read for a
 * jump deep into a long list (pass a function: it is called then only).
 */
export async function pageIds(
  tx: Queryable,
  q: { from: SQL; where: SQL; sort: Sort; ask: PageAsk; filter: unknown; total: () => Promise<number> },
): Promise<{ ids: number[]; cursor: PageCursors }> {
  const { sort, ask } = q;
  const f = filterKey(q.filter, q.sort);
  const keyList = sql.join(
    sort.keys.map((k) => sql`${k}`),
    sql`, `,
  );
  const keyText = sql.join(
    sort.keys.map((k, i) => sql`${k}::text as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const order = (reverse: boolean) =>
    sql.join(
      sort.keys.map((k) => sql`${k} ${sql.raw(sort.desc !== reverse ? 'desc' : 'asc')}`),
      sql`, `,
    );

  const cursor = ask.cursor ? decode(ask.cursor) : null;
  let where = q.where;
  let reverse = false;
  let offset = (ask.pageNo - 1) * ask.pageSize;
  let stepping = false;
  if (cursor && cursor.to === ask.pageNo && cursor.f === f && cursor.key.length === sort.keys.length) {
    // The adjacent page: rows past the boundary row, in the sort's direction (or back from it).
    const values = sql.join(
      cursor.key.map((v) => sql`${v}`),
      sql`, `,
    );
    const forward = cursor.dir === 'after';
    const cmp = sql.raw(forward !== sort.desc ? '>' : '<');
    where = sql`(${q.where}) and (${keyList}) ${cmp} (${values})`;
    reverse = !forward;
    offset = 0;
    stepping = true;
  } else if (offset > MAX_JUMP) {
    // Deep in a long list: count from the end instead, when the page is near it.
    const total = await q.total();
    const fromEnd = total - ask.pageNo * ask.pageSize;
    if (fromEnd > MAX_JUMP) throw new AppError(CODE.BAD_REQUEST, PAGING_MSG.tooDeep);
    reverse = true;
    offset = Math.max(0, fromEnd);
    // The last page may be short: read only what it holds.
    if (fromEnd < 0) {
      const size = ask.pageSize + fromEnd;
      return size <= 0 ? { ids: [], cursor: { next: null, prev: null } } : finish(await read(size, 0));
    }
  }
  return finish(await read(ask.pageSize, offset));

  async function read(limit: number, skip: number) {
    const query = sql`select ${keyText} from ${q.from} where ${where} order by ${order(reverse)} limit ${limit} offset ${skip}`;
    let rows: Record<string, string>[];
    try {
      rows = rowsOf<Record<string, string>>(await tx.execute(query));
    } catch (err) {
      // A cursor whose key values do not fit the sort's columns (edited by hand): a bad request, not a 500.
      if (stepping && isDataException(err)) throw new AppError(CODE.BAD_REQUEST, PAGING_MSG.badCursor);
      throw err;
    }
    return reverse ? rows.reverse() : rows;
  }

  function finish(rows: Record<string, string>[]) {
    const keyOf = (r: Record<string, string> | undefined) => (r ? sort.keys.map((_, i) => String(r[`k${i}`])) : null);
    const first = keyOf(rows[0]);
    const last = keyOf(rows[rows.length - 1]);
    const idAt = sort.keys.length - 1;
    return {
      ids: rows.map((r) => Number(r[`k${idAt}`])),
      cursor: {
        next: last && rows.length === ask.pageSize ? encode({ to: ask.pageNo + 1, dir: 'after', key: last, f }) : null,
        prev: first && ask.pageNo > 1 ? encode({ to: ask.pageNo - 1, dir: 'before', key: first, f }) : null,
      },
    };
  }
}

/**
 * A whole page of a list whose rows are read by id: the total, the page's ids in the sort's order, then
 * `rowsFor(ids)` (any order; put back in the page's). For lists without 合计 sums.
 */
export async function listPage<T extends { id: number }>(
  tx: Queryable,
  q: { from: SQL; where: SQL; sort: Sort; ask: PageAsk; filter: unknown },
  rowsFor: (ids: number[]) => Promise<T[]>,
): Promise<{ list: T[]; total: number; cursor: PageCursors }> {
  const { total } = await countOf(tx, q.from, q.where);
  const page = await pageIds(tx, { ...q, total: async () => total });
  const byId = new Map((page.ids.length ? await rowsFor(page.ids) : []).map((r) => [r.id, r]));
  return { list: page.ids.flatMap((id) => byId.get(id) ?? []), total, cursor: page.cursor };
}

/** SQLSTATE class 22 (data exception: a value of the wrong type or out of range), through drizzle's wrapping. */
function isDataException(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && e.code.startsWith('22')) return true;
  }
  return false;
}

/** The number of rows matching the filter, and sums of the given expressions, in one aggregate. */
export async function countOf<S extends string>(
  tx: Queryable,
  from: SQL,
  where: SQL,
  sums: Record<S, SQL> = {} as Record<S, SQL>,
): Promise<{ total: number; sums: Record<S, string> }> {
  const extra = Object.entries<SQL>(sums).map(([name, expr]) => sql`, (${expr})::text as ${sql.identifier(name)}`);
  const [row] = rowsOf<Record<string, string | number>>(
    await tx.execute(sql`select count(*)::int as total ${sql.join(extra)} from ${from} where ${where}`),
  );
  const out = {} as Record<S, string>;
  for (const name of Object.keys(sums) as S[]) out[name] = String(row?.[name] ?? '0');
  return { total: Number(row?.total ?? 0), sums: out };
}
