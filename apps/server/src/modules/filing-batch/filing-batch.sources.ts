import {
  addMonths,
  BOOK_REPORT_MSG,
  type BureauClient,
  type BureauEmployee,
  changeFlagged,
  FILING_BATCH_MSG,
  type FilingRoster,
  type IitDiff,
  type IitEstimatePerson,
  type InvoiceTotals,
  type ItemSource,
  type ItemState,
  iitEstimate,
  planFigures,
  taxFenToYuan,
  taxYuanToFen,
} from '@dzy/shared';
import { type BooksAnswer, sbsjFromBooks } from '../book-reports/books-source.js';
import type { ItemRow } from './filing-batch.repo.js';

/**
 * The plan's sources of figures (docs/decisions-14-server.md "Sources"): what the generate job asks the
 * bureau for each item, and the figures it makes of the answers. One client at a time, in sequence, on
 * one session; invoice totals are asked once per period.
 */

export interface GeneratedItem {
  id: number;
  source: ItemSource;
  sbsj: Record<string, unknown> | null;
  srze: number;
  ybtse: number;
  estimate: boolean;
  diff: IitDiff | null;
  flagged: boolean;
  state: ItemState;
  msg: string;
  /** The previous period's return as the bureau filed it, when the plan had none from a synced roster. */
  prevSrze?: number | null;
  prevYbtse?: number | null;
}

const fen = (yuan: string) => taxYuanToFen(yuan) ?? 0;

/** Whether an item's figures need the bureau (types with an automatic source). */
export const needsBureau = (i: Pick<ItemRow, 'taxType'>) =>
  i.taxType === 'grsds' || i.taxType === 'zzs' || i.taxType === 'yhs';

/** The VAT periods whose invoices make a period's sales: general taxpayers invoice by month. */
export function salesPeriods(nsrlx: '0' | '1', skssqq: string, skssqz: string): [string, string][] {
  if (nsrlx === '1' || skssqq.slice(0, 7) === skssqz.slice(0, 7)) return [[skssqq, skssqz]];
  const out: [string, string][] = [];
  for (let m = skssqq.slice(0, 7); m <= skssqz.slice(0, 7); m = addMonths(m, 1)) {
    const y = Number(m.slice(0, 4));
    const mm = Number(m.slice(5, 7));
    const last = new Date(Date.UTC(y, mm, 0)).getUTCDate();
    out.push([`${m}-01`, `${m}-${String(last).padStart(2, '0')}`]);
  }
  return out;
}

const person = (e: BureauEmployee): IitEstimatePerson => ({
  zjhm: e.zjhm,
  rzrq: e.rzrq,
  sre: fen(e.sre),
  sxyj: fen(e.sxyj),
  zxfjkc: fen(e.zxfjkc),
  qtkc: fen(e.qtkc),
});

/**
 * IIT (source wages): the last filed month's persons and wages copied to the period — persons the bureau
 * lists as employed in the period (one not employed would fail 表间校验) with the copied wages, a person
 * new in the period with the bureau's wages for it; the diff lists who was added, who left and whose
 * wages the copy changes. No employees: a zero return.
 */
export function iitFigures(
  copied: { ssq: string; list: BureauEmployee[] },
  period: { list: BureauEmployee[] },
  ssqMonth: string,
) {
  const before = new Map(copied.list.map((e) => [e.zjhm, e]));
  const now = new Map(period.list.map((e) => [e.zjhm, e]));
  const ry: BureauEmployee[] = [];
  const diff: IitDiff = { fromSsq: copied.ssq, rs: 0, fromRs: copied.list.length, added: [], removed: [], changed: [] };
  for (const e of period.list) {
    const old = before.get(e.zjhm);
    if (!old) {
      diff.added.push({ zjhm: e.zjhm, xm: e.xm, sre: e.sre });
      ry.push(e);
      continue;
    }
    if (fen(old.sre) !== fen(e.sre)) diff.changed.push({ zjhm: e.zjhm, xm: e.xm, from: old.sre, to: e.sre });
    ry.push({ ...e, sre: old.sre, sxyj: old.sxyj, qtkc: old.qtkc });
  }
  for (const e of copied.list) if (!now.has(e.zjhm)) diff.removed.push({ zjhm: e.zjhm, xm: e.xm, sre: e.sre });
  diff.rs = ry.length;
  const est = iitEstimate(ry.map(person), ssqMonth);
  const sbsj = {
    ry: ry.map((e) => ({ zjhm: e.zjhm, xm: e.xm, sre: e.sre, sxyj: e.sxyj, zxfjkc: e.zxfjkc, qtkc: e.qtkc })),
  };
  return { ry, diff, sbsj, srze: est.srze, ybtse: est.ybtse };
}

type Figures = Omit<GeneratedItem, 'id' | 'flagged'>;

/**
 * The small-scale return's sales by 征收率 from the invoices (issue 28 point 2): each rate's sales in its own
 * figures, nothing folded into another rate. The bureau's 发票汇总 gives sales by rate and 专票/普票 totals, not
 * their cross: 专票 are put on the 3 % sales first (a 3 % 专票 is why a client gives up the 1 % reduction:
 * 国家税务总局公告2026年第4号 四), then 5 %, then 1 %. Sales without an invoice are typed by the user.
 */
export function smallScaleSbsj(byRate: { xse1: number; xse3: number; xse5: number }, zp: number, pp: number) {
  let left = zp;
  const take = (x: number) => {
    const z = Math.min(x, left);
    left -= z;
    return z;
  };
  const z3 = take(byRate.xse3);
  const z5 = take(byRate.xse5);
  const z1 = take(byRate.xse1);
  // Invoices at rates this return has no column for (0 %, 免税) stay on the 1 % 普票 figure as before.
  const other = Math.max(0, zp + pp - byRate.xse1 - byRate.xse3 - byRate.xse5);
  const sbsj: Record<string, string> = {
    ppxse: taxFenToYuan(byRate.xse1 - z1 + other - left),
    zpxse: taxFenToYuan(z1 + left),
  };
  if (byRate.xse3 > 0) Object.assign(sbsj, { ppxse3: taxFenToYuan(byRate.xse3 - z3), zpxse3: taxFenToYuan(z3) });
  if (byRate.xse5 > 0) Object.assign(sbsj, { ppxse5: taxFenToYuan(byRate.xse5 - z5), zpxse5: taxFenToYuan(z5) });
  return sbsj;
}

const zero = (msg: string = FILING_BATCH_MSG.generatedZero): Figures => ({
  source: 'zero',
  sbsj: null,
  srze: 0,
  ybtse: 0,
  estimate: false,
  diff: null,
  state: 'planned',
  msg,
});

/** One item's figures from the bureau (the session is the client's), in fen. */
export async function figuresOf(
  bureau: BureauClient,
  session: string,
  item: Pick<ItemRow, 'taxType' | 'nsrlx' | 'cycle' | 'skssqq' | 'skssqz'>,
  invoices: (skssqq: string, skssqz: string) => Promise<InvoiceTotals>,
): Promise<Figures> {
  const nsrlx = item.nsrlx === '0' ? '0' : '1';
  if (item.taxType === 'grsds') {
    const ssq = item.skssqq.slice(0, 7);
    const copied = await bureau.personnel(session);
    const period = copied.ssq === ssq ? copied : await bureau.personnel(session, ssq);
    if (period.list.length === 0) return zero(FILING_BATCH_MSG.noPersons);
    const src = copied.ssq ? copied : period;
    const r = iitFigures(src, period, ssq);
    return {
      source: 'wages',
      sbsj: r.sbsj,
      srze: r.srze,
      ybtse: r.ybtse,
      estimate: true,
      diff: r.diff,
      state: 'planned',
      msg: FILING_BATCH_MSG.generated,
    };
  }
  if (item.taxType === 'zzs' || item.taxType === 'yhs') {
    let zp = 0;
    let pp = 0;
    // Small-scale VAT: sales by 征收率 (1 %, 3 %, 5 %) from the invoices' lines.
    const small = { xse1: 0, xse3: 0, xse5: 0 };
    // General VAT: sales by rate and the input confirmed (用途确认) for every month of the period.
    const byRate = { xse13: 0, xse9: 0, xse6: 0 };
    let jxse = 0;
    let confirmed = true;
    // 印花税 买卖合同 evidenced by invoices: goods sold and goods bought (issue 28 point 7); null when the
    // bureau does not split goods from services.
    let goods: number | null = 0;
    for (const [q, z] of salesPeriods(nsrlx, item.skssqq, item.skssqz)) {
      const inv = await invoices(q, z);
      goods =
        goods === null || inv.hwxse === undefined || inv.hwjxje === undefined
          ? null
          : goods + fen(inv.hwxse) + fen(inv.hwjxje);
      zp += fen(inv.zpje);
      pp += fen(inv.ppje);
      byRate.xse13 += fen(inv.xse13 ?? '0');
      byRate.xse9 += fen(inv.xse9 ?? '0');
      byRate.xse6 += fen(inv.xse6 ?? '0');
      small.xse1 += fen(inv.xse1 ?? '0');
      small.xse3 += fen(inv.xse3 ?? '0');
      small.xse5 += fen(inv.xse5 ?? '0');
      jxse += fen(inv.jxse ?? '0');
      confirmed &&= inv.jxqr === true;
    }
    if (item.taxType === 'yhs' && goods !== null) {
      // 印花税法 税目税率表: a sale or purchase of goods is a 买卖合同 for each side; services invoiced are not
      // (承揽、运输、技术… contracts are typed from the contracts themselves).
      if (goods <= 0) return zero(FILING_BATCH_MSG.generatedZero);
    } else if (zp + pp === 0) return zero();
    if (item.taxType === 'yhs') {
      const sbsj = { ht: [{ htlx: 'mmht', je: taxFenToYuan(goods ?? zp + pp) }] };
      const f = planFigures('yhs', nsrlx, item.cycle, sbsj, 'city', item.skssqz);
      return {
        source: 'invoices',
        sbsj,
        ...f,
        estimate: false,
        diff: null,
        state: 'planned',
        msg: FILING_BATCH_MSG.generated,
      };
    }
    if (nsrlx === '1') {
      const sbsj = smallScaleSbsj(small, zp, pp);
      const f = planFigures('zzs', '1', item.cycle, sbsj, 'city', item.skssqz);
      return {
        source: 'invoices',
        sbsj,
        ...f,
        estimate: false,
        diff: null,
        state: 'planned',
        msg: FILING_BATCH_MSG.generated,
      };
    }
    // General taxpayers: sales by rate from the invoices; the input VAT the bureau confirmed for the period
    // (用途确认), else typed by the user. Sales at no VAT rate on this return (免税, 0 %) are not among them.
    const sales = {
      xse13: taxFenToYuan(byRate.xse13),
      xse9: taxFenToYuan(byRate.xse9),
      xse6: taxFenToYuan(byRate.xse6),
    };
    if (confirmed) {
      const sbsj = { ...sales, jxse: taxFenToYuan(jxse) };
      const f = planFigures('zzs', '0', item.cycle, sbsj, 'city', item.skssqz);
      return {
        source: 'invoices',
        sbsj,
        ...f,
        estimate: false,
        diff: null,
        state: 'planned',
        msg: FILING_BATCH_MSG.generated,
      };
    }
    return {
      source: 'invoices',
      sbsj: sales,
      srze: byRate.xse13 + byRate.xse9 + byRate.xse6,
      ybtse: 0,
      estimate: false,
      diff: null,
      state: 'needsInput',
      msg: FILING_BATCH_MSG.needsInputVat,
    };
  }
  return {
    source: 'typed',
    sbsj: null,
    srze: 0,
    ybtse: 0,
    estimate: false,
    diff: null,
    state: 'needsInput',
    msg: FILING_BATCH_MSG.needsInputTyped,
  };
}

/** Every item of one client, in sequence on one session; invoice totals asked once per period. */
export async function generateClient(
  bureau: BureauClient,
  session: string,
  items: readonly ItemRow[],
  diffPercent: number,
): Promise<GeneratedItem[]> {
  const cache = new Map<string, Promise<InvoiceTotals>>();
  const invoices = (q: string, z: string) => {
    const key = `${q}|${z}`;
    let p = cache.get(key);
    if (!p) {
      p = bureau.invoiceTotals(session, q, z);
      cache.set(key, p);
    }
    return p;
  };
  const rosters = new Map<string, Promise<FilingRoster>>();
  const out: GeneratedItem[] = [];
  for (const it of items) {
    const f = await figuresOf(bureau, session, it, invoices);
    const prev =
      it.prevSrze === null && it.prevYbtse === null ? await previousReturn(bureau, session, it, rosters) : null;
    const prevSrze = prev ? prev.srze : it.prevSrze;
    const prevYbtse = prev ? prev.ybtse : it.prevYbtse;
    out.push({
      id: it.id,
      ...f,
      flagged: changeFlagged(f.ybtse, prevYbtse, diffPercent) || changeFlagged(f.srze, prevSrze, diffPercent),
      ...(prev ? { prevSrze, prevYbtse } : {}),
    });
  }
  return out;
}

/**
 * The previous period's filed return of the item's type, from the bureau's roster of the filing month
 * that period was filed in (the month the item's period starts: a month or a quarter ends, its return is
 * due the month after). Asked only when no synced roster month had it; one roster per month per client.
 */
async function previousReturn(
  bureau: BureauClient,
  session: string,
  it: Pick<ItemRow, 'taxType' | 'skssqq'>,
  rosters: Map<string, Promise<FilingRoster>>,
): Promise<{ srze: number; ybtse: number } | null> {
  const month = it.skssqq.slice(0, 7);
  let roster = rosters.get(month);
  if (!roster) {
    roster = bureau.filingRoster(session, month);
    rosters.set(month, roster);
  }
  const hit = (await roster).items.find(
    (r) => r.type === it.taxType && r.skssqz !== '' && r.skssqz < it.skssqq && (r.state === 'ysb' || r.state === 'yjk'),
  );
  return hit ? { srze: fen(hit.srze), ybtse: fen(hit.ybtse) } : null;
}

/**
 * Items whose figures need no bureau call: 财务报表 and 企业所得税 from the client's books when their period is
 * closed (source 'books', issue 16), else typed by the user (with the books' reason when there are books).
 */
export function offlineFigures(it: ItemRow, books?: BooksAnswer | null): GeneratedItem {
  if (books && (it.taxType === 'cwbb' || it.taxType === 'qysds')) {
    const made = books.ok ? sbsjFromBooks(it.taxType, books.figures) : null;
    if (made)
      return {
        id: it.id,
        source: 'books',
        sbsj: made.sbsj,
        srze: made.srze,
        ybtse: 0,
        estimate: false,
        diff: null,
        flagged: false,
        state: 'planned',
        msg: BOOK_REPORT_MSG.fromBooks,
      };
    if (!books.ok) return { ...offlineFigures(it), msg: `${FILING_BATCH_MSG.needsInputTyped}（${books.msg}）` };
  }
  return {
    id: it.id,
    source: 'typed',
    sbsj: null,
    srze: 0,
    ybtse: 0,
    estimate: false,
    diff: null,
    flagged: false,
    state: 'needsInput',
    msg: FILING_BATCH_MSG.needsInputTyped,
  };
}
