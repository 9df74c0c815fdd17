import {
  acceptProposalsCall,
  CODE,
  type Proposal,
  proposalsCall,
  saveVoucherRulesCall,
  type VoucherRuleSet,
  voucherRulesCall,
} from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bookAccounts, books, voucherRules, vouchers } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chartCodes } from '../books/charts.js';
import { agencyOf } from '../customer/customer.repo.js';
import { createVoucher } from '../voucher-store/voucher-store.js';
import { lastDayOf, rulesOf } from './close.service.js';
import { bookInScope } from './scope.js';

/**
 * From documents to vouchers (issue 16 point 3): the client's invoices of the book's current period (the
 * invoice store) and its wages (the filed IIT return of the period) proposed as vouchers by the agency's
 * rules; accepting makes each one voucher once (source 'invoice' / 'payroll', source_ref the proposal's key).
 */

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

interface Acc {
  id: number;
  code: string;
  name: string;
  isLeaf: boolean;
  enabled: boolean;
  auxKinds: string[];
}

/** The leaf a rule's code posts to: the account, or its first enabled leaf below it. */
function leafOf(accounts: readonly Acc[], code: string): Acc | null {
  return accounts.find((a) => a.code.startsWith(code) && a.isLeaf && a.enabled) ?? null;
}

interface Draft extends Proposal {
  postLines: { summary: string; accountId: number; debit: number; credit: number }[];
}

async function draftsOf(tx: Queryable, agencyId: number, bookId: number) {
  const [book] = await tx.select().from(books).where(eq(books.id, bookId));
  if (!book) throw new AppError(CODE.NOT_FOUND, '账套不存在或无权访问');
  const period = book.currentPeriod;
  const rules = await rulesOf(tx, agencyId);
  const accounts = (
    await tx
      .select({
        id: bookAccounts.id,
        code: bookAccounts.code,
        name: bookAccounts.name,
        isLeaf: bookAccounts.isLeaf,
        enabled: bookAccounts.enabled,
        auxKinds: bookAccounts.auxKinds,
      })
      .from(bookAccounts)
      .where(eq(bookAccounts.bookId, bookId))
  ).sort((a, b) => a.code.localeCompare(b.code));
  const made = new Map(
    (
      await tx
        .select({ source: vouchers.source, ref: vouchers.sourceRef, word: vouchers.word, number: vouchers.number })
        .from(vouchers)
        .where(
          and(
            eq(vouchers.bookId, bookId),
            eq(vouchers.period, period),
            sql`${vouchers.source} in ('invoice', 'payroll')`,
          ),
        )
    ).map((v) => [v.ref, `${v.word}-${v.number}`]),
  );
  const invoices = rowsOf<{
    id: number;
    direction: 'out' | 'in';
    fphm: string;
    kprq: string;
    fplx: string;
    cp_name: string;
    amount: string;
    tax: string;
    total: string;
    goods: boolean;
  }>(
    await tx.execute(sql`
      select i.id, i.direction, i.fphm, i.kprq, i.fplx, i.cp_name, i.amount::text, i.tax::text, i.total::text,
        exists (select 1 from invoice_lines l where l.invoice_id = i.id and l.ssflbm like '1%') as goods
      from invoices i
      where i.agency_id = ${agencyId} and i.enterprise_id = ${book.enterpriseId} and i.month = ${period}
        and i.state <> 'void'
      order by i.direction desc, i.kprq, i.id`),
  );
  const codes = chartCodes(book.standard, book.vatKind);
  /** A rule's code in this book: the VAT stand-in, and the 企业会计准则 numbering. */
  const inBook = (c: string, vat: 'out' | 'in') => {
    if (c === '222101') return vat === 'out' ? codes.vatOutput : (codes.vatInput ?? '222101');
    if (book.standard === 'general' && /^5\d{3}/.test(c)) return `6${c.slice(1)}`;
    if (book.standard === 'general' && /^31\d{2}/.test(c)) return `41${c.slice(2)}`;
    return c;
  };
  const drafts: Draft[] = [];
  const build = (
    key: string,
    source: 'invoice' | 'payroll',
    title: string,
    vdate: string,
    parts: { summary: string; code: string; debit: number; credit: number }[],
  ) => {
    let problem = '';
    const lines: Proposal['lines'] = [];
    const postLines: Draft['postLines'] = [];
    for (const p of parts) {
      if (p.debit === 0 && p.credit === 0) continue;
      const code = inBook(p.code, key.startsWith('out:') ? 'out' : 'in');
      const a = leafOf(accounts, code);
      if (!a) problem ||= `账套缺少科目${code}，请在科目中添加或修改记账规则`;
      else if (a.auxKinds.length > 0) problem ||= `科目“${a.code} ${a.name}”设有辅助核算，请在凭证中手工录入`;
      lines.push({
        summary: p.summary,
        code: a?.code ?? p.code,
        name: a?.name ?? '',
        debit: p.debit,
        credit: p.credit,
      });
      if (a) postLines.push({ summary: p.summary, accountId: a.id, debit: p.debit, credit: p.credit });
    }
    drafts.push({
      key,
      source,
      title,
      vdate,
      lines,
      total: lines.reduce((s, l) => s + l.debit, 0),
      voucherNo: made.get(key) ?? '',
      problem,
      postLines,
    });
  };
  for (const inv of invoices) {
    const amount = Number(inv.amount);
    const tax = Number(inv.tax);
    const total = Number(inv.total);
    const who = inv.cp_name || '—';
    if (inv.direction === 'out') {
      const r = rules.sales;
      const summary = `${r.summary} ${who}`.slice(0, 100);
      build(`out:${inv.id}`, 'invoice', `销项发票 ${inv.fphm} ${who}`, inv.kprq, [
        { summary, code: r.debit, debit: total, credit: 0 },
        { summary, code: r.income, debit: 0, credit: amount },
        { summary, code: r.tax, debit: 0, credit: tax },
      ]);
    } else {
      const r = rules.purchase;
      const summary = `${r.summary} ${who}`.slice(0, 100);
      // Input tax is deducted on a 专票 of a general taxpayer; otherwise it is part of the cost.
      const deduct = book.vatKind === 'general' && inv.fplx === 'zp';
      build(`in:${inv.id}`, 'invoice', `进项发票 ${inv.fphm} ${who}`, inv.kprq, [
        { summary, code: inv.goods ? r.goods : r.expense, debit: deduct ? amount : total, credit: 0 },
        { summary, code: r.tax, debit: deduct ? tax : 0, credit: 0 },
        { summary, code: r.credit, debit: 0, credit: total },
      ]);
    }
  }
  // Wages: the income total of the period's filed IIT return (个人所得税 扣缴申报, 所属期 = the period).
  const [iit] = rowsOf<{ srze: string }>(
    await tx.execute(sql`
      select srze::text from filed_returns
      where agency_id = ${agencyId} and enterprise_id = ${book.enterpriseId} and tax_type = 'grsds'
        and skssqq = ${`${period}-01`} and state = 'filed' and srze > 0`),
  );
  if (iit) {
    const r = rules.payroll;
    const wages = Number(iit.srze);
    build(`payroll:${period}`, 'payroll', `${period} 工资（个税申报收入额）`, lastDayOf(period), [
      { summary: r.summary, code: r.debit, debit: wages, credit: 0 },
      { summary: r.summary, code: r.credit, debit: 0, credit: wages },
    ]);
  }
  return { period, invoiceCount: invoices.length, drafts };
}

const strip = (d: Draft): Proposal => {
  const { postLines: _, ...p } = d;
  return p;
};

const list = serve(proposalsCall, async ({ body, session, tx }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  const { period, invoiceCount, drafts } = await draftsOf(tx, agencyId, body.bookId);
  return { period, invoiceCount, list: drafts.map(strip) };
});

const accept = serve(acceptProposalsCall, async ({ body, session, tx, req }) => {
  const agencyId = await bookInScope(tx, session, body.bookId);
  const ctx = { agencyId, userId: session.userId };
  const { drafts } = await draftsOf(tx, agencyId, body.bookId);
  const byKey = new Map(drafts.map((d) => [d.key, d]));
  let made = 0;
  for (const key of new Set(body.keys)) {
    const d = byKey.get(key);
    if (!d) throw new AppError(CODE.NOT_FOUND, '拟生成的凭证不存在，请刷新后重试');
    if (d.voucherNo) continue;
    if (d.problem) throw new AppError(CODE.CONFLICT, `${d.title}：${d.problem}`);
    await createVoucher(tx, ctx, body.bookId, {
      vdate: d.vdate,
      source: d.source,
      sourceRef: d.key,
      attachments: d.source === 'invoice' ? 1 : 0,
      lines: d.postLines,
    });
    made += 1;
  }
  await audit(tx, req, ctx, 'account.voucher.accept', String(body.bookId), { keys: body.keys.length, made });
  const after = await draftsOf(tx, agencyId, body.bookId);
  return { made, list: after.drafts.map(strip) };
});

const getRules = serve(voucherRulesCall, async ({ session, tx }) => rulesOf(tx, agencyOf(session)));

const saveRules = serve(saveVoucherRulesCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const rules: VoucherRuleSet = body.rules;
  for (const kind of ['sales', 'purchase', 'payroll', 'close'] as const) {
    await tx
      .insert(voucherRules)
      .values({ agencyId, kind, rules: rules[kind], updatedBy: session.userId })
      .onConflictDoUpdate({
        target: [voucherRules.agencyId, voucherRules.kind],
        set: { rules: rules[kind], updatedBy: session.userId, updatedAt: new Date() },
      });
  }
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.setting.rules', '', {});
  return rulesOf(tx, agencyId);
});

export const proposalCalls: Served[] = [list, accept, getRules, saveRules];
