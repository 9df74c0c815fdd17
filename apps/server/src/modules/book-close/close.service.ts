import {
  averageValue,
  BOOK_CLOSE_MSG,
  type CityLocation,
  type CjsRate,
  CLOSE_CODES,
  type CloseCheck,
  type CloseState,
  CODE,
  citA200000,
  DEFAULT_VOUCHER_RULES,
  fenToYuanText,
  fillMsg,
  type IncomeTaxFigures,
  nextPeriod,
  prevPeriod,
  quarterlyAverage,
  type SurtaxFigures,
  surtaxFor,
  TRANSFER_KINDS,
  TRANSFER_NAMES,
  type TransferKind,
  transferApplies,
  type VoucherRuleSet,
  voucherRuleSetSchema,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bookAccounts, bookCloses, books, enterprises, voucherRules, vouchers } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import { citFactsOf } from '../book-reports/books-source.js';
import { chartCodes, TAX_EXPENSE_NAMES } from '../books/charts.js';
import {
  type BookRow,
  createVoucher,
  deleteVoucher,
  lockBook,
  openingTrial,
  reviewVoucher,
  type StoreCtx,
  type VoucherLineInput,
} from '../voucher-store/voucher-store.js';

/**
 * 期末结转 and 结账 (issue 16 point 5): the period-end transfers made through the voucher store (source
 * 'close', source_ref the transfer's kind, so each is one voucher per period), the checks before closing,
 * close and 反结账. Balances are read from book_balances and book_openings, never summed from lines.
 * docs/decisions-16-close.md.
 */

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** How a book's period end is worked: the 城建税 rate, the 六税两费 halving, and whether 所得税 is accrued. */
export interface CloseOpts {
  cjsRate: CjsRate;
  halve: boolean;
  /** The batch close makes 计提所得税 at quarter ends and the checks want it booked. */
  incomeTax?: boolean;
}

interface LeafBalance {
  id: number;
  code: string;
  name: string;
  category: string;
  direction: 'debit' | 'credit';
  /** Balance at the period's end, debit minus credit (opening included). */
  net: number;
  /** The period's own debit and credit. */
  pd: number;
  pc: number;
}

/** Every leaf account's balance at the end of `period` (debit − credit) and its movement in the period. */
export async function leafBalances(tx: Queryable, bookId: number, period: string): Promise<LeafBalance[]> {
  const rows = rowsOf<{
    id: number;
    code: string;
    name: string;
    category: string;
    direction: 'debit' | 'credit';
    net: string;
    pd: string;
    pc: string;
  }>(
    await tx.execute(sql`
      select a.id, a.code, a.name, a.category, a.direction,
        (coalesce((select sum(case when a.direction = 'debit' then o.balance else -o.balance end)
                    from book_openings o where o.book_id = a.book_id and o.account_id = a.id), 0)
         + coalesce(b.d, 0) - coalesce(b.c, 0))::text as net,
        coalesce(b.pd, 0)::text as pd, coalesce(b.pc, 0)::text as pc
      from ${bookAccounts} a
      left join (
        select account_id, sum(debit) d, sum(credit) c,
          sum(debit) filter (where period = ${period}) pd, sum(credit) filter (where period = ${period}) pc
        from book_balances where book_id = ${bookId} and period <= ${period} group by account_id
      ) b on b.account_id = a.id
      where a.book_id = ${bookId} and a.is_leaf
      order by a.code`),
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), net: Number(r.net), pd: Number(r.pd), pc: Number(r.pc) }));
}

/** The agency's rules (no row: the defaults). */
export async function rulesOf(tx: Queryable, agencyId: number): Promise<VoucherRuleSet> {
  const rows = await tx.select().from(voucherRules).where(eq(voucherRules.agencyId, agencyId));
  const byKind = new Map(rows.map((r) => [r.kind, r.rules]));
  const merged = {
    sales: byKind.get('sales') ?? DEFAULT_VOUCHER_RULES.sales,
    purchase: byKind.get('purchase') ?? DEFAULT_VOUCHER_RULES.purchase,
    payroll: byKind.get('payroll') ?? DEFAULT_VOUCHER_RULES.payroll,
    close: byKind.get('close') ?? DEFAULT_VOUCHER_RULES.close,
  };
  const parsed = voucherRuleSetSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_VOUCHER_RULES;
}

const startsWithAny = (code: string, prefixes: readonly string[]) => prefixes.some((p) => code.startsWith(p));

/** The 城建税 location of a rate (城市维护建设税法 第四条: 市区 7 %, 县城/镇 5 %, 其他 1 %). */
const LOCATION_OF_RATE: Readonly<Record<CjsRate, CityLocation>> = { 7: 'city', 5: 'county', 1: 'other' };

/** What the earlier months of the quarter hold: VAT, sales (close vouchers left out) and the surtax accrued. */
export interface QuarterBefore {
  vat: number;
  sales: number;
  accrued: { cjs: number; edu: number; localEdu: number };
}
export const NOTHING_BEFORE: QuarterBefore = { vat: 0, sales: 0, accrued: { cjs: 0, edu: 0, localEdu: 0 } };

/** The first month of a period's quarter. */
const quarterStart = (period: string) => {
  const m = Number(period.slice(5, 7));
  return `${period.slice(0, 4)}-${String(m - ((m - 1) % 3)).padStart(2, '0')}`;
};

/** The earlier months of the period's quarter (none in its first month). */
export async function quarterBefore(
  tx: Queryable,
  bookId: number,
  period: string,
  salesCodes: readonly string[],
): Promise<QuarterBefore> {
  const from = quarterStart(period);
  if (from === period) return NOTHING_BEFORE;
  const rows = rowsOf<{ code: string; source: string; ref: string; d: string; c: string }>(
    await tx.execute(sql`
      select a.code, v.source, v.source_ref as ref, sum(l.debit)::text as d, sum(l.credit)::text as c
      from voucher_lines l join vouchers v on v.id = l.voucher_id join ${bookAccounts} a on a.id = l.account_id
      where l.book_id = ${bookId} and l.period >= ${from} and l.period < ${period}
      group by a.code, v.source, v.source_ref`),
  );
  const out: QuarterBefore = { vat: 0, sales: 0, accrued: { cjs: 0, edu: 0, localEdu: 0 } };
  for (const r of rows) {
    const net = Number(r.c) - Number(r.d);
    const close = r.source === 'close';
    if (r.code.startsWith(CLOSE_CODES.vat)) out.vat += net;
    // 结转损益 empties the income accounts at each month's end: sales are the business vouchers' credits.
    if (!close && startsWithAny(r.code, salesCodes)) out.sales += net;
    if (close && r.ref === 'surtax') {
      if (r.code.startsWith(CLOSE_CODES.cjs)) out.accrued.cjs += net;
      else if (r.code.startsWith(CLOSE_CODES.edu)) out.accrued.edu += net;
      else if (r.code.startsWith(CLOSE_CODES.localEdu)) out.accrued.localEdu += net;
    }
  }
  return out;
}

/**
 * 计提附加税 of the period by surtaxFor (packages/shared/src/tax-rules-vat.ts), the one rule the returns use too:
 * 城建税 on the VAT at the location's rate; 教育费附加 3 % and 地方教育附加 2 % not charged within 财税〔2016〕12号's
 * line — a month's sales ≤ 10万元, or for a quarterly filer (small-scale books: VAT filed by quarter) the
 * quarter's sales ≤ 30万元, tested on the quarter to date; halved for a small-scale taxpayer within 六税两费减半.
 * A quarterly filer's month accrues the quarter to date less what its earlier months accrued (never below 0).
 * The period's VAT is the net credit of 222101 and its sub-accounts; sales the credits of the sales accounts.
 */
export function surtaxOf(
  leaves: readonly LeafBalance[],
  salesCodes: readonly string[],
  vatKind: string,
  period: string,
  cjsRate: CjsRate,
  halve: boolean,
  before: QuarterBefore = NOTHING_BEFORE,
): SurtaxFigures {
  let vat = 0;
  let sales = 0;
  for (const l of leaves) {
    if (l.code.startsWith(CLOSE_CODES.vat)) vat += l.pc - l.pd;
    if (startsWithAny(l.code, salesCodes)) sales += l.pc - l.pd;
  }
  const cycle = vatKind === 'small' ? 'quarter' : 'month';
  if (cycle === 'quarter') {
    vat += before.vat;
    sales += before.sales;
  }
  vat = Math.max(0, vat);
  const r = surtaxFor({
    vat,
    sales,
    cycle,
    location: LOCATION_OF_RATE[cjsRate],
    halvedPayer: halve && vatKind === 'small',
    periodEnd: lastDayOf(period),
  });
  const acc = cycle === 'quarter' ? before.accrued : NOTHING_BEFORE.accrued;
  const cjs = Math.max(0, r.cjs - acc.cjs);
  const edu = Math.max(0, r.jyfj - acc.edu);
  const localEdu = Math.max(0, r.dfjyfj - acc.localEdu);
  return {
    vat,
    sales,
    cjsRate,
    halved: r.halved,
    eduExempt: r.eduExempt,
    cycle,
    accruedBefore: acc.cjs + acc.edu + acc.localEdu,
    cjs,
    edu,
    localEdu,
    total: cjs + edu + localEdu,
  };
}

/** The last day of a period, YYYY-MM-DD. */
export function lastDayOf(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${period}-${String(d).padStart(2, '0')}`;
}

/** The leaf to post to for a code: the account itself, or its first enabled leaf below it. */
async function leafFor(tx: Queryable, bookId: number, code: string) {
  const [a] = await tx
    .select({ id: bookAccounts.id, code: bookAccounts.code, name: bookAccounts.name })
    .from(bookAccounts)
    .where(
      and(
        eq(bookAccounts.bookId, bookId),
        sql`${bookAccounts.code} like ${`${code}%`}`,
        eq(bookAccounts.isLeaf, true),
        eq(bookAccounts.enabled, true),
      ),
    )
    .orderBy(bookAccounts.code)
    .limit(1);
  if (!a) throw new AppError(CODE.CONFLICT, fillMsg(BOOK_CLOSE_MSG.noAccount, { code }));
  return a;
}

/**
 * The 税金及附加 sub-account a surtax is expensed to (issue 28 point 8): the enabled leaf under `parent` whose name
 * is the tax's (TAX_EXPENSE_NAMES: the words 会小企02 line 6 / line 10 read), the preset code first; a book whose
 * 税金及附加 has no sub-accounts at all posts to 税金及附加 itself. None: the book lacks the account (refused).
 */
async function taxExpenseLeaf(tx: Queryable, bookId: number, parent: string, tax: keyof typeof TAX_EXPENSE_NAMES) {
  const want = TAX_EXPENSE_NAMES[tax];
  const rows = await tx
    .select({ id: bookAccounts.id, code: bookAccounts.code, name: bookAccounts.name, isLeaf: bookAccounts.isLeaf })
    .from(bookAccounts)
    .where(
      and(
        eq(bookAccounts.bookId, bookId),
        sql`${bookAccounts.code} like ${`${parent}%`}`,
        eq(bookAccounts.enabled, true),
      ),
    )
    .orderBy(bookAccounts.code);
  const own = rows.find((r) => r.code === parent);
  if (own?.isLeaf) return own;
  const fits = (name: string) =>
    want.names.some((w) => name.includes(w)) && !want.not.some((w: string) => name.includes(w));
  const preset = rows.find((r) => r.isLeaf && r.code === `${parent}${want.code}` && fits(r.name));
  const found = preset ?? rows.find((r) => r.isLeaf && r.code !== parent && fits(r.name));
  if (!found)
    throw new AppError(CODE.CONFLICT, fillMsg(BOOK_CLOSE_MSG.noAccount, { code: `${parent}（${want.names[0]}）` }));
  return found;
}

async function transferVoucher(tx: Queryable, bookId: number, period: string, kind: TransferKind) {
  const [v] = await tx
    .select()
    .from(vouchers)
    .where(
      and(
        eq(vouchers.bookId, bookId),
        eq(vouchers.period, period),
        eq(vouchers.source, 'close'),
        eq(vouchers.sourceRef, kind),
      ),
    );
  return v ?? null;
}

async function voucherLinesOf(tx: Queryable, voucherId: number) {
  return rowsOf<{ account_id: number; debit: string; credit: string }>(
    await tx.execute(
      sql`select account_id, debit::text, credit::text from voucher_lines where voucher_id = ${voucherId} order by seq`,
    ),
  ).map((r) => ({ accountId: Number(r.account_id), debit: Number(r.debit), credit: Number(r.credit) }));
}

const fingerprint = (lines: readonly { accountId: number; debit: number; credit: number }[]) =>
  lines
    .map((l) => `${l.accountId}:${l.debit}:${l.credit}`)
    .sort()
    .join('|');

/**
 * 计提企业所得税 of a quarter-end period: the year's cumulative 利润总额 (as the 利润表 counts it: income
 * accounts' credits less cost and expense accounts' debits, 所得税费用 left out; openings' 本年累计 for a book
 * that starts this year), taxed by citA200000 (the A200000 lines the plan and the bureau use: the books' open
 * losses of the five years before as line 9, the 资产总额 季度平均值 for 小型微利 — citFactsOf; the books keep no
 * headcount, so 从业人数 does not exclude), less what 所得税费用 already holds this year besides the transfer's
 * own voucher (`ownVoucherDebit`).
 */
export async function incomeTaxOf(
  tx: Queryable,
  book: BookRow,
  leaves: readonly LeafBalance[],
  ownVoucherDebit: number,
): Promise<IncomeTaxFigures> {
  const period = book.currentPeriod;
  const year = period.slice(0, 4);
  const codes = chartCodes(book.standard, book.vatKind);
  const rows = rowsOf<{ code: string; direction: string; d: string; c: string }>(
    await tx.execute(sql`
      select a.code, a.direction, (coalesce(b.d, 0) + coalesce(o.d, 0))::text as d, (coalesce(b.c, 0) + coalesce(o.c, 0))::text as c
      from ${bookAccounts} a
      left join (select account_id, sum(debit) d, sum(credit) c from book_balances
                 where book_id = ${book.id} and period between ${`${year}-01`} and ${period} group by account_id) b
        on b.account_id = a.id
      left join (select account_id, sum(ytd_debit) d, sum(ytd_credit) c from book_openings
                 where book_id = ${book.id} and ${book.startPeriod.slice(0, 4) === year} group by account_id) o
        on o.account_id = a.id
      where a.book_id = ${book.id} and a.is_leaf and a.category = 'profit'`),
  );
  let profit = 0;
  let accrued = -ownVoucherDebit;
  for (const r of rows) {
    const d = Number(r.d);
    const c = Number(r.c);
    if (r.code.startsWith(codes.incomeTax)) accrued += d;
    else if (r.direction === 'credit') profit += c;
    else profit -= d;
  }
  const facts = await citFactsOf(tx, book, period);
  const assets = facts.assetQuarters.length
    ? averageValue(quarterlyAverage(facts.assetQuarters))
    : leaves.filter((l) => l.category === 'asset').reduce((s, l) => s + l.net, 0);
  const r = citA200000({
    periodEnd: `${period}-01`,
    revenue: 0,
    cost: 0,
    profit,
    losses: facts.losses,
    prepaid: Math.max(0, accrued),
    staffQuarters: [],
    assetQuarters: facts.assetQuarters.length ? facts.assetQuarters : [{ start: assets, end: assets }],
  });
  return { profit, assets, smallMicro: r.smallMicro, cumTax: r.lines.l12 - r.lines.l13, accrued, tax: r.lines.l16 };
}

/** The lines of a transfer as things stand now (the existing transfer voucher's own lines taken out). */
async function transferLines(
  tx: Queryable,
  book: BookRow,
  kind: TransferKind,
  opts: CloseOpts,
): Promise<{
  lines: VoucherLineInput[];
  amount: number;
  surtax: SurtaxFigures;
  profit: number;
  incomeTax: IncomeTaxFigures | null;
  yearProfit: number;
}> {
  const period = book.currentPeriod;
  const leaves = await leafBalances(tx, book.id, period);
  /** Takes a transfer voucher's effect out of the figures (they are then those before it). */
  const undo = async (target: LeafBalance[], which: TransferKind) => {
    const v = await transferVoucher(tx, book.id, period, which);
    if (!v) return;
    for (const l of await voucherLinesOf(tx, v.id)) {
      const leaf = target.find((x) => x.id === l.accountId);
      if (!leaf) continue;
      leaf.net -= l.debit - l.credit;
      leaf.pd -= l.debit;
      leaf.pc -= l.credit;
    }
  };
  await undo(leaves, kind);
  // The surtax is worked from the period's business, before either transfer (结转损益 debits the income).
  const before = leaves.map((l) => ({ ...l }));
  if (kind === 'surtax') await undo(before, 'profit');
  const codes = chartCodes(book.standard, book.vatKind);
  const salesCodes = [codes.revenue, codes.otherRevenue];
  const earlier = book.vatKind === 'small' ? await quarterBefore(tx, book.id, period, salesCodes) : NOTHING_BEFORE;
  const surtax = surtaxOf(before, salesCodes, book.vatKind, period, opts.cjsRate, opts.halve, earlier);
  const profitLeaves = leaves.filter((l) => l.category === 'profit' && l.net !== 0);
  const income = profitLeaves.filter((l) => l.direction === 'credit');
  const expense = profitLeaves.filter((l) => l.direction === 'debit');
  const incomeTotal = income.reduce((s, l) => s - l.net, 0);
  const expenseTotal = expense.reduce((s, l) => s + l.net, 0);
  const profit = incomeTotal - expenseTotal;
  const none = { lines: [] as VoucherLineInput[], amount: 0, surtax, profit, incomeTax: null, yearProfit: 0 };
  if (kind === 'incomeTax') {
    const own = await transferVoucher(tx, book.id, period, 'incomeTax');
    const incomeTax = await incomeTaxOf(tx, book, leaves, own?.total ?? 0);
    if (!transferApplies('incomeTax', period) || incomeTax.tax === 0) return { ...none, incomeTax };
    const summary = '计提企业所得税';
    const lines: VoucherLineInput[] = [
      { summary, accountId: (await leafFor(tx, book.id, codes.incomeTax)).id, debit: incomeTax.tax, credit: 0 },
      { summary, accountId: (await leafFor(tx, book.id, codes.incomeTaxPayable)).id, debit: 0, credit: incomeTax.tax },
    ];
    return { ...none, lines, amount: incomeTax.tax, incomeTax };
  }
  if (kind === 'yearEnd') {
    // 本年利润's balance at the period's end (the year's profit once 结转损益 is made), credit side positive.
    const own = leaves.filter((l) => l.code.startsWith(codes.currentYearProfit) && l.net !== 0);
    const yearProfit = -own.reduce((s, l) => s + l.net, 0);
    if (!transferApplies('yearEnd', period) || own.length === 0) return { ...none, yearProfit };
    const summary = '结转本年利润';
    const lines: VoucherLineInput[] = own.map((l) => ({
      summary,
      accountId: l.id,
      debit: l.net < 0 ? -l.net : 0,
      credit: l.net > 0 ? l.net : 0,
    }));
    if (yearProfit !== 0) {
      const undistributed = (await leafFor(tx, book.id, codes.undistributedProfit)).id;
      lines.push({
        summary,
        accountId: undistributed,
        debit: yearProfit < 0 ? -yearProfit : 0,
        credit: yearProfit > 0 ? yearProfit : 0,
      });
    }
    return { ...none, lines, amount: Math.abs(yearProfit), yearProfit };
  }
  if (kind === 'surtax') {
    if (surtax.total === 0) return none;
    // Each surtax is expensed to its own 税金及附加 sub-account (会小企02 line 6 城市维护建设税, line 10 教育费附加、…)
    // and owed on its own 应交税费 sub-account: debits first, then credits (issue 28 point 8).
    const summary = '计提附加税';
    const parts: [keyof typeof TAX_EXPENSE_NAMES, string, number][] = [
      ['cjs', CLOSE_CODES.cjs, surtax.cjs],
      ['edu', CLOSE_CODES.edu, surtax.edu],
      ['localEdu', CLOSE_CODES.localEdu, surtax.localEdu],
    ];
    const debits = new Map<number, number>();
    for (const [tax, , amount] of parts) {
      if (amount === 0) continue;
      const id = (await taxExpenseLeaf(tx, book.id, codes.taxesAndSurcharges, tax)).id;
      debits.set(id, (debits.get(id) ?? 0) + amount);
    }
    const lines: VoucherLineInput[] = [...debits].map(([accountId, debit]) => ({
      summary,
      accountId,
      debit,
      credit: 0,
    }));
    for (const [, code, amount] of parts)
      if (amount !== 0)
        lines.push({ summary, accountId: (await leafFor(tx, book.id, code)).id, debit: 0, credit: amount });
    return { ...none, lines, amount: surtax.total };
  }
  if (profitLeaves.length === 0) return none;
  const summary = '结转本期损益';
  const profitAcc = (await leafFor(tx, book.id, codes.currentYearProfit)).id;
  const lines: VoucherLineInput[] = [];
  for (const l of income) lines.push({ summary, accountId: l.id, debit: -l.net, credit: 0 });
  if (incomeTotal !== 0) lines.push({ summary, accountId: profitAcc, debit: 0, credit: incomeTotal });
  if (expenseTotal !== 0) lines.push({ summary, accountId: profitAcc, debit: expenseTotal, credit: 0 });
  for (const l of expense) lines.push({ summary, accountId: l.id, debit: 0, credit: l.net });
  return { ...none, lines, amount: incomeTotal + expenseTotal };
}

/** Takes away a transfer voucher (it may have been reviewed when made). */
async function dropTransfer(tx: Queryable, ctx: StoreCtx, voucherId: number) {
  await reviewVoucher(tx, ctx, voucherId, false);
  await deleteVoucher(tx, ctx, voucherId);
}

/**
 * Makes (or remakes) a transfer voucher of the book's current period: none when there is nothing to
 * transfer; the same voucher when its lines are still right; otherwise the old one is replaced. The voucher
 * is reviewed at once by whoever made it (it is the system's, worked from reviewed figures).
 */
export async function makeTransfer(tx: Queryable, ctx: StoreCtx, bookId: number, kind: TransferKind, opts: CloseOpts) {
  const book = await lockBook(tx, ctx.agencyId, bookId);
  const period = book.currentPeriod;
  const { lines } = await transferLines(tx, book, kind, opts);
  const existing = await transferVoucher(tx, bookId, period, kind);
  if (existing) {
    const same = fingerprint(await voucherLinesOf(tx, existing.id)) === fingerprint(lines.map((l) => ({ ...l })));
    if (same) return existing;
    await dropTransfer(tx, ctx, existing.id);
  }
  if (lines.length === 0) return null;
  const v = await createVoucher(tx, ctx, bookId, { vdate: lastDayOf(period), source: 'close', sourceRef: kind, lines });
  await reviewVoucher(tx, ctx, v.id, true);
  return v;
}

/** The checks before closing the book's current period, each with its label and, when failing, why. */
export async function closeChecks(
  tx: Queryable,
  book: BookRow,
  opts: CloseOpts,
): Promise<{
  checks: CloseCheck[];
  surtax: SurtaxFigures;
  profit: number;
  incomeTax: IncomeTaxFigures;
  yearProfit: number;
  amounts: Record<TransferKind, number>;
}> {
  const period = book.currentPeriod;
  const checks: CloseCheck[] = [];
  const push = (key: CloseCheck['key'], label: string, msg: string) => checks.push({ key, label, ok: msg === '', msg });
  const trial = await openingTrial(tx, book.id);
  push('opening', '期初余额试算平衡', trial.balanced ? '' : BOOK_CLOSE_MSG.openingUnbalanced);
  const [counts] = rowsOf<{ unbalanced: number; unreviewed: number }>(
    await tx.execute(sql`
      select
        (select count(*) from (select l.voucher_id from voucher_lines l where l.book_id = ${book.id} and l.period = ${period}
           group by l.voucher_id having sum(l.debit) <> sum(l.credit)) x)::int as unbalanced,
        (select count(*) from vouchers v where v.book_id = ${book.id} and v.period = ${period} and v.review = 'unreviewed')::int as unreviewed`),
  );
  const unbalanced = Number(counts?.unbalanced ?? 0);
  const unreviewed = Number(counts?.unreviewed ?? 0);
  push('unbalanced', '凭证借贷平衡', unbalanced > 0 ? fillMsg(BOOK_CLOSE_MSG.unbalanced, { n: unbalanced }) : '');
  push('unreviewed', '凭证已全部审核', unreviewed > 0 ? fillMsg(BOOK_CLOSE_MSG.unreviewed, { n: unreviewed }) : '');
  const leaves = await leafBalances(tx, book.id, period);
  const cashMsgs: string[] = [];
  for (const code of CLOSE_CODES.cash) {
    const own = leaves.filter((l) => l.code.startsWith(code));
    const net = own.reduce((s, l) => s + l.net, 0);
    const name = own.find((l) => l.code === code)?.name ?? (code === '1001' ? '库存现金' : '银行存款');
    if (net < 0) cashMsgs.push(fillMsg(BOOK_CLOSE_MSG.negativeCash, { name, amount: fenToYuanText(net) }));
  }
  push('cash', '库存现金、银行存款无负数', cashMsgs.join('；'));
  const surtaxNow = await transferLines(tx, book, 'surtax', opts);
  const surtaxVoucher = await transferVoucher(tx, book.id, period, 'surtax');
  const surtaxDone = surtaxNow.amount === 0 || (surtaxVoucher !== null && surtaxVoucher.total === surtaxNow.amount);
  push(
    'surtax',
    '已计提附加税',
    surtaxDone ? '' : fillMsg(BOOK_CLOSE_MSG.surtaxMissing, { amount: fenToYuanText(surtaxNow.amount) }),
  );
  const incomeTaxNow = await transferLines(tx, book, 'incomeTax', opts);
  if (opts.incomeTax && transferApplies('incomeTax', period)) {
    const v = await transferVoucher(tx, book.id, period, 'incomeTax');
    const done = incomeTaxNow.amount === 0 || (v !== null && v.total === incomeTaxNow.amount);
    push(
      'incomeTax',
      '已计提企业所得税',
      done ? '' : fillMsg(BOOK_CLOSE_MSG.incomeTaxMissing, { amount: fenToYuanText(incomeTaxNow.amount) }),
    );
  }
  const profitLeft = leaves.some((l) => l.category === 'profit' && l.net !== 0);
  push('profit', '已结转损益，损益类科目无余额', profitLeft ? BOOK_CLOSE_MSG.profitLeft : '');
  const profitNow = await transferLines(tx, book, 'profit', opts);
  const yearEndNow = await transferLines(tx, book, 'yearEnd', opts);
  if (transferApplies('yearEnd', period)) {
    const left = leaves.some(
      (l) => l.code.startsWith(chartCodes(book.standard, book.vatKind).currentYearProfit) && l.net !== 0,
    );
    push('yearEnd', '本年利润已结转至未分配利润', left ? BOOK_CLOSE_MSG.yearEndLeft : '');
  }
  return {
    checks,
    surtax: surtaxNow.surtax,
    profit: profitNow.profit,
    incomeTax: incomeTaxNow.incomeTax as IncomeTaxFigures,
    yearProfit: yearEndNow.yearProfit,
    amounts: {
      surtax: surtaxNow.amount,
      incomeTax: incomeTaxNow.amount,
      profit: profitNow.amount,
      yearEnd: yearEndNow.amount,
    },
  };
}

/** The book with its client (the caller's data scope is checked by the routes). */
export async function bookWithClient(tx: Queryable, agencyId: number, bookId: number) {
  const [row] = await tx
    .select({ book: books, qymc: enterprises.qymc })
    .from(books)
    .innerJoin(enterprises, eq(enterprises.id, books.enterpriseId))
    .where(and(eq(books.id, bookId), eq(books.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, BOOK_CLOSE_MSG.bookNotFound);
  return row;
}

/** The 期末结账 page's view of one book: transfers, checks, closed periods. */
export async function closeState(
  tx: Queryable,
  agencyId: number,
  bookId: number,
  opts: CloseOpts,
): Promise<CloseState> {
  const { book, qymc } = await bookWithClient(tx, agencyId, bookId);
  const period = book.currentPeriod;
  const { checks, surtax, profit, incomeTax, yearProfit, amounts } = await closeChecks(tx, book, opts);
  const steps = [];
  for (const kind of TRANSFER_KINDS.filter((k) => transferApplies(k, period))) {
    const v = await transferVoucher(tx, bookId, period, kind);
    steps.push({
      kind,
      name: TRANSFER_NAMES[kind],
      amount: amounts[kind],
      voucherId: v?.id ?? null,
      voucherNo: v ? `${v.word}-${v.number}` : '',
      voucherTotal: v?.total ?? 0,
    });
  }
  const closed = await tx
    .select({ period: bookCloses.period })
    .from(bookCloses)
    .where(eq(bookCloses.bookId, bookId))
    .orderBy(bookCloses.period);
  return {
    bookId,
    aeiId: book.enterpriseId,
    qymc,
    period,
    startPeriod: book.startPeriod,
    currentPeriod: book.currentPeriod,
    closedPeriods: closed.map((c) => c.period),
    vatKind: book.vatKind,
    surtax,
    incomeTax,
    profit,
    yearProfit,
    steps,
    checks,
    canClose: checks.every((c) => c.ok),
  };
}

/** Why the book's current period cannot close ('' when it can), the checks' messages joined. */
export const refusalOf = (checks: readonly CloseCheck[]) =>
  checks
    .filter((c) => !c.ok)
    .map((c) => c.msg)
    .join('；');

/** 结账: the current period closes when every check passes; the next period opens. */
export async function closeBook(tx: Queryable, ctx: StoreCtx, bookId: number, opts: CloseOpts) {
  const book = await lockBook(tx, ctx.agencyId, bookId);
  const { checks } = await closeChecks(tx, book, opts);
  const why = refusalOf(checks);
  if (why) throw new AppError(CODE.CONFLICT, why);
  await tx
    .insert(bookCloses)
    .values({ agencyId: ctx.agencyId, bookId, period: book.currentPeriod, closedBy: ctx.userId });
  await tx
    .update(books)
    .set({ currentPeriod: nextPeriod(book.currentPeriod) })
    .where(eq(books.id, bookId));
  return book.currentPeriod;
}

/** 反结账: the latest closed period opens again (and becomes the current one). */
export async function reopenBook(tx: Queryable, ctx: StoreCtx, bookId: number) {
  const book = await lockBook(tx, ctx.agencyId, bookId);
  const prev = prevPeriod(book.currentPeriod);
  const [closed] = await tx
    .select()
    .from(bookCloses)
    .where(and(eq(bookCloses.bookId, bookId), eq(bookCloses.period, prev)));
  if (!closed || prev < book.startPeriod) throw new AppError(CODE.CONFLICT, BOOK_CLOSE_MSG.nothingClosed);
  await tx.delete(bookCloses).where(and(eq(bookCloses.bookId, bookId), eq(bookCloses.period, prev)));
  await tx.update(books).set({ currentPeriod: prev }).where(eq(books.id, bookId));
  return prev;
}

/**
 * One book of a batch close for `period`: already closed → ok; an earlier period open → refused; else the
 * transfers, the checks and the close, all in the caller's transaction. Returns the outcome and its reason.
 */
export async function closeOneForRun(
  tx: Queryable,
  ctx: StoreCtx,
  bookId: number,
  period: string,
  opts: CloseOpts,
): Promise<{ ok: boolean; msg: string }> {
  const book = await lockBook(tx, ctx.agencyId, bookId);
  if (book.currentPeriod > period) {
    const [c] = await tx
      .select()
      .from(bookCloses)
      .where(and(eq(bookCloses.bookId, bookId), eq(bookCloses.period, period)));
    if (c) return { ok: true, msg: fillMsg(BOOK_CLOSE_MSG.alreadyClosed, { period }) };
  }
  if (book.currentPeriod < period)
    return { ok: false, msg: fillMsg(BOOK_CLOSE_MSG.notClosedBefore, { period: book.currentPeriod }) };
  if (book.currentPeriod !== period)
    return { ok: false, msg: fillMsg(BOOK_CLOSE_MSG.notCurrent, { period: book.currentPeriod }) };
  try {
    await makeTransfer(tx, ctx, bookId, 'surtax', opts);
    if (opts.incomeTax && transferApplies('incomeTax', period)) await makeTransfer(tx, ctx, bookId, 'incomeTax', opts);
    await makeTransfer(tx, ctx, bookId, 'profit', opts);
    if (transferApplies('yearEnd', period)) await makeTransfer(tx, ctx, bookId, 'yearEnd', opts);
  } catch (err) {
    if (err instanceof AppError) return { ok: false, msg: err.message };
    throw err;
  }
  const { checks } = await closeChecks(tx, book, opts);
  const why = refusalOf(checks);
  if (why) return { ok: false, msg: why };
  await tx.insert(bookCloses).values({ agencyId: ctx.agencyId, bookId, period, closedBy: ctx.userId });
  await tx
    .update(books)
    .set({ currentPeriod: nextPeriod(period) })
    .where(eq(books.id, bookId));
  return { ok: true, msg: fillMsg(BOOK_CLOSE_MSG.closedOk, { period }) };
}
