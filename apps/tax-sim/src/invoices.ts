import {
  addMonths,
  allowedRates,
  type BureauInvoice,
  type BureauInvoiceLine,
  type DeductionStatus,
  INVOICE_CODE,
  INVOICE_MSG,
  INVOICE_RATES,
  INVOICE_TAX_TOLERANCE,
  INVOICE_TOTAL_TAX_TOLERANCE,
  type InvoiceCode,
  type InvoiceDirection,
  type InvoiceKind,
  type InvoiceRate,
  type InvoiceRefusal,
  invoiceCodeOf,
  isValidUscc,
  printedName,
  RED_REASONS,
  type RedReason,
  usccCheckChar,
} from '@dzy/shared';
import { type Book, isFiled, mix, monthIndex, scaleOf, vatSalesOfMonth } from './filing.js';
import { lineTax } from './law.js';
import { fenOf } from './returns.js';
import { areaOf, hash, personName, provinceOf, type Rand, seeded, type Taxpayer, yuan } from './taxpayers.js';

/**
 * The taxpayers' 数电票 (docs/tax-bureau-protocol.md "Invoices (数电票)"): each month's issued (销项) and
 * received (进项) invoices, deterministic per tax number and month, whose issued amounts add up to the VAT
 * book's sales of the month (one truth with fpxx and the VAT return); and the desk that issues blue and red
 * invoices, keeps 红字确认单, 勾选 and 用途确认 — in memory, per simulator, like the filing ledger.
 */

const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** A line's 税额 by the bureau's own rounding (./law.ts), not the product's. */
export const taxOf = (je: number, rate: InvoiceRate) => lineTax(je, SIM_RATE_PERMILLE[rate]);
const SIM_RATE_PERMILLE: Readonly<Record<InvoiceRate, number>> = {
  '0.13': 130,
  '0.09': 90,
  '0.06': 60,
  '0.05': 50,
  '0.03': 30,
  '0.01': 10,
  '0': 0,
  mz: 0,
};

// --- the model --------------------------------------------------------------------------------------

interface SimLine {
  spmc: string;
  ssflbm: string;
  ggxh: string;
  dw: string;
  sl: string;
  dj: string;
  je: number;
  slv: InvoiceRate;
  se: number;
}

/** An invoice in fen, before the desk's changes (red-lettering, 勾选) are laid over it. */
export interface SimInvoice {
  direction: InvoiceDirection;
  fphm: string;
  kprq: string;
  fplx: InvoiceKind;
  /** '0' a blue invoice, '3' a red one. */
  red: boolean;
  lzfphm: string;
  xfmc: string;
  xfsh: string;
  gfmc: string;
  gfsh: string;
  bz: string;
  kpr: string;
  lines: SimLine[];
  je: number;
  se: number;
}

interface Party {
  mc: string;
  sh: string;
  /** Items it sells (codes of the table and item names). */
  items: readonly (readonly [string, string, string?])[];
  /** A small-scale seller (1 % / 3 %). */
  small: boolean;
}

/** Items by trade (the industry word of the simulated names), [code, item, 规格型号]. */
const TRADES: Readonly<Record<string, readonly (readonly [string, string, string?])[]>> = {
  商贸: [
    ['1060402010100000000', '中性笔', '0.5mm'],
    ['1060401010000000000', '文件袋', 'A4'],
    ['1050201010000000000', '办公桌', '1400*700'],
    ['1090511010000000000', '液晶显示器', '27英寸'],
    ['1030201010000000000', '糕点礼盒', '1.2kg'],
  ],
  科技: [
    ['3040201010000000000', '软件开发服务'],
    ['3040201030000000000', '软件维护服务'],
    ['3040203000000000000', '信息系统集成服务'],
    ['1060301010000000000', '管理软件', 'V3.0'],
  ],
  建材: [
    ['1080101020000000000', '普通硅酸盐水泥', 'P.O42.5'],
    ['1080105010100000000', '烧结砖', '240*115*53'],
    ['1080401010000000000', '钢结构件', 'Q235'],
    ['3050400000000000000', '装饰工程'],
  ],
  餐饮管理: [
    ['3070401000000000000', '餐饮服务'],
    ['3070401000000000000', '团餐服务'],
    ['3070402000000000000', '住宿服务'],
  ],
  电子: [
    ['1090511010000000000', '液晶显示器', '24英寸'],
    ['1090511010000000000', '触控显示终端', '15.6英寸'],
    ['3040201030000000000', '设备维护服务'],
  ],
  文化传媒: [
    ['3040303000000000000', '广告发布费'],
    ['3040304000000000000', '会议服务费'],
    ['3070101000000000000', '文化活动策划'],
  ],
  物流: [
    ['3010102020100000000', '运输费'],
    ['3040802010100000000', '货运代理费'],
    ['3020101020000000000', '快递费'],
  ],
  咨询服务: [
    ['3040603000000000000', '咨询服务费'],
    ['3040603000000000000', '财税咨询费'],
    ['3040803000000000000', '人力资源外包服务'],
  ],
  机械设备: [
    ['1070101070000000000', '液压油', '46#'],
    ['3050200000000000000', '设备安装费'],
    ['3040502010000000000', '设备租赁费'],
  ],
  食品: [
    ['1030102010100000000', '大米', '25kg'],
    ['1030101010000000000', '小麦粉', '25kg'],
    ['1030105010100000000', '大豆油', '5L'],
    ['1010112040000000000', '大白菜'],
    ['1030201010000000000', '糕点', '500g'],
  ],
};
/** What every company buys besides its trade's goods. */
const OVERHEAD: readonly (readonly [string, string, string?])[] = [
  ['1070101010200000000', '92#车用汽油', '92#'],
  ['1100101020100000000', '电费'],
  ['3030101000000000000', '通信费'],
  ['3040502020000000000', '房屋租金'],
  ['3040801010000000000', '物业管理费'],
  ['3070401000000000000', '餐费'],
];
const TRADE_NAMES = Object.keys(TRADES);
const WORDS = [...'华鑫恒瑞德鼎泰丰盛源达宏远嘉诚信和润启明安邦万通'];
const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CITIES = ['330106', '330105', '330108', '310115', '320106', '440305', '110105', '130102', '370102', '510107'];

function creditCode(r: Rand, area?: string): string {
  let body = '';
  for (let i = 0; i < 9; i++) body += USCC_CHARS[int(r, 0, USCC_CHARS.length - 1)];
  const first17 = `91${area ?? pick(r, CITIES)}${body}`;
  return first17 + usccCheckChar(first17);
}

function company(r: Rand, trade: string, area?: string): { mc: string; sh: string } {
  const sh = creditCode(r, area);
  return { mc: `${provinceOf(sh).slice(0, 2)}${pick(r, WORDS)}${pick(r, WORDS)}${trade}有限公司`, sh };
}

/** The trade of a taxpayer: from its name when it says one, else drawn from its number. */
function tradeOf(t: Taxpayer): string {
  return TRADE_NAMES.find((k) => t.info.qymc.includes(k)) ?? pick(seeded(hash(`trade:${t.qysh}`)), TRADE_NAMES);
}

/** The taxpayer's customers (6-30) and suppliers (8-20): the same every month. */
const partiesCache = new Map<string, { buyers: Party[]; sellers: Party[] }>();
function partiesOf(t: Taxpayer) {
  const hit = partiesCache.get(t.qysh);
  if (hit) return hit;
  const r = seeded(hash(`parties:${t.qysh}`));
  const buyers: Party[] = [];
  for (let i = int(r, 6, 30); i > 0; i--) buyers.push({ ...company(r, pick(r, TRADE_NAMES)), items: [], small: false });
  const sellers: Party[] = [];
  for (let i = int(r, 8, 20); i > 0; i--) {
    const trade = pick(r, TRADE_NAMES);
    const items = r() < 0.3 ? OVERHEAD : (TRADES[trade] ?? OVERHEAD);
    sellers.push({ ...company(r, trade), items, small: r() < 0.25 });
  }
  const out = { buyers, sellers };
  if (partiesCache.size >= 5_000) partiesCache.clear();
  partiesCache.set(t.qysh, out);
  return out;
}

/** Splits a total (fen) into n positive parts (n ≥ 1, total ≥ n), with random weights; exact. */
function split(r: Rand, total: number, n: number): number[] {
  const w = Array.from({ length: n }, () => int(r, 10, 100));
  const sum = w.reduce((a, b) => a + b, 0);
  const rest = total - n;
  const parts = w.map((x) => 1 + Math.floor((rest * x) / sum));
  parts[n - 1] = (parts[n - 1] ?? 0) + total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

function lastDay(month: string) {
  return new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
}

/** The lines of one invoice: its amount split over 1-3 items, each with its rate's tax. */
function linesFor(
  r: Rand,
  je: number,
  items: readonly (readonly [string, string, string?])[],
  rateOf: (c: InvoiceCode) => InvoiceRate,
): SimLine[] {
  const n = Math.min(je, int(r, 1, 3));
  return split(r, je, n).map((amount) => {
    const [code, item, ggxh] = pick(r, items);
    const c = invoiceCodeOf(code) as InvoiceCode;
    const slv = rateOf(c);
    let sl = '';
    let dj = '';
    if (c.goods) {
      // A plausible unit price (5-800 yuan), so the quantity follows from the amount.
      const qty = Math.max(1, Math.round(amount / (int(r, 5, 800) * 100)));
      sl = String(qty);
      dj = trimDecimals((amount / qty / 100).toFixed(6));
    } else if (r() < 0.5) {
      sl = '1';
      dj = yuan(amount);
    }
    return {
      spmc: printedName(c, item),
      ssflbm: code,
      ggxh: ggxh ?? '',
      dw: c.goods ? (c.unit ?? '') : sl ? '项' : '',
      sl,
      dj,
      je: amount,
      slv,
      se: taxOf(amount, slv),
    };
  });
}
const trimDecimals = (v: string) => v.replace(/\.?0+$/, '');

/** 数电票 number: 2 year, 2 province, 1 channel, 15 sequence. */
export const invoiceNumber = (year: string, area: string, channel: string, seq15: string) =>
  `${year.slice(2, 4)}${area.slice(0, 2)}${channel}${seq15}`;

const generated = new Map<string, { xx: SimInvoice[]; jx: SimInvoice[] }>();

/**
 * A taxpayer's generated invoices of a month (every day of it; the views cut at the bureau's date). perMonth
 * fixes how many are issued and received (0: by the taxpayer's scale).
 */
export function monthInvoices(t: Taxpayer, month: string, perMonth = 0): { xx: SimInvoice[]; jx: SimInvoice[] } {
  const key = `${t.qysh}|${t.info.qyxz}|${t.info.djrq}|${t.info.qymc}|${t.behaviour.flavour}|${month}|${perMonth}`;
  const hit = generated.get(key);
  if (hit) return hit;
  const out = generate(t, month, perMonth);
  if (generated.size >= 20_000) generated.clear();
  generated.set(key, out);
  return out;
}

function generate(t: Taxpayer, month: string, perMonth: number): { xx: SimInvoice[]; jx: SimInvoice[] } {
  const vat = vatSalesOfMonth(t, month);
  if (!vat) return { xx: [], jx: [] };
  const general = t.info.qyxz === '0';
  const seed = hash(t.qysh);
  const mi = monthIndex(month);
  const days = lastDay(month);
  const firstDay = t.info.djrq.slice(0, 7) === month ? Number(t.info.djrq.slice(8, 10)) : 1;
  const dayOf = (r: Rand) => `${month}-${pad(int(r, firstDay, days), 2)}`;
  const area = areaOf(t.qysh);
  const { buyers, sellers } = partiesOf(t);
  const items = TRADES[tradeOf(t)] ?? OVERHEAD;
  // How many a month: by the taxpayer's scale (monthly sales), 10-60 for general, 3-15 for small-scale.
  const scale = scaleOf(t).sales;
  const usual = general
    ? Math.min(60, 10 + Math.round((50 * Math.max(0, scale - 20_000_000)) / 280_000_000))
    : Math.min(15, 3 + Math.round((12 * Math.max(0, scale - 1_000_000)) / 10_000_000));

  // 销项: the month's sales over the invoices.
  const xx: SimInvoice[] = [];
  const g = seeded(mix(seed, 11, mi));
  const sales = vat.sales;
  let n = perMonth > 0 ? perMonth : Math.max(1, usual + int(g, -2, 2));
  n = Math.min(n, Math.floor(sales / 100));
  const zpShare = general ? int(g, 70, 95) : vat.due ? int(g, 0, 40) : 0;
  const prefix = pad(mix(seed, 12, mi) % 100_000_000, 8);
  const kpr = personName(seeded(hash(`kpr:${t.qysh}`)));
  if (n > 0) {
    split(g, sales, n).forEach((je, i) => {
      const fplx: InvoiceKind = int(g, 1, 100) <= zpShare ? 'zp' : 'pp';
      const exempt = !general && fplx === 'pp' && !vat.due && g() < 0.3;
      const person = fplx === 'pp' && !general && g() < 0.2;
      const buyer = pick(g, buyers);
      const lines = linesFor(g, je, items, (c) =>
        general ? c.rate : exempt ? 'mz' : allowedRates(c.code, '1')[0] === '0.05' ? '0.05' : '0.01',
      );
      xx.push({
        direction: 'xx',
        fphm: invoiceNumber(month, area, '2', `${prefix}${pad(i + 1, 7)}`),
        kprq: dayOf(g),
        fplx,
        red: false,
        lzfphm: '',
        xfmc: t.info.qymc,
        xfsh: t.qysh,
        gfmc: person ? personName(g) : buyer.mc,
        gfsh: person ? '' : buyer.sh,
        bz: '',
        kpr,
        lines,
        je,
        se: lines.reduce((s, l) => s + l.se, 0),
      });
    });
  }

  // 进项: purchases of 55-85 % (general) or 30-60 % (small-scale) of the month's sales.
  const jx: SimInvoice[] = [];
  const h = seeded(mix(seed, 13, mi));
  const bought = Math.floor((sales * (general ? int(h, 55, 85) : int(h, 30, 60))) / 100);
  let m = perMonth > 0 ? perMonth : Math.max(1, general ? usual + int(h, -3, 3) : int(h, 2, 8));
  m = Math.min(m, Math.floor(bought / 100));
  const jxPrefix = pad(mix(seed, 14, mi) % 100_000_000, 8);
  if (m > 0) {
    split(h, bought, m).forEach((je, i) => {
      const seller = pick(h, sellers);
      const fplx: InvoiceKind = int(h, 1, 100) <= (general ? 70 : 30) ? 'zp' : 'pp';
      const lines = linesFor(h, je, seller.items, (c) =>
        seller.small ? (allowedRates(c.code, '1')[0] === '0.05' ? '0.05' : h() < 0.7 ? '0.01' : '0.03') : c.rate,
      );
      jx.push({
        direction: 'jx',
        fphm: invoiceNumber(month, areaOf(seller.sh), '2', `${jxPrefix}${pad(i + 1, 7)}`),
        kprq: dayOf(h),
        fplx,
        red: false,
        lzfphm: '',
        xfmc: seller.mc,
        xfsh: seller.sh,
        gfmc: t.info.qymc,
        gfsh: t.qysh,
        bz: '',
        kpr: personName(h),
        lines,
        je,
        se: lines.reduce((s, l) => s + l.se, 0),
      });
    });
  }
  const order = (a: SimInvoice, b: SimInvoice) => a.kprq.localeCompare(b.kprq) || a.fphm.localeCompare(b.fphm);
  return { xx: xx.sort(order), jx: jx.sort(order) };
}

// --- the desk: what the invoice calls change -----------------------------------------------------------

export interface RedConfirmationRecord {
  qrdbh: string;
  lzfphm: string;
  reason: RedReason;
  zt: '已确认' | '待购方确认';
  hzfphm: string;
  je: number;
  se: number;
  lrrq: string;
}

interface Confirmation {
  ssq: string;
  fs: number;
  je: number;
  se: number;
  qrrq: string;
}

/** One taxpayer's invoice state at this bureau. */
interface Own {
  /** Blue and red invoices issued through fp/kp and fp/hckp. */
  issued: Map<string, SimInvoice>;
  kpRequests: Map<string, string>;
  hckpRequests: Map<string, string>;
  qrdRequests: Map<string, string>;
  qrds: Map<string, RedConfirmationRecord>;
  /** blue → its red invoice */
  redOf: Map<string, string>;
  /** 勾选 state of received invoices changed here. */
  gx: Map<string, { gxzt: DeductionStatus; gxssq: string }>;
  confirmed: Map<string, Confirmation>;
  counter: number;
}

export type Outcome = { code: string; msg: string; data: unknown };
const ok = (data: unknown, msg = '成功'): Outcome => ({ code: '10000', msg, data });
const repeated = (data: unknown, msg: string): Outcome => ({ code: INVOICE_CODE.repeated, msg, data });
const refuse = (reason: InvoiceRefusal, detail = ''): Outcome => ({
  code: INVOICE_CODE[reason],
  msg: `${INVOICE_MSG[reason]}${detail ? `：${detail}` : ''}[E${INVOICE_CODE[reason]}]`,
  data: null,
});

const isMonth = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(v);
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export interface DeskContext {
  t: Taxpayer;
  today: string;
  /** The taxpayer's book as of today, with what was filed through the bureau (for the 勾选 window). */
  book: () => Book;
  /** The book without the ledger (the generated history: which periods were confirmed before filing). */
  history: () => Book;
}

export interface InvoiceDesk {
  perMonth: number;
  cxfp(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  sxed(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  kp(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  /** fp/kpcx: the invoice (blue by fp/kp, or red by fp/hckp) issued for the issuer's requestId, or `found: false`. */
  kpcx(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  /** fp/hzqrdcx: the 红字确认单 filled for the issuer's requestId, as it stands now, or `found: false`. */
  hzqrdcx(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  hzqrd(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  hckp(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  gx(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  qrtj(ctx: DeskContext, b: Record<string, unknown>): Outcome;
  /** fpxx: the period's sums of the detail, fen. */
  totals(ctx: DeskContext, skssqq: string, skssqz: string): PeriodTotals;
  /** Every invoice of a month as the views show it (for the admin listing and tests). */
  list(ctx: DeskContext, direction: InvoiceDirection, month: string): BureauInvoice[];
}

export interface PeriodTotals {
  zpje: number;
  ppje: number;
  byRate: Record<InvoiceRate, number>;
  xxse: number;
  jxfs: number;
  jxje: number;
  jxse: number;
  jxqr: boolean;
  /**
   * 货物 lines only (税收分类编码 1…): sales issued and purchases received — the 买卖合同 an invoice evidences
   * for 印花税 (印花税法 税目税率表; services are not 买卖合同).
   */
  hwxse: number;
  hwjxje: number;
}

/** A line of goods (税收分类编码 first digit 1: 货物). */
const isGoods = (l: { ssflbm: string }) => l.ssflbm.startsWith('1');

const monthsOf = (skssqq: string, skssqz: string) => {
  const out: string[] = [];
  for (let m = skssqq.slice(0, 7); m <= skssqz.slice(0, 7) && out.length < 24; m = addMonths(m, 1)) out.push(m);
  return out;
};

/** The invoice desk of one simulator: state in memory, per taxpayer. */
export function createInvoiceDesk(opts: { perMonth?: number; startedAt?: number } = {}): InvoiceDesk {
  const owners = new Map<string, Own>();
  /** A prefix for the numbers issued here, from the simulator's start: a restarted simulator never reissues one. */
  const runPrefix = pad(Math.floor((opts.startedAt ?? Date.now()) / 1000) % 100_000_000, 8);
  const own = (qysh: string): Own => {
    let o = owners.get(qysh);
    if (!o) {
      o = {
        issued: new Map(),
        kpRequests: new Map(),
        hckpRequests: new Map(),
        qrdRequests: new Map(),
        qrds: new Map(),
        redOf: new Map(),
        gx: new Map(),
        confirmed: new Map(),
        counter: 0,
      };
      owners.set(qysh, o);
    }
    return o;
  };

  const desk: InvoiceDesk = {
    perMonth: opts.perMonth ?? 0,
    cxfp,
    sxed,
    kp,
    kpcx,
    hzqrdcx,
    hzqrd,
    hckp,
    gx,
    qrtj,
    totals,
    list,
  };

  /** A month's invoices of one direction up to today, fen, with red-lettering applied. */
  function simList(ctx: DeskContext, direction: InvoiceDirection, month: string): SimInvoice[] {
    const o = own(ctx.t.qysh);
    const gen = monthInvoices(ctx.t, month, desk.perMonth)[direction].filter((i) => i.kprq <= ctx.today);
    if (direction === 'jx') return gen;
    const mine = [...o.issued.values()].filter((i) => i.kprq.slice(0, 7) === month);
    return [...gen, ...mine].sort((a, b) => a.kprq.localeCompare(b.kprq) || a.fphm.localeCompare(b.fphm));
  }

  /** Whether the generated history confirmed a period (its VAT return was filed on the book). */
  function historyConfirmed(ctx: DeskContext, ssq: string): boolean {
    if (ctx.t.info.qyxz !== '0') return false;
    const r = ctx.history().returns.find((x) => x.type === 'zzs' && x.skssqq.slice(0, 7) === ssq);
    return Boolean(r && isFiled(r));
  }

  function deduction(ctx: DeskContext, inv: SimInvoice): { gxzt: DeductionStatus; gxssq: string } {
    const changed = own(ctx.t.qysh).gx.get(inv.fphm);
    if (changed) return changed;
    const month = inv.kprq.slice(0, 7);
    if (inv.fplx === 'zp' && historyConfirmed(ctx, month)) return { gxzt: '2', gxssq: month };
    return { gxzt: '0', gxssq: '' };
  }

  function wire(ctx: DeskContext, inv: SimInvoice): BureauInvoice {
    const o = own(ctx.t.qysh);
    const out: BureauInvoice = {
      fphm: inv.fphm,
      kprq: inv.kprq,
      fplx: inv.fplx,
      zt: inv.red ? '3' : o.redOf.has(inv.fphm) ? '1' : '0',
      lzfphm: inv.lzfphm,
      xfmc: inv.xfmc,
      xfsh: inv.xfsh,
      gfmc: inv.gfmc,
      gfsh: inv.gfsh,
      hjje: yuan(inv.je),
      hjse: yuan(inv.se),
      jshj: yuan(inv.je + inv.se),
      bz: inv.bz,
      kpr: inv.kpr,
      lines: inv.lines.map(
        (l, i): BureauInvoiceLine => ({
          xh: i + 1,
          spmc: l.spmc,
          ssflbm: l.ssflbm,
          ggxh: l.ggxh,
          dw: l.dw,
          sl: l.sl,
          dj: l.dj,
          je: yuan(l.je),
          slv: l.slv,
          se: yuan(l.se),
        }),
      ),
    };
    if (inv.direction === 'jx') Object.assign(out, deduction(ctx, inv));
    return out;
  }

  function list(ctx: DeskContext, direction: InvoiceDirection, month: string) {
    return simList(ctx, direction, month).map((i) => wire(ctx, i));
  }

  function cxfp(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const direction = b.direction;
    if ((direction !== 'xx' && direction !== 'jx') || !isMonth(b.month)) {
      return refuse('badParams', '需要 direction（xx 或 jx）和 month（YYYY-MM）');
    }
    const size = Math.min(Math.max(Math.trunc(Number(b.pageSize)) || 100, 1), 500);
    const no = Math.max(Math.trunc(Number(b.pageNo)) || 1, 1);
    const all = simList(ctx, direction, b.month);
    return ok({
      total: all.length,
      pageNo: no,
      pageSize: size,
      list: all.slice((no - 1) * size, no * size).map((i) => wire(ctx, i)),
    });
  }

  /** 授信额度 of a month, fen. */
  function quota(ctx: DeskContext, month: string) {
    const vat = vatSalesOfMonth(ctx.t, month);
    const sales = vat?.sales ?? 0;
    const general = ctx.t.info.qyxz === '0';
    // Twice the month's sales with tax, rounded up to 10 000 yuan; at least 100 万 (general) or 10 万.
    const floor = general ? 100_000_000 : 10_000_000;
    const total = Math.max(floor, Math.ceil((sales * 2 * 1.13) / 1_000_000) * 1_000_000);
    const used = simList(ctx, 'xx', month).reduce((s, i) => s + i.je + i.se, 0);
    return { total, used, remaining: total - used };
  }

  function sxed(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    if (!isMonth(b.month)) return refuse('badParams', '需要 month（YYYY-MM）');
    const q = quota(ctx, b.month);
    return ok({ month: b.month, total: yuan(q.total), used: yuan(q.used), remaining: yuan(q.remaining) });
  }

  function nextNumber(ctx: DeskContext, channel: string) {
    const o = own(ctx.t.qysh);
    o.counter += 1;
    const seq = `${runPrefix}${pad((hash(ctx.t.qysh) % 100) * 100_000 + o.counter, 7)}`;
    return invoiceNumber(ctx.today, areaOf(ctx.t.qysh), channel, seq);
  }

  function requestIdOf(b: Record<string, unknown>) {
    const id = str(b.requestId);
    return id.length >= 1 && id.length <= 64 ? id : '';
  }

  function kpcx(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const requestId = requestIdOf(b);
    if (!requestId) return refuse('badParams', '需要 requestId（1-64 位）');
    const o = own(ctx.t.qysh);
    const seen = o.kpRequests.get(requestId) ?? o.hckpRequests.get(requestId);
    const inv = seen ? o.issued.get(seen) : undefined;
    return ok(inv ? { found: true, invoice: wire(ctx, inv) } : { found: false, invoice: null });
  }

  function hzqrdcx(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const requestId = requestIdOf(b);
    if (!requestId) return refuse('badParams', '需要 requestId（1-64 位）');
    const o = own(ctx.t.qysh);
    const seen = o.qrdRequests.get(requestId);
    const q = seen ? o.qrds.get(seen) : undefined;
    return ok(q ? { found: true, qrd: qrdWire(q) } : { found: false, qrd: null });
  }

  function kp(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const { t } = ctx;
    const o = own(t.qysh);
    const requestId = requestIdOf(b);
    if (!requestId) return refuse('badParams', '需要 requestId（1-64 位）');
    const seen = o.kpRequests.get(requestId);
    if (seen) {
      const inv = o.issued.get(seen) as SimInvoice;
      return repeated(wire(ctx, inv), `该请求已开具发票 ${seen}，不重复开具`);
    }
    const fplx = b.fplx;
    if (fplx !== 'zp' && fplx !== 'pp') return refuse('badParams', 'fplx 应为 zp 或 pp');
    const gfmc = str(b.gfmc);
    if (!gfmc) return refuse('badParams', '需要购买方名称 gfmc');
    const rawLines = Array.isArray(b.lines) ? (b.lines as Record<string, unknown>[]) : [];
    if (rawLines.length === 0 || rawLines.length > 8) return refuse('badParams', '明细行应为 1 至 8 行');
    const gfsh = str(b.gfsh).toUpperCase();
    if (fplx === 'zp' && !gfsh) return refuse('buyerTaxNo', '开具专用发票须填写购买方纳税人识别号');
    if (gfsh) {
      if (gfsh.length === 18) {
        if (!isValidUscc(gfsh)) return refuse('buyerTaxNo', `${gfsh} 的校验位不正确`);
      } else if (![15, 17, 20].includes(gfsh.length) || !/^[0-9A-Z]+$/.test(gfsh)) {
        return refuse('buyerTaxNo', `${gfsh} 不是 15、17、18 或 20 位的纳税人识别号`);
      }
    }
    const kind = t.info.qyxz;
    const lines: SimLine[] = [];
    let expected = 0;
    for (const [i, l] of rawLines.entries()) {
      const row = `第 ${i + 1} 行`;
      if (!l || typeof l !== 'object') return refuse('badParams', `${row}不是明细`);
      const code = str(l.ssflbm);
      const c = invoiceCodeOf(code);
      if (!c) return refuse('unknownCode', `${row} ${code || '(空)'}`);
      const je = fenOf(l.je);
      const se = fenOf(l.se);
      if (je === null || se === null) return refuse('amount', `${row}的金额或税额不是两位小数的金额`);
      if (je <= 0) return refuse('amount', `${row}的金额应大于 0`);
      if (se < 0) return refuse('amount', `${row}的税额不能为负数`);
      const sl = str(l.sl);
      const dj = str(l.dj);
      if (Boolean(sl) !== Boolean(dj)) return refuse('badParams', `${row}的数量和单价应同时填写或同时不填`);
      if (sl) {
        const q = Number(sl);
        const p = Number(dj);
        if (!(q > 0) || !(p > 0)) return refuse('amount', `${row}的数量和单价应大于 0`);
        if (Math.abs(q * p * 100 - je) > 1) return refuse('amount', `${row}的数量乘以单价与金额相差超过 0.01 元`);
      }
      const slv = l.slv as InvoiceRate;
      if (!INVOICE_RATES.includes(slv)) return refuse('badParams', `${row}的税率 ${String(l.slv)} 不是可用的税率`);
      if (kind === '1' && !['0.03', '0.01', '0.05', 'mz'].includes(slv)) {
        return refuse(
          'rateForKind',
          `小规模纳税人只能按 3%、1%（或不动产租赁 5%）征收率或免税开具，${row}为 ${rateText(slv)}`,
        );
      }
      if (kind === '0' && (slv === '0.03' || slv === '0.01' || slv === '0.05')) {
        return refuse('rateForKind', `一般纳税人不能按征收率 ${rateText(slv)} 开具（简易计税未备案），${row}`);
      }
      if (fplx === 'zp' && slv === 'mz') return refuse('rateForKind', `免税项目不能开具增值税专用发票，${row}`);
      if (!allowedRates(code, kind).includes(slv)) {
        return refuse(
          'rateNotAllowed',
          `${row}“${c.short}”（${code}）可用税率为 ${allowedRates(code, kind).map(rateText).join('、')}，不能使用 ${rateText(slv)}`,
        );
      }
      const due = taxOf(je, slv);
      if (Math.abs(se - due) > INVOICE_TAX_TOLERANCE) {
        return refuse('taxMismatch', `${row}税额 ${yuan(se)} 元，应为 ${yuan(due)} 元（误差不超过 0.01 元）`);
      }
      expected += due;
      const spmc = str(l.spmc);
      lines.push({
        spmc: spmc.startsWith('*') ? spmc : printedName(c, spmc),
        ssflbm: code,
        ggxh: str(l.ggxh),
        dw: str(l.dw),
        sl,
        dj,
        je,
        slv,
        se,
      });
    }
    const je = lines.reduce((s, l) => s + l.je, 0);
    const se = lines.reduce((s, l) => s + l.se, 0);
    if (Math.abs(se - expected) > INVOICE_TOTAL_TAX_TOLERANCE) {
      return refuse('taxMismatch', `合计税额 ${yuan(se)} 元与按行计算的 ${yuan(expected)} 元相差超过 1.27 元`);
    }
    const q = quota(ctx, ctx.today.slice(0, 7));
    if (je + se > q.remaining) {
      return refuse('quota', `本月剩余授信额度 ${yuan(q.remaining)} 元，本张发票价税合计 ${yuan(je + se)} 元`);
    }
    const inv: SimInvoice = {
      direction: 'xx',
      fphm: nextNumber(ctx, '3'),
      kprq: ctx.today,
      fplx,
      red: false,
      lzfphm: '',
      xfmc: t.info.qymc,
      xfsh: t.qysh,
      gfmc,
      gfsh,
      bz: str(b.bz).slice(0, 200),
      kpr: str(b.kpr).slice(0, 20) || personName(seeded(hash(`kpr:${t.qysh}`))),
      lines,
      je,
      se,
    };
    o.issued.set(inv.fphm, inv);
    o.kpRequests.set(requestId, inv.fphm);
    return ok(wire(ctx, inv), '开具成功');
  }

  /** A blue invoice the taxpayer issued (generated or through kp), by number. */
  function findIssued(ctx: DeskContext, fphm: string): SimInvoice | null {
    if (!/^\d{20}$/.test(fphm)) return null;
    const mine = own(ctx.t.qysh).issued.get(fphm);
    if (mine) return mine;
    const month = `20${fphm.slice(0, 2)}`;
    // Generated numbers carry the year; look through that year's months up to today.
    for (let m = 1; m <= 12; m++) {
      const mm = `${month}-${pad(m, 2)}`;
      if (`${mm}-01` > ctx.today) break;
      const hit = monthInvoices(ctx.t, mm, desk.perMonth).xx.find((i) => i.fphm === fphm && i.kprq <= ctx.today);
      if (hit) return hit;
    }
    return null;
  }

  function qrdWire(q: RedConfirmationRecord) {
    return {
      qrdbh: q.qrdbh,
      lzfphm: q.lzfphm,
      reason: q.reason,
      zt: q.zt,
      hzfphm: q.hzfphm,
      hjje: yuan(q.je),
      hjse: yuan(q.se),
      jshj: yuan(q.je + q.se),
      lrrq: q.lrrq,
    };
  }

  function hzqrd(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const o = own(ctx.t.qysh);
    const requestId = requestIdOf(b);
    if (!requestId) return refuse('badParams', '需要 requestId（1-64 位）');
    const seen = o.qrdRequests.get(requestId);
    if (seen) return repeated(qrdWire(o.qrds.get(seen) as RedConfirmationRecord), `该请求已填开红字确认单 ${seen}`);
    const reason = b.reason as RedReason;
    if (!RED_REASONS.includes(reason)) return refuse('badParams', `红冲原因应为 ${RED_REASONS.join('、')} 之一`);
    const lzfphm = str(b.lzfphm);
    const blue = findIssued(ctx, lzfphm);
    if (!blue || blue.red) return refuse('notFound', `未找到本单位开具的蓝字发票 ${lzfphm || '(空)'}`);
    if (o.redOf.has(lzfphm)) return refuse('alreadyRed', `发票 ${lzfphm} 已开具红字发票 ${o.redOf.get(lzfphm)}`);
    const pending = [...o.qrds.values()].find((q) => q.lzfphm === lzfphm && !q.hzfphm);
    if (pending) return refuse('alreadyRed', `发票 ${lzfphm} 已有红字确认单 ${pending.qrdbh}，请开具红字发票`);
    o.counter += 1;
    const q: RedConfirmationRecord = {
      qrdbh: invoiceNumber(ctx.today, areaOf(ctx.t.qysh), '9', `${runPrefix}${pad(o.counter, 7)}`),
      lzfphm,
      reason,
      zt: '已确认',
      hzfphm: '',
      je: -blue.je,
      se: -blue.se,
      lrrq: ctx.today,
    };
    o.qrds.set(q.qrdbh, q);
    o.qrdRequests.set(requestId, q.qrdbh);
    return ok(qrdWire(q), '红字确认单已确认');
  }

  function hckp(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const o = own(ctx.t.qysh);
    const requestId = requestIdOf(b);
    if (!requestId) return refuse('badParams', '需要 requestId（1-64 位）');
    const seen = o.hckpRequests.get(requestId);
    if (seen) return repeated(wire(ctx, o.issued.get(seen) as SimInvoice), `该请求已开具红字发票 ${seen}`);
    const qrdbh = str(b.qrdbh);
    const q = o.qrds.get(qrdbh);
    if (q?.zt !== '已确认') return refuse('noConfirmation', `未找到已确认的红字确认单 ${qrdbh || '(空)'}`);
    if (q.hzfphm) return refuse('confirmationUsed', `确认单 ${qrdbh} 已开具红字发票 ${q.hzfphm}`);
    const blue = findIssued(ctx, q.lzfphm) as SimInvoice;
    const red: SimInvoice = {
      ...blue,
      fphm: nextNumber(ctx, '3'),
      kprq: ctx.today,
      red: true,
      lzfphm: blue.fphm,
      bz: `被红冲蓝字数电发票号码：${blue.fphm} 红字发票信息确认单编号：${q.qrdbh}`,
      lines: blue.lines.map((l) => ({ ...l, je: -l.je, se: -l.se, sl: l.sl ? `-${l.sl}` : '' })),
      je: -blue.je,
      se: -blue.se,
    };
    o.issued.set(red.fphm, red);
    o.hckpRequests.set(requestId, red.fphm);
    o.redOf.set(blue.fphm, red.fphm);
    q.hzfphm = red.fphm;
    return ok(wire(ctx, red), '红字发票开具成功');
  }

  /** Received invoices dated up to the end of ssq (and today), the last three years, by number. */
  function receivedUpTo(ctx: DeskContext, ssq: string): Map<string, SimInvoice> {
    const index = new Map<string, SimInvoice>();
    for (let m = addMonths(ssq, -35); m <= ssq; m = addMonths(m, 1)) {
      for (const i of simList(ctx, 'jx', m)) index.set(i.fphm, i);
    }
    return index;
  }

  /** Whether 勾选 and 用途确认 are open for ssq; a refusal when not. */
  function window(ctx: DeskContext, ssq: unknown): Outcome | null {
    if (!isMonth(ssq)) return refuse('badParams', '需要所属期 ssq（YYYY-MM）');
    if (ctx.t.info.qyxz !== '0') return refuse('periodClosed', '小规模纳税人不勾选抵扣进项税额');
    const current = ctx.today.slice(0, 7);
    const previous = addMonths(current, -1);
    if (ssq !== current && ssq !== previous) {
      return refuse('periodClosed', `当前可勾选的所属期为 ${previous} 和 ${current}`);
    }
    const r = ctx.book().returns.find((x) => x.type === 'zzs' && x.skssqq.slice(0, 7) === ssq);
    if (r && isFiled(r)) return refuse('periodClosed', `所属期 ${ssq} 已申报`);
    return null;
  }

  function confirmedOf(ctx: DeskContext, ssq: string): Confirmation | null {
    const mine = own(ctx.t.qysh).confirmed.get(ssq);
    if (mine) return mine;
    if (!historyConfirmed(ctx, ssq)) return null;
    const list = simList(ctx, 'jx', ssq).filter((i) => i.fplx === 'zp');
    return {
      ssq,
      fs: list.length,
      je: list.reduce((s, i) => s + i.je, 0),
      se: list.reduce((s, i) => s + i.se, 0),
      qrrq: '',
    };
  }

  function gx(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    const closed = window(ctx, b.ssq);
    if (closed) return closed;
    const ssq = b.ssq as string;
    if (confirmedOf(ctx, ssq)) return refuse('periodConfirmed', `所属期 ${ssq} 已于用途确认后锁定`);
    const fphms = Array.isArray(b.fphms) ? b.fphms.map(String) : [];
    if (fphms.length === 0 || fphms.length > 1000) return refuse('badParams', '需要 1 至 1000 个发票号码 fphms');
    if (typeof b.gx !== 'boolean') return refuse('badParams', 'gx 应为 true（勾选）或 false（取消勾选）');
    const tick = b.gx;
    const o = own(ctx.t.qysh);
    const index = receivedUpTo(ctx, ssq);
    const out = fphms.map((fphm) => {
      const inv = index.get(fphm);
      const no = (msg: string) => ({ fphm, ok: false, msg: `${INVOICE_MSG.notDeductible}：${msg}` });
      if (!inv) return no('未找到本单位取得的、开票日期在所属期内的发票');
      if (inv.fplx !== 'zp') return no('普通发票不能勾选抵扣');
      const state = deduction(ctx, inv);
      if (state.gxzt === '2') return no(`已于所属期 ${state.gxssq} 确认`);
      if (state.gxzt === '1' && state.gxssq !== ssq) return no(`已勾选于所属期 ${state.gxssq}`);
      o.gx.set(fphm, tick ? { gxzt: '1', gxssq: ssq } : { gxzt: '0', gxssq: '' });
      return { fphm, ok: true, msg: tick ? '勾选成功' : '取消勾选成功' };
    });
    return ok({ ssq, list: out });
  }

  function confirmationWire(c: Confirmation) {
    return { ssq: c.ssq, fs: c.fs, je: yuan(c.je), se: yuan(c.se), qrrq: c.qrrq };
  }

  function qrtj(ctx: DeskContext, b: Record<string, unknown>): Outcome {
    if (!isMonth(b.ssq)) return refuse('badParams', '需要所属期 ssq（YYYY-MM）');
    const ssq = b.ssq;
    const done = confirmedOf(ctx, ssq);
    if (done) return repeated(confirmationWire(done), `所属期 ${ssq} 已确认`);
    const closed = window(ctx, ssq);
    if (closed) return closed;
    const o = own(ctx.t.qysh);
    const index = receivedUpTo(ctx, ssq);
    let fs = 0;
    let je = 0;
    let se = 0;
    for (const [fphm, state] of o.gx) {
      if (state.gxzt !== '1' || state.gxssq !== ssq) continue;
      const inv = index.get(fphm);
      if (!inv) continue;
      o.gx.set(fphm, { gxzt: '2', gxssq: ssq });
      fs += 1;
      je += inv.je;
      se += inv.se;
    }
    const c: Confirmation = { ssq, fs, je, se, qrrq: ctx.today };
    o.confirmed.set(ssq, c);
    return ok(confirmationWire(c), '用途确认成功');
  }

  function totals(ctx: DeskContext, skssqq: string, skssqz: string): PeriodTotals {
    const byRate = Object.fromEntries(INVOICE_RATES.map((r) => [r, 0])) as Record<InvoiceRate, number>;
    let zpje = 0;
    let ppje = 0;
    let xxse = 0;
    let jxfs = 0;
    let jxje = 0;
    let jxse = 0;
    let jxqr = true;
    let hwxse = 0;
    let hwjxje = 0;
    for (const month of monthsOf(skssqq, skssqz)) {
      for (const inv of simList(ctx, 'xx', month)) {
        if (inv.fplx === 'zp') zpje += inv.je;
        else ppje += inv.je;
        xxse += inv.se;
        for (const l of inv.lines) {
          byRate[l.slv] += l.je;
          if (isGoods(l)) hwxse += l.je;
        }
      }
      for (const inv of simList(ctx, 'jx', month)) for (const l of inv.lines) if (isGoods(l)) hwjxje += l.je;
      const c = confirmedOf(ctx, month);
      if (!c) jxqr = false;
      else {
        jxfs += c.fs;
        jxje += c.je;
        jxse += c.se;
      }
    }
    return { zpje, ppje, byRate, xxse, jxfs, jxje, jxse, jxqr, hwxse, hwjxje };
  }

  return desk;
}

const rateText = (r: InvoiceRate) => (r === 'mz' ? '免税' : `${Math.round(Number(r) * 100)}%`);

/** fpxx's reply from the sums. */
export function totalsReply(skssqq: string, skssqz: string, x: PeriodTotals) {
  return {
    skssqq,
    skssqz,
    zpje: yuan(x.zpje),
    ppje: yuan(x.ppje),
    xse13: yuan(x.byRate['0.13']),
    xse9: yuan(x.byRate['0.09']),
    xse6: yuan(x.byRate['0.06']),
    xse5: yuan(x.byRate['0.05']),
    xse3: yuan(x.byRate['0.03']),
    xse1: yuan(x.byRate['0.01']),
    xse0: yuan(x.byRate['0']),
    msxse: yuan(x.byRate.mz),
    xxse: yuan(x.xxse),
    jxfs: x.jxfs,
    jxje: yuan(x.jxje),
    jxse: yuan(x.jxse),
    jxqr: x.jxqr,
    hwxse: yuan(x.hwxse),
    hwjxje: yuan(x.hwjxje),
  };
}
