import { fit as fitWidth, PdfPage, renderPdf, widthOf } from '@dzy/pdf';
import { OUT_KIND_TITLES, type OutInvoiceDetail } from '@dzy/shared';

/**
 * A 数电票 as a PDF through the shared writer (@dzy/pdf: the CJK font embedded as a subset).
 * The layout follows the national e-invoice: title, number and date at the top right, the buyer and seller
 * blocks side by side, the lines table, 合计, 价税合计（大写）/（小写）, 备注, and 开票人 below the frame.
 * A red-letter invoice prints the bureau's 备注 as it returned it (被红冲蓝字数电发票号码 …
 * 红字发票信息确认单编号 …).
 */

const fit = (text: string, size: number, width: number) => fitWidth(text, width, size);

type Rgb = readonly [number, number, number];

export function invoicePdf(inv: OutInvoiceDetail, kpr: string): Promise<Buffer> {
  const W = 684;
  const rows = Math.max(inv.lines.length, 3);
  const ROW = 16;
  const H = 330 + rows * ROW;
  const page = new PdfPage(W, H);
  const L = 30;
  const R = W - 30;
  const top = (y: number) => H - y;
  const text = (s: string, x: number, y: number, size = 9, align: 'l' | 'r' | 'c' = 'l') => {
    if (!s) return;
    const w = widthOf(s, size);
    const ax = align === 'r' ? x - w : align === 'c' ? x - w / 2 : x;
    page.text(s, ax, top(y), size);
  };
  const line = (x1: number, y1: number, x2: number, y2: number) => page.line(x1, top(y1), x2, top(y2));
  const brown: Rgb = [0.55, 0.2, 0.1];
  const black: Rgb = [0, 0, 0];
  const red = inv.state === 'red';

  // Title and the number/date block.
  page.fill(brown);
  text(OUT_KIND_TITLES[inv.fplx], W / 2, 40, 17, 'c');
  page.stroke(brown);
  page.lineWidth(0.8);
  line(W / 2 - 120, 48, W / 2 + 120, 48);
  line(W / 2 - 120, 51, W / 2 + 120, 51);
  text('发票号码：', R - 190, 30, 9);
  text('开票日期：', R - 190, 46, 9);
  page.fill(black);
  text(inv.fphm, R - 145, 30, 9);
  const [y, m, d] = inv.kprq.split('-');
  text(`${y}年${m}月${d}日`, R - 145, 46, 9);
  if (red) {
    page.fill([0.8, 0, 0]);
    text('红字发票', L, 40, 12);
    page.fill(black);
  }

  // The frame: party blocks, lines, totals, remark.
  const t0 = 62;
  const partyH = 58;
  const headY = t0 + partyH;
  const linesTop = headY + 18;
  const linesBottom = linesTop + rows * ROW;
  const sumY = linesBottom + 18;
  const totalY = sumY + 22;
  const remarkY = totalY + 52;
  page.stroke(brown);
  page.lineWidth(0.8);
  page.rect(L, top(remarkY), R - L, remarkY - t0);
  line(L, headY, R, headY);
  line(W / 2, t0, W / 2, headY);
  line(L + 22, t0, L + 22, headY);
  line(W / 2 + 22, t0, W / 2 + 22, headY);
  line(L, sumY, R, sumY);
  line(L, totalY, R, totalY);
  line(L + 22, totalY, L + 22, remarkY);
  line(L + 110, sumY, L + 110, totalY);

  page.fill(brown);
  const vertical = (s: string, x: number, y0: number) => {
    for (const [i, ch] of [...s].entries()) text(ch, x, y0 + i * 12, 9);
  };
  vertical('购买方信息', L + 6, t0 + 12);
  vertical('销售方信息', W / 2 + 6, t0 + 12);
  vertical('备注', L + 6, totalY + 20);
  text('名称：', L + 30, t0 + 20, 9);
  text('统一社会信用代码/纳税人识别号：', L + 30, t0 + 42, 9);
  text('名称：', W / 2 + 30, t0 + 20, 9);
  text('统一社会信用代码/纳税人识别号：', W / 2 + 30, t0 + 42, 9);

  // Lines table columns: name, spec, unit, quantity, price, amount, rate, tax.
  const cols = [
    { title: '项目名称', x: L + 4, w: 150, a: 'l' as const },
    { title: '规格型号', x: L + 160, w: 64, a: 'l' as const },
    { title: '单位', x: L + 228, w: 34, a: 'l' as const },
    { title: '数量', x: L + 330, w: 60, a: 'r' as const },
    { title: '单价', x: L + 410, w: 74, a: 'r' as const },
    { title: '金额', x: L + 500, w: 86, a: 'r' as const },
    { title: '税率/征收率', x: L + 560, w: 50, a: 'r' as const },
    { title: '税额', x: R - 4, w: 70, a: 'r' as const },
  ];
  for (const c of cols) text(c.title, c.a === 'r' ? c.x : c.x, headY + 13, 9, c.a);
  page.fill(black);
  text(fit(inv.gfmc, 10, W / 2 - 90), L + 60, t0 + 20, 10);
  text(inv.gfsh, L + 170, t0 + 42, 10);
  text(fit(inv.xfmc, 10, W / 2 - 90), W / 2 + 60, t0 + 20, 10);
  text(inv.xfsh, W / 2 + 170, t0 + 42, 10);
  inv.lines.forEach((l, i) => {
    const yy = linesTop + 12 + i * ROW;
    const cells = [l.spmc, l.ggxh, l.dw, l.sl, l.dj, l.je, l.slv, l.se];
    cells.forEach((v, ci) => {
      const c = cols[ci];
      if (c) text(fit(v, 9, c.w), c.x, yy, 9, c.a);
    });
  });
  page.fill(brown);
  text('合', L + 40, sumY - 5, 9);
  text('计', L + 100, sumY - 5, 9);
  text('价税合计（大写）', L + 20, totalY - 7, 9);
  text('（小写）', R - 150, totalY - 7, 9);
  page.fill(black);
  text(`¥${inv.hjje}`, L + 500, sumY - 5, 9, 'r');
  text(`¥${inv.hjse}`, R - 4, sumY - 5, 9, 'r');
  text(`⊗ ${inv.jshjUpper}`, L + 130, totalY - 7, 10);
  text(`¥${inv.jshj}`, R - 110, totalY - 7, 10);
  const remark = [
    // The bureau's own 备注 of a red invoice names the blue number and the confirmation; older rows without it
    // still show the blue number.
    ...(inv.lzfphm && !inv.bz.includes(inv.lzfphm) ? [`被红冲蓝字数电发票号码：${inv.lzfphm}`] : []),
    ...(inv.hzfphm ? [`已红冲，红字发票号码：${inv.hzfphm}`] : []),
    ...(inv.gfdzdh ? [`购方地址电话：${inv.gfdzdh}`] : []),
    ...(inv.gfyhzh ? [`购方开户银行及账号：${inv.gfyhzh}`] : []),
    ...(inv.bz ? inv.bz.split(/\s+(?=红字发票信息确认单编号)/) : []),
  ];
  for (const [i, r] of remark.slice(0, 4).entries()) text(fit(r, 9, R - L - 40), L + 30, totalY + 13 + i * 12, 9);
  page.fill(brown);
  text('开票人：', L + 10, remarkY + 20, 9);
  page.fill(black);
  text(kpr, L + 50, remarkY + 20, 9);

  return renderPdf([page], { title: `${OUT_KIND_TITLES[inv.fplx]} ${inv.fphm}` });
}
