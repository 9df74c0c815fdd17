import {
  type BureauClient,
  BureauError,
  type BureauInvoice,
  findInvoiceCodes,
  httpBureauClient,
  INVOICE_CODES,
  INVOICE_MSG,
  type IssueInvoiceInput,
  invoiceCodeOf,
  isValidUscc,
  usccCheckChar,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaxSim, type TaxSim } from '../src/index.js';

// Invoices at the simulated bureau (docs/tax-bureau-protocol.md "Invoices (数电票)"), through the product's
// client. The bureau's date is fixed at 2026-11-03: October is the open VAT period of the general taxpayer
// below (its return not filed), November the current month.

const TODAY = '2026-11-03';
/** General taxpayer (monthly VAT), 6 % services. */
const GENERAL = '91330106000158380C';
/** Small-scale taxpayer (quarterly VAT). */
const SMALL = '91330106000166299W';
/** Another general taxpayer, for issuing without touching GENERAL's figures. */
const ISSUER = '91330106000197975L';

const fen = (money: string) => Math.round(Number(money) * 100);
const yuan = (f: number) =>
  `${f < 0 ? '-' : ''}${Math.floor(Math.abs(f) / 100)}.${String(Math.abs(f) % 100).padStart(2, '0')}`;
const sum = (list: BureauInvoice[], k: 'hjje' | 'hjse' | 'jshj') => list.reduce((s, i) => s + fen(i[k]), 0);
const buyer = (() => {
  const first17 = '91330105MA2H7K3X1';
  return { gfmc: '杭州测试购买方有限公司', gfsh: first17 + usccCheckChar(first17) };
})();
let counter = 0;
const rid = () => `req-${Date.now()}-${++counter}`;

let sim: TaxSim;
let bureau: BureauClient;
const sessions = new Map<string, string>();

async function session(qysh: string, b: BureauClient = bureau) {
  const key = `${qysh}|${b === bureau ? 'main' : 'other'}`;
  const hit = sessions.get(key);
  if (hit) return hit;
  const r = await b.etaxLogin({ qysh, account: '330106198001010011', password: 'x', sfbm: '1', loginType: '0' });
  if (r.status !== 1) throw new Error(`login of ${qysh} failed`);
  sessions.set(key, r.session);
  return r.session;
}

/** A 6 % service line of je yuan-fen with the right tax. */
const serviceLine = (je: number, rate = '0.06' as const) => ({
  spmc: '软件开发服务',
  ssflbm: '3040201010000000000',
  je: yuan(je),
  slv: rate,
  se: yuan(Math.round((je * 6) / 100)),
});

function blue(extra: Partial<IssueInvoiceInput> = {}): IssueInvoiceInput {
  return { requestId: rid(), fplx: 'zp', ...buyer, lines: [serviceLine(100_000)], ...extra };
}

beforeAll(async () => {
  sim = await startTaxSim({ today: TODAY });
  bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000, busyDelayMs: () => 1 });
});
afterAll(() => sim.close());

describe('the generated invoices', () => {
  it('are the same for the same tax number in another simulator, and differ between taxpayers', async () => {
    const other = await startTaxSim({ today: TODAY });
    try {
      const b2 = httpBureauClient({ baseUrl: other.url, timeoutMs: 5_000, busyDelayMs: () => 1 });
      for (const direction of ['xx', 'jx'] as const) {
        const a = await bureau.invoices(await session(GENERAL), direction, '2026-09');
        const b = await b2.invoices(await session(GENERAL, b2), direction, '2026-09');
        expect(a.length).toBeGreaterThan(0);
        expect(b).toEqual(a);
      }
      const mine = await bureau.invoices(await session(GENERAL), 'xx', '2026-09');
      const theirs = await bureau.invoices(await session(SMALL), 'xx', '2026-09');
      expect(theirs.map((i) => i.fphm)).not.toEqual(mine.map((i) => i.fphm));
    } finally {
      await other.close();
    }
  });

  it('have 20-digit numbers, valid parties, lines from the code table with their tax, and totals of the lines', async () => {
    const s = await session(GENERAL);
    const info = await bureau.taxpayerInfo(s);
    for (const direction of ['xx', 'jx'] as const) {
      const list = await bureau.invoices(s, direction, '2026-08');
      expect(new Set(list.map((i) => i.fphm)).size).toBe(list.length);
      for (const inv of list) {
        expect(inv.fphm).toMatch(/^26\d{18}$/);
        expect(inv.kprq.slice(0, 7)).toBe('2026-08');
        expect(inv.zt).toBe('0');
        expect(isValidUscc(inv.xfsh)).toBe(true);
        if (direction === 'xx') expect([inv.xfsh, inv.xfmc]).toEqual([GENERAL, info.qymc]);
        else {
          expect([inv.gfsh, inv.gfmc]).toEqual([GENERAL, info.qymc]);
          expect(['0', '1', '2']).toContain(inv.gxzt);
        }
        expect(inv.lines.length).toBeGreaterThan(0);
        for (const l of inv.lines) {
          const c = invoiceCodeOf(l.ssflbm);
          expect(c, l.ssflbm).toBeDefined();
          expect(l.spmc.startsWith(`*${c?.short}*`)).toBe(true);
          const rate = l.slv === 'mz' ? 0 : Math.round(Number(l.slv) * 100);
          expect(fen(l.se)).toBe(Math.round((fen(l.je) * rate) / 100));
        }
        expect(fen(inv.hjje)).toBe(inv.lines.reduce((x, l) => x + fen(l.je), 0));
        expect(fen(inv.hjse)).toBe(inv.lines.reduce((x, l) => x + fen(l.se), 0));
        expect(fen(inv.jshj)).toBe(fen(inv.hjje) + fen(inv.hjse));
      }
    }
    // A general taxpayer's issued lines are at its trade's rates; a small-scale one's at 1 % or 免税.
    const xx = await bureau.invoices(s, 'xx', '2026-08');
    expect(xx.some((i) => i.fplx === 'zp')).toBe(true);
    for (const i of xx) for (const l of i.lines) expect(['0.13', '0.09', '0.06']).toContain(l.slv);
    const small = await bureau.invoices(await session(SMALL), 'xx', '2026-08');
    for (const i of small) for (const l of i.lines) expect(['0.01', '0.05', 'mz']).toContain(l.slv);
  });

  it('add up to the VAT book: cxfp = fpxx = the return’s sales, by month and over a quarter', async () => {
    const g = await session(GENERAL);
    // 2026-07's general VAT return is on the roster of filing month 2026-08.
    const roster = await bureau.filingRoster(g, '2026-08');
    const julyVat = roster.items.find((i) => i.type === 'zzs' && i.skssqq === '2026-07-01');
    expect(julyVat).toBeDefined();
    const july = await bureau.invoices(g, 'xx', '2026-07');
    const totals = await bureau.invoiceTotals(g, '2026-07-01', '2026-07-31');
    expect(sum(july, 'hjje')).toBe(fen(totals.zpje) + fen(totals.ppje));
    expect(sum(july, 'hjje')).toBe(fen(julyVat?.srze ?? ''));
    expect(fen(totals.xse13) + fen(totals.xse9) + fen(totals.xse6)).toBe(sum(july, 'hjje'));
    expect(fen(totals.xxse)).toBe(sum(july, 'hjse'));
    expect(
      sum(
        july.filter((i) => i.fplx === 'zp'),
        'hjje',
      ),
    ).toBe(fen(totals.zpje));

    // The small-scale quarter: three months of invoices make the quarter's 销售额 exactly.
    const s = await session(SMALL);
    const q3 = (await bureau.filingRoster(s, '2026-10')).items.find(
      (i) => i.type === 'zzs' && i.skssqq === '2026-07-01',
    );
    expect(q3?.skssqz).toBe('2026-09-30');
    let quarter = 0;
    for (const m of ['2026-07', '2026-08', '2026-09']) quarter += sum(await bureau.invoices(s, 'xx', m), 'hjje');
    const qt = await bureau.invoiceTotals(s, '2026-07-01', '2026-09-30');
    expect(quarter).toBe(fen(qt.zpje) + fen(qt.ppje));
    expect(quarter).toBe(fen(q3?.srze ?? ''));
    expect(fen(qt.xse1) + fen(qt.xse5) + fen(qt.msxse)).toBe(quarter);
  });

  it('list only what is dated up to the bureau’s date, in pages of at most 500', async () => {
    const s = await session(GENERAL);
    const nov = await bureau.invoices(s, 'xx', '2026-11');
    for (const i of nov) expect(i.kprq <= TODAY).toBe(true);
    expect(await bureau.invoices(s, 'xx', '2026-12')).toEqual([]);
    const oct = await bureau.invoices(s, 'xx', '2026-10');
    const page = await bureau.invoicePage(s, { direction: 'xx', month: '2026-10', pageNo: 2, pageSize: 5 });
    expect(page.total).toBe(oct.length);
    expect(page.list.map((i) => i.fphm)).toEqual(oct.slice(5, 10).map((i) => i.fphm));
    await expect(bureau.invoicePage(s, { direction: 'xx', month: '2026-13' })).rejects.toThrow(INVOICE_MSG.badParams);
  });

  it('a filed period’s received 专票 were confirmed for it, and fpxx reports that input', async () => {
    const g = await session(GENERAL);
    const roster = await bureau.filingRoster(g, '2026-07');
    const june = roster.items.find((i) => i.type === 'zzs' && i.skssqq === '2026-06-01');
    expect(['ysb', 'yjk']).toContain(june?.state);
    const jx = await bureau.invoices(g, 'jx', '2026-06');
    const zp = jx.filter((i) => i.fplx === 'zp');
    expect(zp.length).toBeGreaterThan(0);
    for (const i of zp) expect([i.gxzt, i.gxssq]).toEqual(['2', '2026-06']);
    for (const i of jx.filter((x) => x.fplx === 'pp')) expect(i.gxzt).toBe('0');
    const t = await bureau.invoiceTotals(g, '2026-06-01', '2026-06-30');
    expect(t).toMatchObject({ jxqr: true, jxfs: zp.length });
    expect(fen(t.jxse)).toBe(sum(zp, 'hjse'));
  });

  it('fixes the count a month for the benchmark (50)', async () => {
    sim.setInvoicesPerMonth(50);
    try {
      const s = await session(GENERAL);
      const sep = await bureau.invoices(s, 'xx', '2026-09');
      expect(sep.length).toBe(50);
      expect(await bureau.invoices(s, 'jx', '2026-09')).toHaveLength(50);
      const t = await bureau.invoiceTotals(s, '2026-09-01', '2026-09-30');
      expect(sum(sep, 'hjje')).toBe(fen(t.zpje) + fen(t.ppje));
    } finally {
      sim.setInvoicesPerMonth(0);
    }
  });
});

describe('issuing (fp/kp)', () => {
  it('issues a blue invoice dated today, counted in the month’s list, fpxx and quota', async () => {
    const s = await session(ISSUER);
    const before = await bureau.invoiceTotals(s, '2026-11-01', '2026-11-30');
    const quota = await bureau.invoiceQuota(s, '2026-11');
    const r = await bureau.issueInvoice(s, blue({ bz: '合同 HT-001' }));
    if (r.status !== 'issued') throw new Error(JSON.stringify(r));
    const inv = r.invoice;
    expect(inv.fphm).toMatch(/^2633\d{16}$/);
    expect(inv).toMatchObject({
      kprq: TODAY,
      zt: '0',
      fplx: 'zp',
      ...buyer,
      hjje: '1000.00',
      hjse: '60.00',
      bz: '合同 HT-001',
    });
    expect(inv.lines[0]).toMatchObject({ xh: 1, spmc: '*信息技术服务*软件开发服务', slv: '0.06' });
    const nov = await bureau.invoices(s, 'xx', '2026-11');
    expect(nov.find((i) => i.fphm === inv.fphm)).toEqual(inv);
    const after = await bureau.invoiceTotals(s, '2026-11-01', '2026-11-30');
    expect(fen(after.zpje) - fen(before.zpje)).toBe(100_000);
    expect(fen(after.xse6) - fen(before.xse6)).toBe(100_000);
    const q2 = await bureau.invoiceQuota(s, '2026-11');
    expect(fen(q2.used) - fen(quota.used)).toBe(106_000);
    expect(fen(q2.remaining)).toBe(fen(q2.total) - fen(q2.used));
  });

  it('the same requestId never issues twice: the first invoice comes back, also after a lost reply', async () => {
    const s = await session(ISSUER);
    const input = blue();
    const first = await bureau.issueInvoice(s, input);
    const again = await bureau.issueInvoice(s, { ...input, lines: [serviceLine(500_000)] });
    expect(first.status).toBe('issued');
    expect(again.status).toBe('alreadyIssued');
    if (first.status === 'refused' || again.status === 'refused') throw new Error('refused');
    expect(again.invoice).toEqual(first.invoice);

    // The bureau issues, the answer is lost: the retry with the same requestId gets that invoice.
    const count = (await bureau.invoices(s, 'xx', '2026-11')).length;
    sim.faults.set({ lostReply: 1 }, ISSUER, 'fp/kp');
    const lost = blue();
    const err = await bureau.issueInvoice(s, lost).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BureauError);
    expect((err as BureauError).kind).toBe('unreachable');
    expect((await bureau.invoices(s, 'xx', '2026-11')).length).toBe(count + 1);
    const retry = await bureau.issueInvoice(s, lost);
    expect(retry.status).toBe('alreadyIssued');
    expect((await bureau.invoices(s, 'xx', '2026-11')).length).toBe(count + 1);
  });

  it('refuses a buyer tax number whose GB 32100 check character is wrong', async () => {
    const s = await session(ISSUER);
    const wrong = buyer.gfsh.slice(0, 17) + (buyer.gfsh[17] === '1' ? '2' : '1');
    const r = await bureau.issueInvoice(s, blue({ gfsh: wrong }));
    expect(r).toEqual({
      status: 'refused',
      reason: 'buyerTaxNo',
      msg: `${INVOICE_MSG.buyerTaxNo}：${wrong} 的校验位不正确`,
    });
    const noTaxNo = await bureau.issueInvoice(s, blue({ gfsh: '' }));
    expect(noTaxNo).toMatchObject({ status: 'refused', reason: 'buyerTaxNo' });
    // A 普票 to a person needs none; a 15-digit legacy number is taken as it is.
    expect((await bureau.issueInvoice(s, blue({ fplx: 'pp', gfmc: '张三', gfsh: '' }))).status).toBe('issued');
    expect((await bureau.issueInvoice(s, blue({ gfsh: '330106123456789' }))).status).toBe('issued');
  });

  it('refuses a rate the item does not allow, and rates the taxpayer kind may not use', async () => {
    const s = await session(ISSUER);
    const nine = await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), slv: '0.09', se: '90.00' }] }));
    expect(nine).toMatchObject({ status: 'refused', reason: 'rateNotAllowed' });
    if (nine.status === 'refused') {
      expect(nine.msg).toBe(
        `${INVOICE_MSG.rateNotAllowed}：第 1 行“信息技术服务”（3040201010000000000）可用税率为 6%，不能使用 9%`,
      );
    }
    const simple = await bureau.issueInvoice(
      s,
      blue({ lines: [{ ...serviceLine(100_000), slv: '0.03', se: '30.00' }] }),
    );
    expect(simple).toMatchObject({ status: 'refused', reason: 'rateForKind' });
    // Small-scale at 13 %: refused; at 1 % it is issued.
    const small = await session(SMALL);
    const goods = { spmc: '液压油', ssflbm: '1070101070000000000', sl: '2', dj: '500', je: '1000.00' };
    const thirteen = await bureau.issueInvoice(
      small,
      blue({ fplx: 'pp', lines: [{ ...goods, slv: '0.13', se: '130.00' }] }),
    );
    expect(thirteen).toMatchObject({ status: 'refused', reason: 'rateForKind' });
    if (thirteen.status === 'refused') expect(thirteen.msg).toContain('小规模纳税人只能按 3%、1%');
    const one = await bureau.issueInvoice(small, blue({ fplx: 'pp', lines: [{ ...goods, slv: '0.01', se: '10.00' }] }));
    expect(one.status).toBe('issued');
    // 专票 at 免税: refused.
    const exempt = await bureau.issueInvoice(small, blue({ fplx: 'zp', lines: [{ ...goods, slv: 'mz', se: '0.00' }] }));
    expect(exempt).toMatchObject({ status: 'refused', reason: 'rateForKind' });
    // Not in the table.
    const unknown = await bureau.issueInvoice(
      s,
      blue({ lines: [{ ...serviceLine(100_000), ssflbm: '3999999999999999999' }] }),
    );
    expect(unknown).toMatchObject({ status: 'refused', reason: 'unknownCode' });
  });

  it('refuses a tax off by more than a fen, amounts not above zero, and quantity × price far from the amount', async () => {
    const s = await session(ISSUER);
    const off = await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), se: '60.02' }] }));
    expect(off).toMatchObject({
      status: 'refused',
      reason: 'taxMismatch',
      msg: `${INVOICE_MSG.taxMismatch}：第 1 行税额 60.02 元，应为 60.00 元（误差不超过 0.01 元）`,
    });
    expect((await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), se: '60.01' }] }))).status).toBe(
      'issued',
    );
    const zero = await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), je: '0.00', se: '0.00' }] }));
    expect(zero).toMatchObject({ status: 'refused', reason: 'amount' });
    const negative = await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), je: '-5.00' }] }));
    expect(negative).toMatchObject({ status: 'refused', reason: 'amount' });
    const priced = await bureau.issueInvoice(s, blue({ lines: [{ ...serviceLine(100_000), sl: '3', dj: '300' }] }));
    expect(priced).toMatchObject({ status: 'refused', reason: 'amount' });
  });

  it('refuses an invoice above the remaining 授信额度', async () => {
    const s = await session(SMALL);
    const q = await bureau.invoiceQuota(s, '2026-11');
    const je = fen(q.remaining); // with 1 % tax on top it is above what remains
    const r = await bureau.issueInvoice(
      s,
      blue({
        fplx: 'pp',
        lines: [
          { spmc: '咨询', ssflbm: '3040603000000000000', je: yuan(je), slv: '0.01', se: yuan(Math.round(je / 100)) },
        ],
      }),
    );
    expect(r).toMatchObject({ status: 'refused', reason: 'quota' });
    if (r.status === 'refused') expect(r.msg).toContain(`本月剩余授信额度 ${q.remaining} 元`);
    expect((await bureau.invoiceQuota(s, '2026-11')).used).toBe(q.used);
  });
});

describe('red invoices (红字确认单, then fp/hckp)', () => {
  it('refuses a red invoice without a confirmed 确认单; issues it after one; the blue becomes 已红冲', async () => {
    const s = await session(ISSUER);
    const none = await bureau.issueRedInvoice(s, { requestId: rid(), qrdbh: '26339000000000000001' });
    expect(none).toEqual({
      status: 'refused',
      reason: 'noConfirmation',
      msg: `${INVOICE_MSG.noConfirmation}：未找到已确认的红字确认单 26339000000000000001`,
    });
    // A generated October invoice, red-lettered in November.
    const oct = await bureau.invoices(s, 'xx', '2026-10');
    const target = oct[0] as BureauInvoice;
    const novBefore = await bureau.invoiceTotals(s, '2026-11-01', '2026-11-30');
    const octBefore = await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31');
    const qrdReq = rid();
    const qrd = await bureau.requestRedConfirmation(s, { requestId: qrdReq, lzfphm: target.fphm, reason: '开票有误' });
    if (qrd.status !== 'confirmed') throw new Error(JSON.stringify(qrd));
    expect(qrd.qrd).toMatchObject({
      lzfphm: target.fphm,
      zt: '已确认',
      hzfphm: '',
      hjje: `-${target.hjje}`,
      jshj: `-${target.jshj}`,
    });
    expect(qrd.qrd.qrdbh).toMatch(/^26339\d{15}$/);
    expect(
      (await bureau.requestRedConfirmation(s, { requestId: qrdReq, lzfphm: target.fphm, reason: '开票有误' })).status,
    ).toBe('alreadyRequested');
    // One 确认单 waiting is enough: a second for the same blue is refused.
    const twice = await bureau.requestRedConfirmation(s, { requestId: rid(), lzfphm: target.fphm, reason: '销货退回' });
    expect(twice).toMatchObject({ status: 'refused', reason: 'alreadyRed' });

    const redReq = rid();
    const red = await bureau.issueRedInvoice(s, { requestId: redReq, qrdbh: qrd.qrd.qrdbh });
    if (red.status !== 'issued') throw new Error(JSON.stringify(red));
    expect(red.invoice).toMatchObject({
      zt: '3',
      lzfphm: target.fphm,
      kprq: TODAY,
      hjje: `-${target.hjje}`,
      hjse: `-${target.hjse}`,
      gfsh: target.gfsh,
    });
    expect(red.invoice.lines.map((l) => l.je)).toEqual(target.lines.map((l) => `-${l.je}`));
    // The blue is 已红冲 in its month; the red counts in November; October's sums stay.
    expect((await bureau.invoices(s, 'xx', '2026-10')).find((i) => i.fphm === target.fphm)?.zt).toBe('1');
    expect((await bureau.invoices(s, 'xx', '2026-11')).find((i) => i.fphm === red.invoice.fphm)?.zt).toBe('3');
    const novAfter = await bureau.invoiceTotals(s, '2026-11-01', '2026-11-30');
    expect(fen(novAfter.zpje) + fen(novAfter.ppje)).toBe(fen(novBefore.zpje) + fen(novBefore.ppje) - fen(target.hjje));
    expect(await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31')).toEqual(octBefore);

    // Red twice: the same requestId gives the same red invoice; another is refused; a new 确认单 too.
    expect(await bureau.issueRedInvoice(s, { requestId: redReq, qrdbh: qrd.qrd.qrdbh })).toEqual({
      status: 'alreadyIssued',
      invoice: red.invoice,
    });
    expect(await bureau.issueRedInvoice(s, { requestId: rid(), qrdbh: qrd.qrd.qrdbh })).toMatchObject({
      status: 'refused',
      reason: 'confirmationUsed',
    });
    expect(
      await bureau.requestRedConfirmation(s, { requestId: rid(), lzfphm: target.fphm, reason: '开票有误' }),
    ).toMatchObject({ status: 'refused', reason: 'alreadyRed' });
    // Not the taxpayer's invoice, or a red one: not found.
    expect(
      await bureau.requestRedConfirmation(s, { requestId: rid(), lzfphm: red.invoice.fphm, reason: '开票有误' }),
    ).toMatchObject({ status: 'refused', reason: 'notFound' });
    expect(
      await bureau.requestRedConfirmation(s, { requestId: rid(), lzfphm: '26330000000000000000', reason: '开票有误' }),
    ).toMatchObject({ status: 'refused', reason: 'notFound' });
  });
});

describe('勾选 and 用途确认', () => {
  it('ticks received 专票 within the open period, confirms them once, and the VAT return uses the input', async () => {
    const s = await session(GENERAL);
    const oct = await bureau.invoices(s, 'jx', '2026-10');
    const zp = oct.filter((i) => i.fplx === 'zp' && i.gxzt === '0');
    const pp = oct.find((i) => i.fplx === 'pp');
    expect(zp.length).toBeGreaterThan(2);
    const chosen = zp.slice(0, 3);

    // Outside the window: a period before last month, or a small-scale taxpayer.
    expect(await bureau.selectInvoices(s, { ssq: '2026-08', fphms: [chosen[0]?.fphm ?? ''], gx: true })).toMatchObject({
      status: 'refused',
      reason: 'periodClosed',
    });
    const small = await bureau.selectInvoices(await session(SMALL), { ssq: '2026-10', fphms: ['1'], gx: true });
    expect(small).toMatchObject({ status: 'refused', reason: 'periodClosed' });

    const r = await bureau.selectInvoices(s, {
      ssq: '2026-10',
      fphms: [...chosen.map((i) => i.fphm), ...(pp ? [pp.fphm] : [])],
      gx: true,
    });
    if (r.status !== 'done') throw new Error(JSON.stringify(r));
    expect(r.result.list.slice(0, 3).every((x) => x.ok)).toBe(true);
    if (pp)
      expect(r.result.list[3]).toEqual({
        fphm: pp.fphm,
        ok: false,
        msg: `${INVOICE_MSG.notDeductible}：普通发票不能勾选抵扣`,
      });
    // Ticking again is fine; for another period it is not; a November invoice is after October.
    const again = await bureau.selectInvoices(s, { ssq: '2026-10', fphms: [chosen[0]?.fphm ?? ''], gx: true });
    expect(again.status === 'done' && again.result.list[0]?.ok).toBe(true);
    const elsewhere = await bureau.selectInvoices(s, { ssq: '2026-11', fphms: [chosen[0]?.fphm ?? ''], gx: true });
    expect(elsewhere.status === 'done' && elsewhere.result.list[0]).toMatchObject({ ok: false });
    const novZp = (await bureau.invoices(s, 'jx', '2026-11')).find((i) => i.fplx === 'zp');
    if (novZp) {
      const late = await bureau.selectInvoices(s, { ssq: '2026-10', fphms: [novZp.fphm], gx: true });
      expect(late.status === 'done' && late.result.list[0]?.ok).toBe(false);
    }
    // Untick one, then confirm: the two left are the period's input.
    await bureau.selectInvoices(s, { ssq: '2026-10', fphms: [chosen[2]?.fphm ?? ''], gx: false });
    const listed = await bureau.invoices(s, 'jx', '2026-10');
    expect(listed.filter((i) => i.gxzt === '1').map((i) => i.fphm)).toEqual(chosen.slice(0, 2).map((i) => i.fphm));
    expect((await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31')).jxqr).toBe(false);

    const c = await bureau.confirmDeduction(s, '2026-10');
    if (c.status !== 'confirmed') throw new Error(JSON.stringify(c));
    const two = chosen.slice(0, 2);
    expect(c.confirmation).toEqual({
      ssq: '2026-10',
      fs: 2,
      je: yuan(sum(two, 'hjje')),
      se: yuan(sum(two, 'hjse')),
      qrrq: TODAY,
    });
    // Idempotent: the same figures again.
    expect(await bureau.confirmDeduction(s, '2026-10')).toEqual({
      status: 'alreadyConfirmed',
      confirmation: c.confirmation,
    });
    // Locked: no more 勾选 for October.
    expect(await bureau.selectInvoices(s, { ssq: '2026-10', fphms: [chosen[2]?.fphm ?? ''], gx: true })).toMatchObject({
      status: 'refused',
      reason: 'periodConfirmed',
    });
    const after = await bureau.invoices(s, 'jx', '2026-10');
    expect(after.filter((i) => i.gxzt === '2').map((i) => [i.fphm, i.gxssq])).toEqual(
      two.map((i) => [i.fphm, '2026-10']),
    );
    const t = await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31');
    expect(t).toMatchObject({ jxqr: true, jxfs: 2, jxse: c.confirmation.se, jxje: c.confirmation.je });

    // The general VAT return without a typed jxse takes the confirmed input.
    const sales = yuan(fen(t.zpje) + fen(t.ppje));
    const filed = await bureau.submitReturn(s, {
      type: 'zzs',
      skssqq: '2026-10-01',
      skssqz: '2026-10-31',
      sbsj: { xse6: sales },
    });
    if (filed.status === 'rejected') throw new Error(filed.msg);
    expect(filed.receipt.mx.jxse).toBe(c.confirmation.se);
    // Filed: November is the period open now, October is closed.
    expect(await bureau.confirmDeduction(s, '2026-10')).toMatchObject({ status: 'alreadyConfirmed' });
    expect(await bureau.selectInvoices(s, { ssq: '2026-10', fphms: [chosen[2]?.fphm ?? ''], gx: false })).toMatchObject(
      {
        status: 'refused',
      },
    );
  });
});

describe('faults for the invoice calls', () => {
  it('refuses one call of one taxpayer with a reason, the others unaffected', async () => {
    const s = await session(SMALL);
    sim.faults.set({ refuse: 1, refuseMsg: '发票查询服务维护中' }, SMALL, 'fp/cxfp');
    const err = await bureau.invoices(s, 'xx', '2026-10').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BureauError);
    expect([(err as BureauError).kind, (err as BureauError).message]).toEqual(['failed', '发票查询服务维护中']);
    // Switched itself off; other calls never saw it.
    expect((await bureau.invoices(s, 'xx', '2026-10')).length).toBeGreaterThan(0);
    sim.faults.set({ error5xx: 'always' }, SMALL, 'fp/cxfp');
    expect((await bureau.invoiceTotals(s, '2026-10-01', '2026-10-31')).skssqq).toBe('2026-10-01');
    await expect(bureau.invoices(s, 'jx', '2026-10')).rejects.toMatchObject({ kind: 'unreachable' });
    sim.faults.clear(SMALL);
    expect((await bureau.invoices(s, 'jx', '2026-10')).length).toBeGreaterThan(0);
  });
});

describe('admin over HTTP', () => {
  it('sets per-call faults and the volume, and lists a month without a session', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${sim.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const s = await session(SMALL);
    expect(
      (await post('/admin/faults', { qysh: SMALL, path: 'fp/sxed', refuse: 1, refuseMsg: '额度服务维护中' })).status,
    ).toBe(200);
    await expect(bureau.invoiceQuota(s, '2026-11')).rejects.toMatchObject({
      kind: 'failed',
      message: '额度服务维护中',
    });
    expect((await bureau.invoiceQuota(s, '2026-11')).month).toBe('2026-11');
    expect((await post('/admin/invoices', { perMonth: -1 })).status).toBe(400);
    const res = await fetch(`${sim.url}/admin/invoices?qysh=${SMALL}&month=2026-10&direction=xx`);
    const listed = ((await res.json()) as { data: { list: BureauInvoice[] } }).data.list;
    expect(listed).toEqual(await bureau.invoices(s, 'xx', '2026-10'));
  });
});

describe('the 税收分类编码 table', () => {
  it('has 19-digit codes, each once, and finds them by code, name or 简称', () => {
    expect(INVOICE_CODES.length).toBeGreaterThanOrEqual(40);
    for (const c of INVOICE_CODES) expect(c.code).toMatch(/^\d{19}$/);
    expect(new Set(INVOICE_CODES.map((c) => c.code)).size).toBe(INVOICE_CODES.length);
    expect(findInvoiceCodes('3040201').map((c) => c.name)).toEqual(['软件开发服务', '软件咨询服务', '软件维护服务']);
    expect(findInvoiceCodes('餐饮')[0]?.code).toBe('3070401000000000000');
    expect(findInvoiceCodes('*信息技术服务*').length).toBe(4);
    expect(findInvoiceCodes('30')).toEqual([]);
  });
});
