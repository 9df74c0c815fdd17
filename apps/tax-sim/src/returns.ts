import { daysOverdue, duePeriod, type FilingTaxType, filingMonthOf, isFilingTaxType } from '@dzy/shared';
import { employedIn, type SimEmployee, staffOf, wageOf } from './employees.js';
import { type Book, dzsphmOf, hasEmployees, isFiled, pzxhOf, type SimReturn, scaleOf, ZSXM } from './filing.js';
import type { PeriodTotals } from './invoices.js';
import {
  basicDeduction,
  bonusTax,
  bureauCit,
  bureauGeneralVat,
  bureauSmallScaleVat,
  bureauStamp,
  bureauSurtaxes,
  cumTax,
  isStampItem,
  labourTax,
  type Place,
  STAMP_LAW,
} from './law.js';
import { rng, type Taxpayer, yuan } from './taxpayers.js';

/**
 * Returns filed and paid through the bureau (docs/tax-bureau-protocol.md, "Filing and paying"): the
 * taxpayer's employees and wages (人员信息), its invoice totals, the submission of a return (computed with
 * the bureau's own rules in ./law.ts, never the product's, and checked like the real bureau), payment by 三方协议 deduction, and
 * the ledger of what was filed and paid, laid over the filing model's book so every view shows it.
 */

const pad2 = (n: number) => String(n).padStart(2, '0');

// --- 人员信息 and wages (the people in ./employees.ts) ---------------------------------------------------

/** The taxpayer's employees: as many as its scale says, none for a taxpayer without employees (no grsds). */
export const employeesOf = (t: Taxpayer): SimEmployee[] => (hasEmployees(t.qysh) ? staffOf(t, scaleOf(t)) : []);

/** Where the taxpayer is (城建税 rate): mostly 市区. */
export function locationOf(qysh: string): Place {
  const x = rng(`location:${qysh}`)();
  return x < 0.8 ? 'city' : x < 0.95 ? 'county' : 'other';
}

// --- payment behaviour -----------------------------------------------------------------------------------

/** How a 三方协议 deduction goes: most succeed; a few have no agreement, a few too little money. */
export type PaymentBehaviour = 'ok' | 'noAgreement' | 'lowBalance';
export const isPaymentBehaviour = (v: unknown): v is PaymentBehaviour =>
  v === 'ok' || v === 'noAgreement' || v === 'lowBalance';
export function defaultPayment(qysh: string): PaymentBehaviour {
  const x = rng(`tripartite:${qysh}`)();
  return x < 0.03 ? 'noAgreement' : x < 0.06 ? 'lowBalance' : 'ok';
}

// --- the ledger ---------------------------------------------------------------------------------------

/** What the bureau did for one return (taxpayer × type × 所属期) through the filing and paying calls. */
export interface LedgerEntry {
  qysh: string;
  type: FilingTaxType;
  skssqq: string;
  skssqz: string;
  /** Submission calls received, and those that filed (0 or 1). */
  submits: number;
  filed: number;
  sbrq?: string;
  srze?: number;
  ybtse?: number;
  lsb?: boolean;
  yqsb?: boolean;
  /** The computed lines of the return (yuan strings), and the wages of an IIT report. */
  mx?: Record<string, string>;
  wages?: Map<string, { sre: number; sxyj: number; zxfjkc: number; qtkc: number }>;
  /** 留抵 carried out of a general taxpayer's VAT return. */
  creditOut?: number;
  payCalls: number;
  paid: number;
  jkrq?: string;
  znj?: number;
}

export type Ledger = Map<string, Map<string, LedgerEntry>>;
const entryKey = (type: string, skssqq: string) => `${type}|${skssqq}`;

export function entryOf(ledger: Ledger, qysh: string, type: FilingTaxType, skssqq: string, skssqz: string) {
  let own = ledger.get(qysh);
  if (!own) {
    own = new Map();
    ledger.set(qysh, own);
  }
  const k = entryKey(type, skssqq);
  let e = own.get(k);
  if (!e) {
    e = { qysh, type, skssqq, skssqz, submits: 0, filed: 0, payCalls: 0, paid: 0 };
    own.set(k, e);
  }
  return e;
}

/** The book with what was filed and paid through the bureau laid over it (a copy; books are shared). */
export function withLedger(book: Book, ledger: Ledger, qysh: string): Book {
  const own = ledger.get(qysh);
  if (!own || own.size === 0) return book;
  return {
    ...book,
    returns: book.returns.map((r) => {
      const e = own.get(entryKey(r.type, r.skssqq));
      if (!e || (!e.filed && !e.paid)) return r;
      const out: SimReturn = { ...r };
      if (e.filed) Object.assign(out, { sbrq: e.sbrq, srze: e.srze, ybtse: e.ybtse });
      if (e.paid) out.jkrq = e.jkrq;
      return out;
    }),
  };
}

/** Filed and paid through the bureau, for GET /admin/filings. */
export function ledgerList(ledger: Ledger, book: (qysh: string) => Book, qysh?: string) {
  const owners = qysh ? [qysh] : [...ledger.keys()];
  return owners.flatMap((q) =>
    [...(ledger.get(q)?.values() ?? [])].map((e) => {
      const b = book(q);
      const r = b.returns.find((x) => x.type === e.type && x.skssqq === e.skssqq);
      return {
        qysh: q,
        type: e.type,
        skssqq: e.skssqq,
        skssqz: e.skssqz,
        submits: e.submits,
        filed: e.filed,
        sbrq: e.sbrq ?? '',
        pzxh: e.filed && r ? pzxhOf(b, r) : '',
        srze: e.srze === undefined ? '' : yuan(e.srze),
        ybtse: e.ybtse === undefined ? '' : yuan(e.ybtse),
        lsb: Boolean(e.lsb),
        yqsb: Boolean(e.yqsb),
        payCalls: e.payCalls,
        paid: e.paid,
        jkrq: e.jkrq ?? '',
        dzsphm: e.paid && r ? dzsphmOf(b, r) : '',
      };
    }),
  );
}

// --- money on the wire ------------------------------------------------------------------------------

/** A two-decimal yuan amount (string or number) to fen; null when it is not one. */
export function fenOf(v: unknown): number | null {
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -fen : fen;
}

// --- submission ----------------------------------------------------------------------------------------

/** Reply codes of the filing and paying calls (docs/tax-bureau-protocol.md). */
export const FILING_CODE = {
  badParams: '40001',
  validation: '41001',
  alreadyFiled: '41002',
  notOpen: '41003',
  overdue: '41004',
  notRegistered: '41005',
  noAgreement: '42001',
  lowBalance: '42002',
  alreadyPaid: '42003',
  nothingToPay: '42004',
} as const;

export type Outcome = { code: string; msg: string; data: unknown };
const fail = (code: string, msg: string, data: unknown = null): Outcome => ({ code, msg, data });

interface SubmitContext {
  t: Taxpayer;
  book: Book;
  ledger: Ledger;
  today: string;
  /** The invoice sums of a period (fpxx): what the VAT returns are checked against. */
  invoices: (skssqq: string, skssqz: string) => PeriodTotals;
}

/** The receipt of a filed return, as the submission and the already-filed replies give it. */
export function receiptOf(qysh: string, book: Book, r: SimReturn, e: LedgerEntry | undefined) {
  const pzxh = pzxhOf(book, r);
  return {
    type: r.type,
    skssqq: r.skssqq,
    skssqz: r.skssqz,
    sbrq: r.sbrq ?? '',
    pzxh,
    srze: yuan(r.srze),
    ybtse: yuan(r.ybtse),
    yqsb: Boolean(e?.yqsb),
    lsb: Boolean(e?.lsb),
    mx: e?.mx ?? {},
    /** The 申报回执 PDF, relative to the bureau's address. */
    hzdz: receiptPath(qysh, pzxh),
  };
}
export const receiptPath = (qysh: string, pzxh: string) =>
  `/receipt?qysh=${encodeURIComponent(qysh)}&pzxh=${encodeURIComponent(pzxh)}`;

/**
 * Submits a return: finds it on the book, refuses what the real bureau refuses, computes the tax and
 * records it as filed today. The ledger makes a second submission of the same return a 41002 with the
 * first one's receipt, never a second filing.
 */
export function submitReturn(ctx: SubmitContext, b: Record<string, unknown>): Outcome {
  const { t, book, ledger, today } = ctx;
  const type = b.type;
  const skssqq = typeof b.skssqq === 'string' ? b.skssqq : '';
  const skssqz = typeof b.skssqz === 'string' ? b.skssqz : '';
  if (!isFilingTaxType(type) || !/^\d{4}-\d{2}-\d{2}$/.test(skssqq) || !/^\d{4}-\d{2}-\d{2}$/.test(skssqz)) {
    return fail(FILING_CODE.badParams, '申报参数有误：需要 type、skssqq、skssqz[E40001]');
  }
  const reg = book.registrations.find((r) => r.type === type);
  if (!reg) return fail(FILING_CODE.notRegistered, `未认定${ZSXM[type].mc}税费种，不能申报[E41005]`);
  const ret = book.returns.find((r) => r.type === type && r.skssqq === skssqq && r.skssqz === skssqz);
  if (!ret) {
    const month = filingMonthOf(reg, skssqz);
    const due = duePeriod(reg, month);
    const future = due && due.skssqq === skssqq && due.skssqz === skssqz && month > book.current;
    if (future || skssqz >= today) {
      return fail(FILING_CODE.notOpen, `所属期 ${skssqq} 至 ${skssqz} 未到申报期，暂不能申报[E41003]`);
    }
    return fail(FILING_CODE.badParams, `所属期 ${skssqq} 至 ${skssqz} 不是${ZSXM[type].mc}的申报所属期[E40001]`);
  }
  const entry = entryOf(ledger, t.qysh, type, skssqq, skssqz);
  entry.submits += 1;
  if (isFiled(ret)) {
    return fail(FILING_CODE.alreadyFiled, '该所属期已申报，请勿重复申报[E41002]', receiptOf(t.qysh, book, ret, entry));
  }
  const late = today > ret.sbqx;
  const yqsb = b.yqsb === true;
  if (late && !yqsb) {
    return fail(FILING_CODE.overdue, `该申报已逾期（申报期限 ${ret.sbqx}），请确认逾期申报告知后办理逾期申报[E41004]`, {
      sbqx: ret.sbqx,
      yqts: daysOverdue(ret.sbqx, today),
    });
  }
  const lsb = b.lsb === true;
  const sbsj = (b.sbsj && typeof b.sbsj === 'object' ? b.sbsj : {}) as Record<string, unknown>;
  const computed = compute(ctx, ret, lsb, sbsj);
  if ('code' in computed) return computed;
  Object.assign(entry, {
    filed: 1,
    sbrq: today,
    srze: computed.srze,
    ybtse: computed.ybtse,
    lsb,
    yqsb: late,
    mx: computed.mx,
    wages: computed.wages,
    creditOut: computed.creditOut,
  });
  const filed: SimReturn = { ...ret, sbrq: today, srze: computed.srze, ybtse: computed.ybtse };
  const receipt = receiptOf(t.qysh, book, filed, entry);
  const notice = late
    ? `逾期申报：申报期限 ${ret.sbqx}，逾期 ${daysOverdue(ret.sbqx, today)} 天。已生成《责令限期改正通知书》，逾期缴纳的税款按日加收万分之五滞纳金。`
    : '';
  return { code: '10000', msg: '申报成功', data: { ...receipt, tzs: notice } };
}

interface Computed {
  srze: number;
  ybtse: number;
  mx: Record<string, string>;
  wages?: LedgerEntry['wages'];
  creditOut?: number;
}

const halvedFor = (book: Book, sbsj: Record<string, unknown>) => book.kind === '1' || sbsj.xwqy === true;

/** The return's lines the bureau names in its refusals (表间校验). */
const LINE_NAMES: Readonly<Record<string, string>> = {
  ynse: '本期应纳税额',
  cjs: '城市维护建设税',
  jyfj: '教育费附加',
  dfjyfj: '地方教育附加',
  ybtse: '本期应补（退）税额',
  sjlre: '实际利润额',
  ynsdse: '应纳所得税额',
  jmsdse: '减免所得税额',
};

/**
 * The real bureau recomputes every computed line of a return with its own rules and refuses one that
 * disagrees (表间校验不通过). A line the submission states (sbsj[key]) must equal the bureau's figure.
 */
function agree(sbsj: Record<string, unknown>, mine: Record<string, number>, who = ''): Outcome | null {
  for (const [k, v] of Object.entries(mine)) {
    const said = sbsj[k];
    if (said === undefined || said === null || said === '') continue;
    const f = fenOf(said);
    if (f === null) return fail(FILING_CODE.badParams, `申报数据 ${k} 不是金额[E40001]`);
    if (f !== v) {
      return fail(
        FILING_CODE.validation,
        `表间校验不通过：${who}${LINE_NAMES[k] ?? k}申报 ${yuan(f)} 元，按规定计算应为 ${yuan(v)} 元[E41001]`,
      );
    }
  }
  return null;
}

function compute(ctx: SubmitContext, ret: SimReturn, lsb: boolean, sbsj: Record<string, unknown>): Computed | Outcome {
  const { t, book } = ctx;
  const money = (name: string, required = false): number | Outcome => {
    const v = sbsj[name];
    if (v === undefined || v === null || v === '') {
      return required ? fail(FILING_CODE.badParams, `申报数据缺少 ${name}[E40001]`) : 0;
    }
    const f = fenOf(v);
    if (f === null) return fail(FILING_CODE.badParams, `申报数据 ${name} 不是金额[E40001]`);
    return f;
  };
  const isOutcome = (x: unknown): x is Outcome => typeof x === 'object' && x !== null && 'code' in x;
  const nonNeg = (name: string, x: number | Outcome) =>
    isOutcome(x) ? x : x < 0 ? fail(FILING_CODE.validation, `表间校验不通过：${name} 不能为负数[E41001]`) : x;

  if (lsb) {
    if (ret.type === 'zzs') {
      const inv = ctx.invoices(ret.skssqq, ret.skssqz);
      if (inv.zpje + inv.ppje > 0) {
        return fail(
          FILING_CODE.validation,
          `表间校验不通过：本期已开具发票 ${yuan(inv.zpje + inv.ppje)} 元，不能零申报[E41001]`,
        );
      }
    }
    return { srze: 0, ybtse: 0, mx: { lsb: '1' } };
  }

  switch (ret.type) {
    case 'zzs': {
      const inv = ctx.invoices(ret.skssqq, ret.skssqz);
      const place = locationOf(t.qysh);
      const cycle = ret.cycle === 'month' ? 'month' : 'quarter';
      if (book.kind === '1') {
        const f = { pp1: 0, zp1: 0, pp3: 0, zp3: 0, pp5: 0, zp5: 0 };
        for (const [k, name] of [
          ['pp1', 'ppxse'],
          ['zp1', 'zpxse'],
          ['pp3', 'ppxse3'],
          ['zp3', 'zpxse3'],
          ['pp5', 'ppxse5'],
          ['zp5', 'zpxse5'],
        ] as const) {
          const v = nonNeg(name, money(name));
          if (isOutcome(v)) return v;
          f[k] = v;
        }
        const declared = f.pp1 + f.zp1 + f.pp3 + f.zp3 + f.pp5 + f.zp5;
        if (declared < inv.zpje + inv.ppje) {
          return fail(
            FILING_CODE.validation,
            `表间校验不通过：申报销售额 ${yuan(declared)} 元小于发票系统开具金额 ${yuan(inv.zpje + inv.ppje)} 元[E41001]`,
          );
        }
        if (f.zp1 + f.zp3 + f.zp5 < inv.zpje) {
          return fail(
            FILING_CODE.validation,
            `表间校验不通过：申报的专用发票销售额 ${yuan(f.zp1 + f.zp3 + f.zp5)} 元小于发票系统开具的专用发票金额 ${yuan(inv.zpje)} 元[E41001]`,
          );
        }
        const v = bureauSmallScaleVat({ periodEnd: ret.skssqz, cycle, ...f });
        const s = bureauSurtaxes({
          vat: v.vat,
          sales: v.sales,
          cycle,
          place,
          halvedPayer: true,
          periodEnd: ret.skssqz,
        });
        const total = v.vat + s.total;
        const refused = agree(sbsj, { ynse: v.vat, cjs: s.cjs, jyfj: s.jyfj, dfjyfj: s.dfjyfj, ybtse: total });
        if (refused) return refused;
        return {
          srze: v.sales,
          ybtse: total,
          mx: {
            xse: yuan(v.sales),
            msxse: yuan(v.freeSales),
            ysxse: yuan(v.taxedSales),
            mse: yuan(v.freeTax),
            ynse: yuan(v.vat),
            cjs: yuan(s.cjs),
            jyfj: yuan(s.jyfj),
            dfjyfj: yuan(s.dfjyfj),
            fjsjze: yuan(s.reduction),
            ybtse: yuan(total),
          },
        };
      }
      const sales: { amount: number; percent: number }[] = [];
      for (const [name, percent] of [
        ['xse13', 13],
        ['xse9', 9],
        ['xse6', 6],
      ] as const) {
        const v = nonNeg(name, money(name));
        if (isOutcome(v)) return v;
        sales.push({ amount: v, percent });
      }
      // 进项税额: as typed (other 抵扣凭证 exist), else the input confirmed for the period (用途确认).
      const typed = sbsj.jxse !== undefined && sbsj.jxse !== null && sbsj.jxse !== '';
      const jxse = typed ? nonNeg('jxse', money('jxse')) : inv.jxse;
      if (isOutcome(jxse)) return jxse;
      const total = sales.reduce((s, x) => s + x.amount, 0);
      // The taxed sales invoiced (免税 and 0 % lines are not on this return's lines).
      const invoiced = (['0.13', '0.09', '0.06', '0.05', '0.03', '0.01'] as const).reduce(
        (s, r) => s + inv.byRate[r],
        0,
      );
      if (total < invoiced) {
        return fail(
          FILING_CODE.validation,
          `表间校验不通过：申报销售额 ${yuan(total)} 元小于发票系统开具金额 ${yuan(invoiced)} 元[E41001]`,
        );
      }
      const creditIn = previousCredit(ctx, ret);
      const v = bureauGeneralVat(sales, jxse, creditIn);
      const s = bureauSurtaxes({
        vat: v.vat,
        sales: v.sales,
        cycle,
        place,
        halvedPayer: sbsj.xwqy === true,
        periodEnd: ret.skssqz,
      });
      const sum = v.vat + s.total;
      const refused = agree(sbsj, { ynse: v.vat, cjs: s.cjs, jyfj: s.jyfj, dfjyfj: s.dfjyfj, ybtse: sum });
      if (refused) return refused;
      return {
        srze: v.sales,
        ybtse: sum,
        creditOut: v.creditOut,
        mx: {
          xse: yuan(v.sales),
          xxse: yuan(v.output),
          jxse: yuan(jxse),
          sqldse: yuan(creditIn),
          ynse: yuan(v.vat),
          qmldse: yuan(v.creditOut),
          cjs: yuan(s.cjs),
          jyfj: yuan(s.jyfj),
          dfjyfj: yuan(s.dfjyfj),
          fjsjze: yuan(s.reduction),
          ybtse: yuan(sum),
        },
      };
    }
    case 'qysds': {
      // A200000 lines 1-3 as on the 利润表 (each its own figure: 利润总额 is after 税金及附加, 期间费用 and
      // 营业外收支, so it is not 营业收入 − 营业成本), lines 4-9 as declared (0 when absent).
      const f: Record<string, number> = {};
      for (const [name, required] of [
        ['yysr', true],
        ['yycb', true],
        ['lrze', true],
        ['tdywynssde', false],
        ['bzssr', false],
        ['mssr', false],
        ['jszjtje', false],
        ['sdjm', false],
        ['mbyqndks', false],
      ] as const) {
        const v = money(name, required);
        if (isOutcome(v)) return v;
        if (name !== 'lrze' && v < 0) {
          return fail(FILING_CODE.validation, `表间校验不通过：${name} 不能为负数[E41001]`);
        }
        f[name] = v;
      }
      const staff = Number.isFinite(sbsj.cyrs) ? (sbsj.cyrs as number) : scaleOf(t).staff;
      const assets = money('zcze');
      if (isOutcome(assets)) return assets;
      const prepaid = book.returns
        .filter((r) => r.type === 'qysds' && r.skssqq.slice(0, 4) === ret.skssqq.slice(0, 4) && r.skssqq < ret.skssqq)
        .reduce((s, r) => s + (isFiled(r) ? r.ybtse : 0), 0);
      const c = bureauCit({
        periodEnd: ret.skssqz,
        l3: f.lrze ?? 0,
        l4: f.tdywynssde ?? 0,
        l5: f.bzssr ?? 0,
        l6: f.mssr ?? 0,
        l7: f.jszjtje ?? 0,
        l8: f.sdjm ?? 0,
        l9: f.mbyqndks ?? 0,
        l14: prepaid,
        staffAvg: staff,
        assetsAvg: assets || 500_000_000,
      });
      if (c.lossTooLarge) {
        return fail(
          FILING_CODE.validation,
          `表间校验不通过：弥补以前年度亏损 ${yuan(f.mbyqndks ?? 0)} 元大于可弥补的所得 ${yuan(Math.max(0, c.l10 + (f.mbyqndks ?? 0)))} 元[E41001]`,
        );
      }
      const refused = agree(sbsj, { sjlre: c.l10, ynsdse: c.l12, jmsdse: c.l13, ybtse: c.l16 });
      if (refused) return refused;
      return {
        srze: f.yysr ?? 0,
        ybtse: c.l16,
        mx: {
          yysr: yuan(f.yysr ?? 0),
          yycb: yuan(f.yycb ?? 0),
          lrze: yuan(f.lrze ?? 0),
          bzssr: yuan(f.bzssr ?? 0),
          mssr: yuan(f.mssr ?? 0),
          jszjtje: yuan(f.jszjtje ?? 0),
          sdjm: yuan(f.sdjm ?? 0),
          mbyqndks: yuan(f.mbyqndks ?? 0),
          sjlre: yuan(c.l10),
          xwqy: c.small ? '1' : '0',
          ynsdse: yuan(c.l12),
          jmsdse: yuan(c.l13),
          yyjse: yuan(prepaid),
          ybtse: yuan(c.l16),
        },
      };
    }
    case 'grsds':
      return computeIit(ctx, ret, sbsj);
    case 'cwbb': {
      const f: Record<string, number> = {};
      for (const name of ['zcze', 'fzze', 'syzqy', 'yysr', 'jlr']) {
        const v = money(name, true);
        if (isOutcome(v)) return v;
        f[name] = v;
      }
      const [zc, fz, qy] = [f.zcze ?? 0, f.fzze ?? 0, f.syzqy ?? 0];
      if (zc !== fz + qy) {
        return fail(
          FILING_CODE.validation,
          `表间校验不通过：资产总计 ${yuan(zc)} 元不等于负债合计与所有者权益合计之和 ${yuan(fz + qy)} 元[E41001]`,
        );
      }
      return { srze: f.yysr ?? 0, ybtse: 0, mx: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, yuan(v)])) };
    }
    case 'yhs': {
      const list = Array.isArray(sbsj.ht) ? sbsj.ht : [];
      const items: { htlx: string; amount: number }[] = [];
      for (const c of list as Record<string, unknown>[]) {
        if (!c || !isStampItem(c.htlx)) return fail(FILING_CODE.badParams, '申报数据 ht[].htlx 不是已知的税目[E40001]');
        const je = nonNeg(
          `${STAMP_LAW[c.htlx]?.[0]}计税金额`,
          fenOf(c.je) ?? fail(FILING_CODE.badParams, '申报数据 ht[].je 不是金额[E40001]'),
        );
        if (isOutcome(je)) return je;
        items.push({ htlx: c.htlx, amount: je });
      }
      const r = bureauStamp(items, halvedFor(book, sbsj), ret.skssqz);
      const refused = agree(sbsj, { ybtse: r.tax });
      if (refused) return refused;
      const mx: Record<string, string> = { jmse: yuan(r.reduction), ybtse: yuan(r.tax) };
      for (const row of r.rows) mx[row.htlx] = yuan(row.tax);
      return { srze: r.amount, ybtse: r.tax, mx };
    }
    default: {
      // 年度汇算, 工商年报, 残保金: the bureau takes the figures as given.
      const srze = nonNeg('srze', money('srze'));
      const ybtse = nonNeg('ybtse', money('ybtse'));
      if (isOutcome(srze)) return srze;
      if (isOutcome(ybtse)) return ybtse;
      return { srze, ybtse, mx: { srze: yuan(srze), ybtse: yuan(ybtse) } };
    }
  }
}

/** 上期留抵: the credit carried out of the previous VAT return filed through the bureau, else 0. */
function previousCredit(ctx: SubmitContext, ret: SimReturn): number {
  const own = ctx.ledger.get(ctx.t.qysh);
  if (!own) return 0;
  let best: LedgerEntry | undefined;
  for (const e of own.values()) {
    if (e.type === 'zzs' && e.filed && e.skssqq < ret.skssqq && (!best || e.skssqq > best.skssqq)) best = e;
  }
  return best?.creditOut ?? 0;
}

/**
 * The wages of one month as the bureau holds them: what was filed through it, else the deterministic
 * wages of the employees employed then.
 */
export function monthWages(t: Taxpayer, ledger: Ledger, employees: SimEmployee[], month: string, skssqq?: string) {
  const e = ledger.get(t.qysh)?.get(entryKey('grsds', skssqq ?? `${month}-01`));
  const rows = new Map<string, { sre: number; sxyj: number; zxfjkc: number; qtkc: number }>();
  if (e?.filed && e.wages) return e.wages;
  for (const p of employees) {
    if (!employedIn(p, month)) continue;
    rows.set(p.zjhm, { ...wageOf(p, month), qtkc: 0 });
  }
  return rows;
}

function computeIit(ctx: SubmitContext, ret: SimReturn, sbsj: Record<string, unknown>): Computed | Outcome {
  const { t, ledger } = ctx;
  const employees = employeesOf(t);
  const byId = new Map(employees.map((e) => [e.zjhm, e]));
  const month = ret.skssqq.slice(0, 7);
  const list = Array.isArray(sbsj.ry) ? (sbsj.ry as Record<string, unknown>[]) : null;
  if (!list) return fail(FILING_CODE.badParams, '申报数据缺少 ry（人员及收入）[E40001]');
  const wages: NonNullable<LedgerEntry['wages']> = new Map();
  for (const row of list) {
    const zjhm = typeof row?.zjhm === 'string' ? row.zjhm : '';
    const p = byId.get(zjhm);
    if (!p || !employedIn(p, month)) {
      return fail(FILING_CODE.validation, `表间校验不通过：人员 ${zjhm || '(空)'} 未采集或该月未任职受雇[E41001]`);
    }
    if (wages.has(zjhm)) return fail(FILING_CODE.validation, `表间校验不通过：人员 ${zjhm} 重复申报[E41001]`);
    const own = wageOf(p, month);
    const val = (k: string, fallback: number) => {
      if (row[k] === undefined) return fallback;
      return fenOf(row[k]);
    };
    const sre = val('sre', -1);
    const sxyj = val('sxyj', own.sxyj);
    const zxfjkc = val('zxfjkc', own.zxfjkc);
    const qtkc = val('qtkc', 0);
    if (
      sre === null ||
      sxyj === null ||
      zxfjkc === null ||
      qtkc === null ||
      sre < 0 ||
      sxyj < 0 ||
      zxfjkc < 0 ||
      qtkc < 0
    ) {
      return fail(FILING_CODE.validation, `表间校验不通过：人员 ${zjhm} 的收入或扣除不是非负金额[E41001]`);
    }
    if (zxfjkc > own.zxfjkc) {
      return fail(
        FILING_CODE.validation,
        `表间校验不通过：人员 ${zjhm} 的专项附加扣除 ${yuan(zxfjkc)} 元超过已采集的 ${yuan(own.zxfjkc)} 元[E41001]`,
      );
    }
    wages.set(zjhm, { sre, sxyj, zxfjkc, qtkc });
  }
  // 累计预扣法: the year's earlier months as the bureau holds them, then this one.
  const year = month.slice(0, 4);
  const monthNo = Number(month.slice(5, 7));
  const earlier = new Map<string, ReturnType<typeof monthWages>>();
  for (let m = 1; m < monthNo; m++) {
    const mm = `${year}-${pad2(m)}`;
    earlier.set(mm, monthWages(t, ledger, employees, mm));
  }
  let tax = 0;
  let income = 0;
  const mx: Record<string, string> = {};
  for (const [zjhm, w] of wages) {
    const p = byId.get(zjhm) as SimEmployee;
    const row = list.find((r) => r?.zjhm === zjhm) ?? {};
    // 累计减除费用 rule (公告2020年第13号 / 第19号), checked against what the bureau knows of the person.
    const rule = row.kcfs === 'firstJob' || row.kcfs === 'prior60k' ? row.kcfs : 'standard';
    if (rule === 'firstJob' && p.rzrq.slice(0, 4) !== year) {
      return fail(
        FILING_CODE.validation,
        `表间校验不通过：人员 ${zjhm} 任职受雇日期 ${p.rzrq} 不在本年度，不适用年度首次取得工资的减除费用（国家税务总局公告2020年第13号）[E41001]`,
      );
    }
    if (rule === 'prior60k') {
      const prev = Number(year) - 1;
      let lastYear = 0;
      for (let m = 1; m <= 12; m++)
        lastYear += monthWages(t, ledger, employees, `${prev}-${pad2(m)}`).get(zjhm)?.sre ?? 0;
      if (p.rzrq.slice(0, 7) > `${prev}-01` || lastYear > 6_000_000) {
        return fail(
          FILING_CODE.validation,
          `表间校验不通过：人员 ${zjhm} 上年未全年在本单位取得工资或工资收入超过6万元，不适用国家税务总局公告2020年第19号[E41001]`,
        );
      }
    }
    let cumIncome = 0;
    let cumOther = 0;
    let withheld = 0;
    let n = 0;
    let last = 0;
    const step = (m: number, x: { sre: number; sxyj: number; zxfjkc: number; qtkc: number }) => {
      n += 1;
      cumIncome += x.sre;
      cumOther += x.sxyj + x.zxfjkc + x.qtkc;
      const due = cumTax(Math.max(0, cumIncome - basicDeduction(rule, n, m) - cumOther));
      last = Math.max(0, due - withheld);
      withheld += last;
    };
    for (const [mm, rows] of earlier) {
      const x = rows.get(zjhm);
      if (x && employedIn(p, mm)) step(Number(mm.slice(5, 7)), x);
    }
    step(monthNo, w);
    // 全年一次性奖金 单独计税 (公告2023年第30号, to 2027-12-31): taxed alone with the monthly table.
    const bonus = row.qnycxjj === undefined ? 0 : fenOf(row.qnycxjj);
    if (bonus === null || bonus < 0) {
      return fail(FILING_CODE.validation, `表间校验不通过：人员 ${zjhm} 的全年一次性奖金不是非负金额[E41001]`);
    }
    if (bonus > 0 && `${year}-12-31` > '2027-12-31') {
      return fail(
        FILING_CODE.validation,
        `表间校验不通过：${year}年全年一次性奖金不再单独计税，应并入当年工资薪金所得[E41001]`,
      );
    }
    const t1 = last + (bonus > 0 ? bonusTax(bonus) : 0);
    tax += t1;
    income += w.sre + bonus;
    mx[zjhm] = yuan(t1);
  }
  // 劳务报酬 withheld (预扣率表二, 公告2018年第61号) for people who are not employees.
  const labour = Array.isArray(sbsj.lw) ? (sbsj.lw as Record<string, unknown>[]) : [];
  for (const row of labour) {
    const zjhm = typeof row?.zjhm === 'string' ? row.zjhm : '';
    const sre = fenOf(row?.sre);
    if (!zjhm || sre === null || sre < 0) {
      return fail(
        FILING_CODE.validation,
        `表间校验不通过：劳务报酬人员 ${zjhm || '(空)'} 的证件号码或收入有误[E41001]`,
      );
    }
    const t1 = labourTax(sre);
    tax += t1;
    income += sre;
    mx[`lw:${zjhm}`] = yuan(t1);
  }
  const refused = agree(sbsj, { ybtse: tax });
  if (refused) return refused;
  return {
    srze: income,
    ybtse: tax,
    wages,
    mx: { ...mx, rs: String(wages.size + labour.length), sre: yuan(income), ybtse: yuan(tax) },
  };
}

// --- payment --------------------------------------------------------------------------------------------

/** 三方协议 deduction of one filed return's tax (and a late fee when paid after the deadline). */
export function payReturn(ctx: SubmitContext & { payment: PaymentBehaviour }, b: Record<string, unknown>): Outcome {
  const { t, book, ledger, today } = ctx;
  const type = b.type;
  const skssqq = typeof b.skssqq === 'string' ? b.skssqq : '';
  if (!isFilingTaxType(type) || !/^\d{4}-\d{2}-\d{2}$/.test(skssqq)) {
    return fail(FILING_CODE.badParams, '缴款参数有误：需要 type、skssqq[E40001]');
  }
  const ret = book.returns.find((r) => r.type === type && r.skssqq === skssqq);
  if (!ret || !isFiled(ret)) return fail(FILING_CODE.nothingToPay, '该所属期未申报，没有可缴纳的税款[E42004]');
  const entry = entryOf(ledger, t.qysh, type, skssqq, ret.skssqz);
  entry.payCalls += 1;
  if (ret.jkrq) {
    return fail(FILING_CODE.alreadyPaid, '该税款已缴纳，请勿重复缴款[E42003]', paymentOf(book, ret, entry));
  }
  if (ret.ybtse === 0) return fail(FILING_CODE.nothingToPay, '本期应补(退)税额为 0，无需缴款[E42004]');
  if (ctx.payment === 'noAgreement') {
    return fail(FILING_CODE.noAgreement, '未签订三方协议，无法扣款，请先签订三方协议或到银行柜台缴款[E42001]');
  }
  if (ctx.payment === 'lowBalance') return fail(FILING_CODE.lowBalance, '账户余额不足，扣款失败[E42002]');
  const znj = Math.floor((ret.ybtse * 5 * daysOverdue(ret.sbqx, today)) / 10_000);
  Object.assign(entry, { paid: 1, jkrq: today, znj });
  return { code: '10000', msg: '扣款成功', data: paymentOf(book, { ...ret, jkrq: today }, entry) };
}

/**
 * sbztcx: whether a return (type × 所属期起) is filed, with its receipt — the status query a client asks
 * before submitting again a return whose submission may have reached the bureau. Not a submission.
 */
export function returnStatus(ctx: Pick<SubmitContext, 't' | 'book' | 'ledger'>, b: Record<string, unknown>): Outcome {
  const { t, book, ledger } = ctx;
  const type = b.type;
  const skssqq = typeof b.skssqq === 'string' ? b.skssqq : '';
  if (!isFilingTaxType(type) || !/^\d{4}-\d{2}-\d{2}$/.test(skssqq)) {
    return fail(FILING_CODE.badParams, '查询参数有误：需要 type、skssqq[E40001]');
  }
  const ret = book.returns.find((r) => r.type === type && r.skssqq === skssqq);
  if (!ret || !isFiled(ret)) return { code: '10000', msg: '成功', data: { filed: false, receipt: null } };
  const entry = ledger.get(t.qysh)?.get(entryKey(type, skssqq));
  return { code: '10000', msg: '成功', data: { filed: true, receipt: receiptOf(t.qysh, book, ret, entry) } };
}

/** jkztcx: whether a filed return's tax is paid, with the payment — asked before paying again. */
export function paymentStatus(ctx: Pick<SubmitContext, 't' | 'book' | 'ledger'>, b: Record<string, unknown>): Outcome {
  const { t, book, ledger } = ctx;
  const type = b.type;
  const skssqq = typeof b.skssqq === 'string' ? b.skssqq : '';
  if (!isFilingTaxType(type) || !/^\d{4}-\d{2}-\d{2}$/.test(skssqq)) {
    return fail(FILING_CODE.badParams, '查询参数有误：需要 type、skssqq[E40001]');
  }
  const ret = book.returns.find((r) => r.type === type && r.skssqq === skssqq);
  if (!ret?.jkrq) return { code: '10000', msg: '成功', data: { paid: false, payment: null } };
  // Paid by the taxpayer itself (the book) has no ledger entry: no late fee recorded here.
  const entry = ledger.get(t.qysh)?.get(entryKey(type, skssqq));
  const znj = { znj: entry?.znj ?? 0 } as LedgerEntry;
  return { code: '10000', msg: '成功', data: { paid: true, payment: paymentOf(book, ret, znj) } };
}

function paymentOf(book: Book, r: SimReturn, e: LedgerEntry) {
  return {
    type: r.type,
    skssqq: r.skssqq,
    skssqz: r.skssqz,
    jkrq: r.jkrq ?? '',
    sjje: yuan(r.ybtse),
    znj: yuan(e.znj ?? 0),
    dzsphm: dzsphmOf(book, r),
  };
}

// --- 人员信息 view ---------------------------------------------------------------------------------------

/**
 * ryxx: the employees and the wages of one month (default: the month of the last IIT report filed, for
 * the next report to start from), each with the deductions the bureau holds.
 */
export function personnel(t: Taxpayer, book: Book, ledger: Ledger, ssq?: string) {
  const employees = employeesOf(t);
  const filed = book.returns.filter((r) => r.type === 'grsds' && isFiled(r));
  const last = filed.at(-1);
  const month = ssq ?? last?.skssqq.slice(0, 7) ?? '';
  const ret = book.returns.find((r) => r.type === 'grsds' && r.skssqq.slice(0, 7) === month);
  const rows = month ? monthWages(t, ledger, employees, month) : new Map();
  return {
    ssq: month,
    ysb: Boolean(ret && isFiled(ret)),
    sbrq: ret?.sbrq ?? '',
    list: employees
      .filter((p) => !month || employedIn(p, month))
      .map((p) => {
        const w = rows.get(p.zjhm);
        return {
          zjhm: p.zjhm,
          zjlx: '居民身份证',
          xm: p.xm,
          rzrq: p.rzrq,
          ryzt: '正常',
          sre: yuan(w?.sre ?? 0),
          sxyj: yuan(w?.sxyj ?? 0),
          zxfjkc: yuan(w?.zxfjkc ?? 0),
          qtkc: yuan(w?.qtkc ?? 0),
          zxfjkcmx: p.zxfjkcmx.map((x) => ({ xm: x.xm, je: yuan(x.je) })),
        };
      }),
  };
}
