import {
  acceptProposalsCall,
  CODE,
  DEFAULT_VOUCHER_RULES,
  type Proposal,
  proposalsCall,
  saveVoucherRulesCall,
  type VoucherRuleSet,
  voucherRulesCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { invoiceLines, invoices } from '../src/db/schema/index.js';
import { createBook } from '../src/modules/books/books.service.js';
import { ADMIN, ENT, ID, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * From documents to vouchers: a general taxpayer's month — a sales invoice 10,000.00 + 1,300.00 tax, a
 * 专票 for goods 2,000.00 + 260.00, a 普票 for a service 500.00 + 30.00 — proposed by the default rules,
 * accepted some then all, each made once.
 */
let t: TestApp;
let admin = '';
let bookId = 0;
const ctx = { agencyId: 1, userId: ID.admin, kjgcId: null };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  await inScope(t.db.app, ctx, async (tx) => {
    const b = await createBook(tx, ctx, { enterpriseId: ENT.adminOwn, startPeriod: '2026-10', vatKind: 'general' });
    bookId = b.id;
    const base = { agencyId: 1, enterpriseId: ENT.adminOwn, month: '2026-10', source: 'collected' as const };
    const [sale, goods, service] = await tx
      .insert(invoices)
      .values([
        {
          ...base,
          direction: 'out',
          fphm: '26000000000000000001',
          kprq: '2026-10-08',
          fplx: 'zp',
          cpName: '甲公司',
          amount: 10_000_00,
          tax: 1_300_00,
          total: 11_300_00,
        },
        {
          ...base,
          direction: 'in',
          fphm: '26000000000000000002',
          kprq: '2026-10-09',
          fplx: 'zp',
          cpName: '乙公司',
          amount: 2_000_00,
          tax: 260_00,
          total: 2_260_00,
        },
        {
          ...base,
          direction: 'in',
          fphm: '26000000000000000003',
          kprq: '2026-10-10',
          fplx: 'pp',
          cpName: '丙公司',
          amount: 500_00,
          tax: 30_00,
          total: 530_00,
        },
      ])
      .returning();
    const line = { agencyId: 1, xh: 1, rate: '0.13' };
    await tx.insert(invoiceLines).values([
      {
        ...line,
        invoiceId: sale?.id ?? 0,
        spmc: '*电子元件*电容',
        ssflbm: '1090000000000000000',
        amount: 10_000_00,
        tax: 1_300_00,
      },
      {
        ...line,
        invoiceId: goods?.id ?? 0,
        spmc: '*电子元件*电阻',
        ssflbm: '1090000000000000000',
        amount: 2_000_00,
        tax: 260_00,
      },
      {
        ...line,
        invoiceId: service?.id ?? 0,
        spmc: '*信息技术服务*软件服务',
        ssflbm: '3040000000000000000',
        rate: '0.06',
        amount: 500_00,
        tax: 30_00,
      },
    ]);
  });
}, 180_000);
afterAll(() => t?.close());

const brief = (p: Proposal) => [p.title, p.lines.map((l) => `${l.code}:${l.debit}:${l.credit}`).join(' '), p.voucherNo];

describe('单据生成凭证', () => {
  it('proposes each invoice by the rules, input tax apart only on a 专票', async () => {
    const r = await t.call<{ period: string; invoiceCount: number; list: Proposal[] }>(
      proposalsCall.path,
      { bookId },
      admin,
    );
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.invoiceCount).toBe(3);
    expect(r.data.list.map(brief)).toEqual([
      ['销项发票 26000000000000000001 甲公司', '1122:1130000:0 5001:0:1000000 22210102:0:130000', ''],
      ['进项发票 26000000000000000002 乙公司', '1405:200000:0 22210101:26000:0 2202:0:226000', ''],
      ['进项发票 26000000000000000003 丙公司', '560202:53000:0 2202:0:53000', ''],
    ]);
    expect(r.data.list.every((p) => p.problem === '')).toBe(true);
  });

  it('accepts some, then all, each once', async () => {
    const list = (await t.call<{ list: Proposal[] }>(proposalsCall.path, { bookId }, admin)).data.list;
    const first = await t.call<{ made: number; list: Proposal[] }>(
      acceptProposalsCall.path,
      { bookId, keys: [list[1]?.key] },
      admin,
    );
    expect(first.code, first.msg).toBe(CODE.OK);
    expect(first.data.made).toBe(1);
    expect(first.data.list.map((p) => p.voucherNo)).toEqual(['', '记-1', '']);
    const all = await t.call<{ made: number; list: Proposal[] }>(
      acceptProposalsCall.path,
      { bookId, keys: list.map((p) => p.key) },
      admin,
    );
    expect(all.data.made).toBe(2);
    expect(all.data.list.map((p) => p.voucherNo)).toEqual(['记-2', '记-1', '记-3']);
    const again = await t.call<{ made: number }>(
      acceptProposalsCall.path,
      { bookId, keys: list.map((p) => p.key) },
      admin,
    );
    expect(again.data.made).toBe(0);
    const n = await t.ownerQuery<{ n: number }>(
      "select count(*)::int n from vouchers where book_id = $1 and source = 'invoice'",
      [bookId],
    );
    expect(n[0]?.n).toBe(3);
  });

  it('keeps the agency’s rules and refuses another agency', async () => {
    const rules: VoucherRuleSet = { ...DEFAULT_VOUCHER_RULES, close: { cjsRate: 5, halve: false, incomeTax: true } };
    const saved = await t.call<VoucherRuleSet>(saveVoucherRulesCall.path, { rules }, admin);
    expect(saved.code, saved.msg).toBe(CODE.OK);
    expect((await t.call<VoucherRuleSet>(voucherRulesCall.path, {}, admin)).data.close).toEqual({
      cjsRate: 5,
      halve: false,
      incomeTax: true,
    });
    const other = await t.login(OTHER_ADMIN);
    expect((await t.call<VoucherRuleSet>(voucherRulesCall.path, {}, other)).data.close).toEqual(
      DEFAULT_VOUCHER_RULES.close,
    );
    expect((await t.call(proposalsCall.path, { bookId }, other)).code).toBe(CODE.NOT_FOUND);
  });
});
