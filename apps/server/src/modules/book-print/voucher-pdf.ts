import { fit, PdfPage, widthOf } from '@dzy/pdf';
import { fenToYuanText, type PrintLayout, rmbUpper, type Voucher } from '@dzy/shared';

/**
 * 记账凭证 sheets as PDF pages, laid out like the printed vouchers of Chinese bookkeeping software: the title
 * 记账凭证 with a double rule, 核算单位 / 日期 / 凭证字号 / 附单据 n 张, the 摘要 · 会计科目 · 借方金额 · 贷方金额
 * table, 合计 with the amount in words (人民币大写), and the 会计主管 · 记账 · 审核 · 出纳 · 制单 footer.
 *
 * A sheet is 595 × 421 pt (A5 landscape). A5 prints one sheet a page; A4 portrait (595 × 842) two, one above
 * the other with a dashed cutting line between. A voucher with more lines than a sheet holds continues on
 * the next sheet (凭证字号 记-3（1/2）), the 合计 on its last sheet.
 */

const SHEET_W = 595;
const SHEET_H = 421;
/** Lines a sheet holds (paper vouchers have five to seven). */
export const LINES_PER_SHEET = 6;

const money = (fen: number) => (fen === 0 ? '' : fenToYuanText(fen));
const dateText = (d: string) => `${d.slice(0, 4)}年${d.slice(5, 7)}月${d.slice(8, 10)}日`;

/** One sheet: a voucher's lines [from, from + LINES_PER_SHEET), drawn with its top-left corner at (0, top). */
function sheetOps(page: PdfPage, v: Voucher, qymc: string, part: number, parts: number, top: number) {
  const text = (s: string, x: number, y: number, size: number) => page.text(s, x, y, size);
  const centred = (s: string, x0: number, x1: number, y: number, size: number) =>
    text(s, (x0 + x1 - widthOf(s, size)) / 2, y, size);
  const line = (x0: number, y0: number, x1: number, y1: number) => page.line(x0, y0, x1, y1);

  const left = 40;
  const right = SHEET_W - 40;
  // Title, spaced out as printed, over a double rule.
  const title = '记 账 凭 证';
  const ty = top - 46;
  page.fill([0, 0, 0]);
  centred(title, left, right, ty, 20);
  const tw = widthOf(title, 20);
  page.lineWidth(0.8);
  line((SHEET_W - tw) / 2 - 10, ty - 6, (SHEET_W + tw) / 2 + 10, ty - 6);
  page.lineWidth(0.5);
  line((SHEET_W - tw) / 2 - 10, ty - 9, (SHEET_W + tw) / 2 + 10, ty - 9);

  // 核算单位 | 日期 | 凭证字号, then the table.
  const iy = top - 76;
  text(`核算单位：${fit(qymc, 190, 9)}`, left, iy, 9);
  centred(`日期：${dateText(v.vdate)}`, left, right, iy, 10);
  const no = `凭证字号：${v.word}-${v.number}${parts > 1 ? `（${part}/${parts}）` : ''}`;
  text(no, right - widthOf(no, 10), iy, 10);

  const cols = [
    { title: '摘　要', w: 150 },
    { title: '会 计 科 目', w: 175 },
    { title: '借方金额', w: 95 },
    { title: '贷方金额', w: 95 },
  ];
  const tableW = cols.reduce((s, c) => s + c.w, 0);
  const x0 = left;
  const x1 = left + tableW;
  const headH = 22;
  const rowH = 30;
  const yTop = iy - 10;
  const yHead = yTop - headH;
  const yTotal = yHead - rowH * LINES_PER_SHEET;
  const yBottom = yTotal - rowH;
  page.lineWidth(1);
  page.rect(x0, yBottom, tableW, yTop - yBottom);
  page.lineWidth(0.5);
  line(x0, yHead, x1, yHead);
  for (let i = 1; i <= LINES_PER_SHEET; i++) line(x0, yHead - rowH * i, x1, yHead - rowH * i);
  let cx = x0;
  cols.forEach((c, k) => {
    centred(c.title, cx, cx + c.w, yHead + 7, 10);
    cx += c.w;
    // The 合计 row spans 摘要 and 会计科目.
    if (k < cols.length - 1) line(cx, yTop, cx, k === 0 ? yTotal : yBottom);
  });
  // 附单据 n 张, written down the right edge as on paper vouchers.
  const att = `附单据${v.attachments}张`;
  const ax = x1 + 6;
  const chars = [...att];
  const step = Math.min(14, (yTop - yBottom) / chars.length);
  chars.forEach((ch, i) => {
    text(ch, ax, yTop - 12 - i * step, /\d/.test(ch) ? 10 : 9);
  });

  const from = (part - 1) * LINES_PER_SHEET;
  v.lines.slice(from, from + LINES_PER_SHEET).forEach((l, i) => {
    const y = yHead - rowH * (i + 1) + 9;
    let x = x0;
    text(fit(l.summary, (cols[0]?.w ?? 0) - 8, 9), x + 4, y, 9);
    x += cols[0]?.w ?? 0;
    const acct = `${l.accountCode} ${l.accountName}${l.auxName ? `（${l.auxName}）` : ''}`;
    text(fit(acct, (cols[1]?.w ?? 0) - 8, 9), x + 4, y, 9);
    x += cols[1]?.w ?? 0;
    for (const [k, amount] of [
      [2, l.debit],
      [3, l.credit],
    ] as const) {
      const s = money(amount);
      const w = cols[k]?.w ?? 0;
      text(s, x + w - 5 - widthOf(s, 9.5), y, 9.5);
      x += w;
    }
  });

  // 合计: the amount in words on the last sheet; 承前页 sheets say 过次页.
  const last = part === parts;
  const ty2 = yBottom + 10;
  const words = last ? `合计：人民币（大写）${rmbUpper(v.total)}` : '过次页';
  text(fit(words, (cols[0]?.w ?? 0) + (cols[1]?.w ?? 0) - 8, 9.5), x0 + 4, ty2, 9.5);
  if (last) {
    const amt = fenToYuanText(v.total);
    const dx = x0 + (cols[0]?.w ?? 0) + (cols[1]?.w ?? 0);
    text(amt, dx + (cols[2]?.w ?? 0) - 5 - widthOf(amt, 9.5), ty2, 9.5);
    text(amt, dx + (cols[2]?.w ?? 0) + (cols[3]?.w ?? 0) - 5 - widthOf(amt, 9.5), ty2, 9.5);
  }

  // Signatures.
  const fy = yBottom - 20;
  const signs = ['会计主管：', '记账：', `审核：${v.reviewerName}`, '出纳：', `制单：${v.creatorName}`];
  const slot = tableW / signs.length;
  signs.forEach((s, i) => {
    text(fit(s, slot - 6, 9), x0 + i * slot, fy, 9);
  });
}

/** The sheets of the vouchers, laid out for the page size: A4 two sheets a page, A5 one. */
export function voucherPages(vouchers: readonly Voucher[], qymc: string, layout: PrintLayout): PdfPage[] {
  const sheets: { v: Voucher; part: number; parts: number }[] = [];
  for (const v of vouchers) {
    const parts = Math.max(1, Math.ceil(v.lines.length / LINES_PER_SHEET));
    for (let part = 1; part <= parts; part++) sheets.push({ v, part, parts });
  }
  const pages: PdfPage[] = [];
  if (layout === 'a5') {
    for (const s of sheets) {
      const page = new PdfPage(SHEET_W, SHEET_H);
      sheetOps(page, s.v, qymc, s.part, s.parts, SHEET_H);
      pages.push(page);
    }
    return pages;
  }
  for (let i = 0; i < sheets.length; i += 2) {
    const a = sheets[i];
    const b = sheets[i + 1];
    const page = new PdfPage(SHEET_W, SHEET_H * 2);
    if (a) sheetOps(page, a.v, qymc, a.part, a.parts, SHEET_H * 2);
    // The cutting line between the two halves.
    page.lineWidth(0.4);
    page.dash(4, 3);
    page.line(20, SHEET_H, SHEET_W - 20, SHEET_H);
    page.undash();
    if (b) sheetOps(page, b.v, qymc, b.part, b.parts, SHEET_H);
    pages.push(page);
  }
  return pages;
}
