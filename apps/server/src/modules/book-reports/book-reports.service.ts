import {
  type BalanceRow,
  BOOK_REPORT_MSG,
  CODE,
  type DetailRow,
  fenToYuanText,
  fillMsg,
  type GeneralAccount,
  LEDGER_MAX_MONTHS,
  monthsBetween,
  type StatementKind,
  type StatementLine,
  sideOf,
} from '@dzy/shared';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage, type PageAsk, type Sort } from '../../db/paging.js';
import { bookAccounts, bookCloses, books, enterprises, voucherLines, vouchers } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { CASH_CODES, type LineDef, STATEMENT_SETS, type StatementSet, VAT_PREFIX } from './statement-lines.js';

/**
 * 账簿 and 财务报表 (issue 16 point 4; docs/decisions-16-report.md). Balances come from book_balances
 * (per leaf account, aux item and period) and book_openings — never from summing voucher lines; the lines
 * are read only for 明细账, drill-down and the cash-flow statement's classification.
 * Amounts inside are "debit-positive" nets (debit − credit) unless named otherwise.
 */

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const num = (v: unknown) => Number(v ?? 0);

export type BookRow = typeof books.$inferSelect;
export type AccountRow = typeof bookAccounts.$inferSelect;
export interface ScopedBook extends BookRow {
  qymc: string;
  qysh: string;
}

/** The caller's tenant (a user without one sees no book). */
export function agencyOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.bookNotFound);
  return session.agencyId;
}

/** The books whose client is in the caller's data scope. */
export const scopedBooks = (session: SessionCtx) =>
  and(
    eq(books.agencyId, agencyOf(session)),
    sql`${enterprises.deletedAt} is null`,
    dataScope(session, enterprises.allocateUser),
  ) as SQL;

/** A book of the tenant whose client is in the caller's scope, or 404. */
export async function findBook(tx: Queryable, session: SessionCtx, bookId: number): Promise<ScopedBook> {
  const [row] = await tx
    .select({ book: books, qymc: enterprises.qymc, qysh: enterprises.qysh })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(and(eq(books.id, bookId), scopedBooks(session)));
  if (!row) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.bookNotFound);
  return { ...row.book, qymc: row.qymc, qysh: row.qysh };
}

/** A range inside the books (not before the start period, at most LEDGER_MAX_MONTHS long). */
export function checkRange(book: BookRow, from: string, to: string) {
  if (from > to) throw new AppError(CODE.BAD_REQUEST, BOOK_REPORT_MSG.rangeOrder);
  if (from < book.startPeriod)
    throw new AppError(CODE.BAD_REQUEST, fillMsg(BOOK_REPORT_MSG.beforeStart, { period: book.startPeriod }));
  if (monthsBetween(from, to).length > LEDGER_MAX_MONTHS)
    throw new AppError(CODE.BAD_REQUEST, BOOK_REPORT_MSG.rangeTooLong);
}

export const accountsOf = (tx: Queryable, bookId: number) =>
  tx.select().from(bookAccounts).where(eq(bookAccounts.bookId, bookId)).orderBy(asc(bookAccounts.code));

/** A leaf's figures over a range. */
export interface LeafNet {
  /** Balance before `from` (opening balance + earlier periods), debit-positive. */
  opening: number;
  periodDebit: number;
  periodCredit: number;
  /** 本年累计: the year of `to`, from January (openings' ytd included when the books start that year). */
  ytdDebit: number;
  ytdCredit: number;
}
const emptyNet = (): LeafNet => ({ opening: 0, periodDebit: 0, periodCredit: 0, ytdDebit: 0, ytdCredit: 0 });

/**
 * Every leaf account's figures over [from, to] in one aggregate over book_balances (index book_id, period)
 * and one over book_openings.
 */
export async function leafNets(tx: Queryable, book: BookRow, from: string, to: string): Promise<Map<number, LeafNet>> {
  const yearStart = `${to.slice(0, 4)}-01`;
  const res = await tx.execute(sql`
    select account_id,
      coalesce(sum(debit - credit) filter (where period < ${from}), 0)::text as pre,
      coalesce(sum(debit) filter (where period >= ${from}), 0)::text as pd,
      coalesce(sum(credit) filter (where period >= ${from}), 0)::text as pc,
      coalesce(sum(debit) filter (where period >= ${yearStart}), 0)::text as yd,
      coalesce(sum(credit) filter (where period >= ${yearStart}), 0)::text as yc
    from book_balances
    where book_id = ${book.id} and period <= ${to}
    group by account_id`);
  const out = new Map<number, LeafNet>();
  for (const r of rowsOf<{ account_id: number; pre: string; pd: string; pc: string; yd: string; yc: string }>(res)) {
    out.set(Number(r.account_id), {
      opening: num(r.pre),
      periodDebit: num(r.pd),
      periodCredit: num(r.pc),
      ytdDebit: num(r.yd),
      ytdCredit: num(r.yc),
    });
  }
  const openings = rowsOf<{ account_id: number; direction: string; balance: string; yd: string; yc: string }>(
    await tx.execute(sql`
      select o.account_id, a.direction, sum(o.balance)::text as balance, sum(o.ytd_debit)::text as yd,
        sum(o.ytd_credit)::text as yc
      from book_openings o join book_accounts a on a.id = o.account_id
      where o.book_id = ${book.id} and a.is_leaf
      group by o.account_id, a.direction`),
  );
  const sameYear = book.startPeriod.slice(0, 4) === to.slice(0, 4);
  for (const o of openings) {
    const n = out.get(Number(o.account_id)) ?? emptyNet();
    n.opening += o.direction === 'debit' ? num(o.balance) : -num(o.balance);
    if (sameYear) {
      n.ytdDebit += num(o.yd);
      n.ytdCredit += num(o.yc);
    }
    out.set(Number(o.account_id), n);
  }
  return out;
}

/** Parents' figures as the sums of their leaves (through parent ids). */
function rollUp(accounts: readonly AccountRow[], leaves: Map<number, LeafNet>): Map<number, LeafNet> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const out = new Map<number, LeafNet>();
  for (const a of accounts) {
    if (!a.isLeaf) continue;
    const n = leaves.get(a.id);
    if (!n) continue;
    for (let cur: AccountRow | undefined = a; cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
      const s = out.get(cur.id) ?? emptyNet();
      s.opening += n.opening;
      s.periodDebit += n.periodDebit;
      s.periodCredit += n.periodCredit;
      s.ytdDebit += n.ytdDebit;
      s.ytdCredit += n.ytdCredit;
      out.set(cur.id, s);
    }
  }
  return out;
}

const pair = (net: number) => (net >= 0 ? { d: net, c: 0 } : { d: 0, c: -net });

/** 科目余额表 over [from, to]: every account (parents sum leaves), totals over first-level accounts. */
export async function trialBalance(
  tx: Queryable,
  book: BookRow,
  q: { from: string; to: string; maxLevel: number; showZero: boolean },
) {
  const accounts = await accountsOf(tx, book.id);
  const nets = rollUp(accounts, await leafNets(tx, book, q.from, q.to));
  const rows: BalanceRow[] = [];
  const totals = {
    openingDebit: 0,
    openingCredit: 0,
    periodDebit: 0,
    periodCredit: 0,
    ytdDebit: 0,
    ytdCredit: 0,
    closingDebit: 0,
    closingCredit: 0,
  };
  for (const a of accounts) {
    const n = nets.get(a.id) ?? emptyNet();
    const closing = n.opening + n.periodDebit - n.periodCredit;
    const open = pair(n.opening);
    const close = pair(closing);
    const row: BalanceRow = {
      accountId: a.id,
      code: a.code,
      name: a.name,
      level: a.level,
      isLeaf: a.isLeaf,
      direction: a.direction,
      category: a.category,
      openingDebit: open.d,
      openingCredit: open.c,
      periodDebit: n.periodDebit,
      periodCredit: n.periodCredit,
      ytdDebit: n.ytdDebit,
      ytdCredit: n.ytdCredit,
      closingDebit: close.d,
      closingCredit: close.c,
    };
    if (a.level === 1) {
      totals.openingDebit += row.openingDebit;
      totals.openingCredit += row.openingCredit;
      totals.periodDebit += row.periodDebit;
      totals.periodCredit += row.periodCredit;
      totals.ytdDebit += row.ytdDebit;
      totals.ytdCredit += row.ytdCredit;
      totals.closingDebit += row.closingDebit;
      totals.closingCredit += row.closingCredit;
    }
    const zero = n.opening === 0 && closing === 0 && n.periodDebit === 0 && n.periodCredit === 0 && n.ytdDebit === 0;
    if (a.level <= q.maxLevel && (q.showZero || !zero)) rows.push(row);
  }
  const balanced =
    totals.openingDebit === totals.openingCredit &&
    totals.periodDebit === totals.periodCredit &&
    totals.closingDebit === totals.closingCredit;
  return { rows, totals, balanced };
}

/** Per leaf account and period: debit and credit of periods in [since, to]. */
async function periodSums(tx: Queryable, bookId: number, since: string, to: string) {
  const res = await tx.execute(sql`
    select account_id, period, sum(debit)::text as d, sum(credit)::text as c from book_balances
    where book_id = ${bookId} and period >= ${since} and period <= ${to}
    group by account_id, period`);
  return rowsOf<{ account_id: number; period: string; d: string; c: string }>(res).map((r) => ({
    accountId: Number(r.account_id),
    period: r.period,
    debit: num(r.d),
    credit: num(r.c),
  }));
}

/** The leaf ids under an account (itself when a leaf). */
function leavesUnder(accounts: readonly AccountRow[], root: AccountRow): AccountRow[] {
  return accounts.filter((a) => a.isLeaf && a.code.startsWith(root.code));
}

/** Period-by-period movements of a set of leaves: per period the sums; plus the balance before `from`. */
async function movementsOf(
  tx: Queryable,
  book: BookRow,
  leaves: readonly AccountRow[],
  from: string,
  to: string,
): Promise<{
  opening: number;
  ytdBefore: { d: number; c: number };
  byPeriod: Map<string, Map<number, { d: number; c: number }>>;
}> {
  const ids = new Set(leaves.map((l) => l.id));
  const yearOfFrom = `${from.slice(0, 4)}-01`;
  const nets = await leafNets(tx, book, from, from);
  let opening = 0;
  for (const id of ids) opening += nets.get(id)?.opening ?? 0;
  // Year-to-date before `from` (the ytd of the first period less its own movement).
  let yd = 0;
  let yc = 0;
  for (const id of ids) {
    const n = nets.get(id);
    if (!n) continue;
    yd += n.ytdDebit - n.periodDebit;
    yc += n.ytdCredit - n.periodCredit;
  }
  const byPeriod = new Map<string, Map<number, { d: number; c: number }>>();
  for (const s of await periodSums(tx, book.id, from < yearOfFrom ? from : from, to)) {
    if (!ids.has(s.accountId)) continue;
    const m = byPeriod.get(s.period) ?? new Map<number, { d: number; c: number }>();
    const cur = m.get(s.accountId) ?? { d: 0, c: 0 };
    cur.d += s.debit;
    cur.c += s.credit;
    m.set(s.accountId, cur);
    byPeriod.set(s.period, m);
  }
  return { opening, ytdBefore: { d: yd, c: yc }, byPeriod };
}

/** 总账: first-level accounts (or the one chosen) with 期初余额, then per period 本期合计 and 本年累计. */
export async function generalLedger(
  tx: Queryable,
  book: BookRow,
  q: { from: string; to: string; accountId?: number | undefined },
): Promise<GeneralAccount[]> {
  const accounts = await accountsOf(tx, book.id);
  const roots = q.accountId ? accounts.filter((a) => a.id === q.accountId) : accounts.filter((a) => a.level === 1);
  if (q.accountId && roots.length === 0) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.accountNotFound);
  const out: GeneralAccount[] = [];
  const months = monthsBetween(q.from, q.to);
  for (const root of roots) {
    const leaves = leavesUnder(accounts, root);
    const mv = await movementsOf(tx, book, leaves, q.from, q.to);
    let bal = mv.opening;
    let yd = mv.ytdBefore.d;
    let yc = mv.ytdBefore.c;
    const rows: GeneralAccount['rows'] = [
      { period: q.from, kind: 'opening', debit: 0, credit: 0, ...sideOf(bal, root.direction) },
    ];
    let any = mv.opening !== 0;
    for (const p of months) {
      if (p.endsWith('-01')) {
        yd = 0;
        yc = 0;
      }
      let d = 0;
      let c = 0;
      for (const v of mv.byPeriod.get(p)?.values() ?? []) {
        d += v.d;
        c += v.c;
      }
      bal += d - c;
      yd += d;
      yc += c;
      if (d !== 0 || c !== 0) any = true;
      rows.push({ period: p, kind: 'period', debit: d, credit: c, ...sideOf(bal, root.direction) });
      rows.push({ period: p, kind: 'ytd', debit: yd, credit: yc, ...sideOf(bal, root.direction) });
    }
    if (any || q.accountId) out.push({ accountId: root.id, code: root.code, name: root.name, rows });
  }
  return out;
}

/** 多栏账: an account's leaves as columns, per period, on the account's own side. */
export async function columnLedger(tx: Queryable, book: BookRow, q: { from: string; to: string; accountId: number }) {
  const accounts = await accountsOf(tx, book.id);
  const root = accounts.find((a) => a.id === q.accountId);
  if (!root) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.accountNotFound);
  const leaves = leavesUnder(accounts, root);
  if (root.isLeaf) throw new AppError(CODE.BAD_REQUEST, fillMsg(BOOK_REPORT_MSG.noChildren, { name: root.name }));
  const mv = await movementsOf(tx, book, leaves, q.from, q.to);
  const own = (d: number, c: number) => (root.direction === 'debit' ? d - c : c - d);
  let bal = mv.opening;
  const rows: {
    period: string;
    kind: 'opening' | 'period' | 'ytd';
    debit: number;
    credit: number;
    dir: '借' | '贷' | '平';
    balance: number;
    amounts: number[];
  }[] = [
    {
      period: q.from,
      kind: 'opening',
      debit: 0,
      credit: 0,
      ...sideOf(bal, root.direction),
      amounts: leaves.map(() => 0),
    },
  ];
  let td = 0;
  let tc = 0;
  const totals = leaves.map(() => 0);
  for (const p of monthsBetween(q.from, q.to)) {
    const m = mv.byPeriod.get(p);
    let d = 0;
    let c = 0;
    const amounts = leaves.map((l, i) => {
      const v = m?.get(l.id);
      if (!v) return 0;
      d += v.d;
      c += v.c;
      const a = own(v.d, v.c);
      totals[i] = (totals[i] ?? 0) + a;
      return a;
    });
    bal += d - c;
    td += d;
    tc += c;
    rows.push({ period: p, kind: 'period' as const, debit: d, credit: c, ...sideOf(bal, root.direction), amounts });
  }
  rows.push({
    period: q.to,
    kind: 'ytd' as const,
    debit: td,
    credit: tc,
    ...sideOf(bal, root.direction),
    amounts: totals,
  });
  return {
    account: { code: root.code, name: root.name, direction: root.direction },
    columns: leaves.map((l) => ({ accountId: l.id, code: l.code, name: l.name })),
    rows,
  };
}

// --- 明细账 / drill-down --------------------------------------------------------------------------------

const DETAIL_SORT: Sort = {
  name: 'voucher',
  keys: [voucherLines.period, vouchers.number, voucherLines.id],
  desc: false,
};

/** The leaves under the given codes (each code with its sub-accounts). */
function leavesOfCodes(accounts: readonly AccountRow[], codes: readonly string[]) {
  return accounts.filter((a) => a.isLeaf && codes.some((c) => a.code.startsWith(c)));
}

export async function detailLedger(
  tx: Queryable,
  book: BookRow,
  q: { from: string; to: string; codes: string[] } & PageAsk,
) {
  const accounts = await accountsOf(tx, book.id);
  const first = accounts.find((a) => a.code === q.codes[0]);
  if (!first) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.accountNotFound);
  const leaves = leavesOfCodes(accounts, q.codes);
  const ids = leaves.length ? leaves.map((l) => l.id) : [0];
  const nets = await leafNets(tx, book, q.from, q.to);
  let opening = 0;
  let debit = 0;
  let credit = 0;
  for (const l of leaves) {
    const n = nets.get(l.id);
    opening += n?.opening ?? 0;
    debit += n?.periodDebit ?? 0;
    credit += n?.periodCredit ?? 0;
  }
  const where = sql`${voucherLines.bookId} = ${book.id} and ${voucherLines.agencyId} = ${book.agencyId}
    and ${voucherLines.period} >= ${q.from} and ${voucherLines.period} <= ${q.to}
    and ${inArray(voucherLines.accountId, ids)}`;
  const from = sql`${voucherLines} join ${vouchers} on ${vouchers.id} = ${voucherLines.voucherId}`;
  const byAcc = new Map(accounts.map((a) => [a.id, a]));
  const page = await listPage(
    tx,
    { from, where, sort: DETAIL_SORT, ask: q, filter: { b: book.id, f: q.from, t: q.to, c: q.codes } },
    async (lineIds) => {
      const rows = await tx
        .select({
          id: voucherLines.id,
          voucherId: voucherLines.voucherId,
          period: voucherLines.period,
          number: vouchers.number,
          word: vouchers.word,
          vdate: vouchers.vdate,
          summary: voucherLines.summary,
          accountId: voucherLines.accountId,
          debit: voucherLines.debit,
          credit: voucherLines.credit,
        })
        .from(voucherLines)
        .innerJoin(vouchers, eq(vouchers.id, voucherLines.voucherId))
        .where(and(eq(voucherLines.bookId, book.id), inArray(voucherLines.id, lineIds)));
      return rows;
    },
  );
  // The running balance: the range's opening plus every line before this page's first.
  let running = opening;
  const head = page.list[0];
  if (head) {
    const [b] = rowsOf<{ s: string }>(
      await tx.execute(sql`select coalesce(sum(${voucherLines.debit} - ${voucherLines.credit}), 0)::text as s
        from ${from} where ${where}
        and (${voucherLines.period}, ${vouchers.number}, ${voucherLines.id}) < (${head.period}, ${head.number}, ${head.id})`),
    );
    running += num(b?.s);
  }
  const list: DetailRow[] = page.list.map((r) => {
    running += r.debit - r.credit;
    const a = byAcc.get(r.accountId);
    return {
      id: r.id,
      voucherId: r.voucherId,
      period: r.period,
      vdate: r.vdate,
      voucherNo: `${r.word}-${r.number}`,
      summary: r.summary,
      code: a?.code ?? '',
      accountName: a?.name ?? '',
      debit: r.debit,
      credit: r.credit,
      ...sideOf(running, first.direction),
    };
  });
  const o = sideOf(opening, first.direction);
  const c = sideOf(opening + debit - credit, first.direction);
  return {
    list,
    total: page.total,
    cursor: page.cursor,
    openingDir: o.dir,
    opening: o.balance,
    debit,
    credit,
    closingDir: c.dir,
    closing: c.balance,
  };
}

// --- statements --------------------------------------------------------------------------------------------

const prefixOf = (code: string) => code.replace(/^-/, '');

/** The balance-sheet line each leaf account feeds (longest code prefix among the main lines, else by category). */
function balanceLineOf(a: AccountRow, set: StatementSet): { no: number; sign: 1 | -1 } {
  let best: { no: number; sign: 1 | -1; len: number } | null = null;
  for (const l of set.balance) {
    if (l.indent === 2 || !l.acc) continue;
    for (const code of l.acc) {
      const p = prefixOf(code);
      if (a.code.startsWith(p) && (!best || p.length > best.len))
        best = { no: l.no, sign: code.startsWith('-') ? -1 : 1, len: p.length };
    }
  }
  if (best) return { no: best.no, sign: best.sign };
  return { no: set.fallback[a.category], sign: 1 };
}

/** Evaluates the formula lines in order; `values` holds the account lines already. */
function evaluate(defs: readonly LineDef[], values: Map<number, number>) {
  for (const l of defs) {
    if (!l.sum) continue;
    values.set(
      l.no,
      l.sum.reduce((s, [n, sign]) => s + sign * (values.get(n) ?? 0), 0),
    );
  }
}

/** Balance-sheet values from debit-positive leaf balances. */
function balanceValues(accounts: readonly AccountRow[], leafBal: Map<number, number>, set: StatementSet) {
  const right = new Set(set.balance.filter((l) => l.side === 'right').map((l) => l.no));
  const values = new Map<number, number>();
  for (const a of accounts) {
    if (!a.isLeaf) continue;
    const bal = leafBal.get(a.id) ?? 0;
    if (bal === 0) continue;
    const { no, sign } = balanceLineOf(a, set);
    // The right side is credit-positive; a '-' line there (减：库存股) shows its debit balance positive.
    values.set(no, (values.get(no) ?? 0) + (right.has(no) ? -sign * bal : sign * bal));
  }
  // 其中 lines (not in any total).
  for (const l of set.balance) {
    if (l.indent !== 2 || !l.acc) continue;
    let v = 0;
    for (const a of accounts) if (a.isLeaf && l.acc.some((c) => a.code.startsWith(c))) v += leafBal.get(a.id) ?? 0;
    values.set(l.no, v);
  }
  evaluate(set.balance, values);
  return values;
}

/** The line's accounts for drill-down: its own codes, or (fallback lines) the accounts that fell to it. */
function drillCodes(l: LineDef, accounts: readonly AccountRow[], kind: StatementKind, set: StatementSet): string[] {
  if (l.sum || l.no === 0) return [];
  const own = (l.acc ?? []).map(prefixOf);
  if (kind !== 'balance' || l.indent === 2) return own;
  const extra = accounts.filter(
    (a) => a.level === 1 && !own.some((c) => a.code.startsWith(c)) && balanceLineOf(a, set).no === l.no,
  );
  return [...own, ...extra.map((a) => a.code)];
}

async function isClosed(tx: Queryable, bookId: number, period: string) {
  const [r] = await tx
    .select({ p: bookCloses.period })
    .from(bookCloses)
    .where(and(eq(bookCloses.bookId, bookId), eq(bookCloses.period, period)));
  return Boolean(r);
}

const yuan = (fen: number) => fenToYuanText(fen);

export interface StatementResult {
  lines: StatementLine[];
  checks: { name: string; ok: boolean; detail: string }[];
  closed: boolean;
  /** Values by 行次 (a: first column, b: second). */
  a: Map<number, number>;
  b: Map<number, number>;
}

export async function statementOf(
  tx: Queryable,
  book: BookRow,
  period: string,
  kind: StatementKind,
): Promise<StatementResult> {
  const set = STATEMENT_SETS[book.standard];
  if (period < book.startPeriod)
    throw new AppError(CODE.BAD_REQUEST, fillMsg(BOOK_REPORT_MSG.beforeStart, { period: book.startPeriod }));
  const accounts = await accountsOf(tx, book.id);
  const closed = await isClosed(tx, book.id, period);
  const yearStart = `${period.slice(0, 4)}-01`;
  let a: Map<number, number>;
  let b: Map<number, number>;
  let defs: readonly LineDef[];
  const checks: StatementResult['checks'] = [];
  if (kind === 'balance') {
    defs = set.balance;
    const end = await leafNets(tx, book, period, period);
    const endBal = new Map([...end].map(([id, n]) => [id, n.opening + n.periodDebit - n.periodCredit]));
    // 年初余额: the balance before January, or when the books start this year the opening less this year's part.
    const startBal = new Map<number, number>();
    if (book.startPeriod > yearStart) {
      const o = await leafNets(tx, book, book.startPeriod, book.startPeriod);
      for (const [id, n] of o)
        startBal.set(id, n.opening - (n.ytdDebit - n.periodDebit) + (n.ytdCredit - n.periodCredit));
    } else {
      const o = await leafNets(tx, book, yearStart, yearStart);
      for (const [id, n] of o) startBal.set(id, n.opening);
    }
    a = balanceValues(accounts, endBal, set);
    b = balanceValues(accounts, startBal, set);
    for (const [col, m] of [
      ['期末余额', a],
      ['年初余额', b],
    ] as const) {
      const left = m.get(set.totalAssets) ?? 0;
      const right = m.get(set.totalRight) ?? 0;
      checks.push({
        name: `${col}：资产总计 = 负债和所有者权益总计`,
        ok: left === right,
        detail: `${yuan(left)} ${left === right ? '=' : '≠'} ${yuan(right)}`,
      });
    }
  } else if (kind === 'income') {
    defs = set.income;
    const ytd = await leafNets(tx, book, period, period);
    a = incomeValues(accounts, ytd, 'ytd', set);
    b = incomeValues(accounts, ytd, 'period', set);
    checks.push(...incomeChecks(accounts, ytd, a, set));
  } else {
    defs = set.cashflow;
    const cf = await cashFlow(tx, book, accounts, period, set);
    a = cf.ytd;
    b = cf.month;
    checks.push(...cf.checks);
  }
  const lines: StatementLine[] = defs.map((l) => ({
    no: l.no,
    name: l.name,
    indent: l.indent,
    bold: l.bold ?? false,
    a: l.no === 0 ? 0 : (a.get(l.no) ?? 0),
    b: l.no === 0 ? 0 : (b.get(l.no) ?? 0),
    codes: drillCodes(l, accounts, kind, set),
    side: l.side ?? 'single',
  }));
  void yearStart;
  return { lines, checks, closed, a, b };
}

/** 利润表 values: income lines the credit side, expense lines the debit side, of the month or the year. */
function incomeValues(
  accounts: readonly AccountRow[],
  nets: Map<number, LeafNet>,
  col: 'ytd' | 'period',
  set: StatementSet,
) {
  const byId = new Map(accounts.map((x) => [x.id, x]));
  const values = new Map<number, number>();
  const namesOf = (a: AccountRow, root: string) => {
    const names: string[] = [];
    for (
      let cur: AccountRow | undefined = a;
      cur && cur.code.length > root.length;
      cur = cur.parentId ? byId.get(cur.parentId) : undefined
    )
      names.push(cur.name);
    return names;
  };
  for (const l of set.income) {
    if (!l.acc) continue;
    let v = 0;
    for (const x of accounts) {
      if (!x.isLeaf) continue;
      const root = l.acc.find((c) => x.code.startsWith(c));
      if (!root) continue;
      if (l.names && !namesOf(x, root).some((n) => l.names?.some((w) => n.includes(w)))) continue;
      if (l.except && namesOf(x, root).some((n) => l.except?.some((w) => n.includes(w)))) continue;
      const n = nets.get(x.id);
      if (!n) continue;
      const d = col === 'ytd' ? n.ytdDebit : n.periodDebit;
      const c = col === 'ytd' ? n.ytdCredit : n.periodCredit;
      v += l.inc ? c : l.neg ? -d : d;
    }
    values.set(l.no, v);
  }
  evaluate(set.income, values);
  return values;
}

/**
 * The income statement against the ledger: every 损益 account's own-side amount is on some line (an account no
 * line names would be missing from 净利润).
 */
function incomeChecks(
  accounts: readonly AccountRow[],
  nets: Map<number, LeafNet>,
  ytd: Map<number, number>,
  set: StatementSet,
) {
  let own = 0;
  for (const x of accounts) {
    if (!x.isLeaf || x.category !== 'profit' || set.notInIncome.some((c) => x.code.startsWith(c))) continue;
    const n = nets.get(x.id);
    if (!n) continue;
    own += x.direction === 'credit' ? n.ytdCredit : -n.ytdDebit;
  }
  const net = ytd.get(set.netProfit) ?? 0;
  return [
    {
      name: '本年累计：净利润 = 损益类科目本年收入发生额 − 费用发生额',
      ok: own === net,
      detail: `${yuan(net)} ${own === net ? '=' : '≠'} ${yuan(own)}`,
    },
  ];
}

/** The cash-flow item line of a counterpart account (longest prefix), and whether it is an inflow line. */
function cashItemOf(code: string, set: StatementSet): { inLine: number; outLine: number } {
  let best: readonly [string, number, number] | null = null;
  for (const it of set.cashItems) if (code.startsWith(it[0]) && (!best || it[0].length > best[0].length)) best = it;
  return best ? { inLine: best[1], outLine: best[2] } : { inLine: set.cashOther[0], outLine: set.cashOther[1] };
}

const isCash = (code: string) => CASH_CODES.some((c) => code.startsWith(c));

/**
 * 现金流量表: each voucher that moves cash, its cash classified by its other lines — a line's (credit − debit)
 * is the cash it brought in (positive) or took out (negative); 应交增值税 lines follow the voucher's largest
 * other line. Cash-to-cash transfers have no other line and move nothing. Because every voucher balances, the
 * items sum to the change in the cash accounts (checked against the ledger).
 */
async function cashFlow(
  tx: Queryable,
  book: BookRow,
  accounts: readonly AccountRow[],
  period: string,
  set: StatementSet,
) {
  const yearStart = `${period.slice(0, 4)}-01`;
  const since = book.startPeriod > yearStart ? book.startPeriod : yearStart;
  const cashIds = accounts.filter((a) => a.isLeaf && isCash(a.code)).map((a) => a.id);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const res = await tx.execute(sql`
    select l.voucher_id, l.period, l.account_id, l.debit::text as d, l.credit::text as c
    from voucher_lines l
    where l.book_id = ${book.id} and l.period >= ${since} and l.period <= ${period}
      and l.voucher_id in (select voucher_id from voucher_lines where book_id = ${book.id}
        and period >= ${since} and period <= ${period} and account_id in (${sql.join(
          (cashIds.length ? cashIds : [0]).map((id) => sql`${id}`),
          sql`, `,
        )}))
    order by l.voucher_id, l.seq`);
  const byVoucher = new Map<number, { period: string; code: string; amt: number }[]>();
  for (const r of rowsOf<{ voucher_id: number; period: string; account_id: number; d: string; c: string }>(res)) {
    const a = byId.get(Number(r.account_id));
    if (!a || isCash(a.code)) continue;
    const list = byVoucher.get(Number(r.voucher_id)) ?? [];
    list.push({ period: r.period, code: a.code, amt: num(r.c) - num(r.d) });
    byVoucher.set(Number(r.voucher_id), list);
  }
  const month = new Map<number, number>();
  const ytd = new Map<number, number>();
  const add = (m: Map<number, number>, no: number, v: number) => m.set(no, (m.get(no) ?? 0) + v);
  for (const lines of byVoucher.values()) {
    const main = lines
      .filter((l) => !l.code.startsWith(VAT_PREFIX))
      .reduce<(typeof lines)[number] | null>(
        (best, l) => (!best || Math.abs(l.amt) > Math.abs(best.amt) ? l : best),
        null,
      );
    for (const l of lines) {
      const code = l.code.startsWith(VAT_PREFIX) && main ? main.code : l.code;
      const item = cashItemOf(code, set);
      const line = l.amt >= 0 ? item.inLine : item.outLine;
      // On an inflow line cash in adds; on an outflow line cash out adds (cash in reduces it).
      const v = set.cashInflowLines.has(line) ? l.amt : -l.amt;
      add(ytd, line, v);
      if (l.period === period) add(month, line, v);
    }
  }
  // Opening cash: the month's and the year's.
  const cashBal = async (at: string, end: boolean) => {
    const nets = await leafNets(tx, book, at, at);
    let s = 0;
    for (const id of cashIds) {
      const n = nets.get(id);
      if (n) s += end ? n.opening + n.periodDebit - n.periodCredit : n.opening;
    }
    return s;
  };
  let yearOpening: number;
  if (book.startPeriod > yearStart) {
    const nets = await leafNets(tx, book, book.startPeriod, book.startPeriod);
    yearOpening = 0;
    for (const id of cashIds) yearOpening += nets.get(id)?.opening ?? 0;
  } else yearOpening = await cashBal(yearStart, false);
  month.set(set.cashOpening, await cashBal(period, false));
  ytd.set(set.cashOpening, yearOpening);
  evaluate(set.cashflow, month);
  evaluate(set.cashflow, ytd);
  const closing = await cashBal(period, true);
  const checks = [
    {
      name: '本月：期末现金余额 = 货币资金科目期末余额',
      ok: (month.get(set.cashClosing) ?? 0) === closing,
      detail: `${yuan(month.get(set.cashClosing) ?? 0)} ${(month.get(set.cashClosing) ?? 0) === closing ? '=' : '≠'} ${yuan(closing)}`,
    },
    {
      name: '本年累计：期末现金余额 = 货币资金科目期末余额',
      ok: (ytd.get(set.cashClosing) ?? 0) === closing,
      detail: `${yuan(ytd.get(set.cashClosing) ?? 0)} ${(ytd.get(set.cashClosing) ?? 0) === closing ? '=' : '≠'} ${yuan(closing)}`,
    },
  ];
  return { month, ytd, checks };
}
