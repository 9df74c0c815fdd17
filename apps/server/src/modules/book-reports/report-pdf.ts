import { fit, PdfPage, renderPdf, widthOf } from '@dzy/pdf';

/**
 * Tables as PDF pages through the shared writer (@dzy/pdf: the CJK font embedded as a subset). Pages break
 * when full; the title and the header row repeat on each page.
 */

export { PdfPage };

export interface PdfColumn {
  header: string;
  /** Width in points. */
  width: number;
  align?: 'left' | 'right';
}

export interface PdfTable {
  title: string;
  /** Lines under the title (client, period, unit). */
  subtitle: string;
  columns: readonly PdfColumn[];
  rows: readonly (readonly string[])[];
  /** Rows drawn bold-ish (a heavier size) — totals. */
  strong?: ReadonlySet<number>;
  landscape?: boolean;
}

/** One PDF of one or more tables (each starts on a new page). */
export function tablesPdf(tables: readonly PdfTable[]): Promise<Buffer> {
  return renderPdf(tablePages(tables), { title: tables[0]?.title ?? '' });
}

/** The pages of one or more tables (each starts on a new page). */
export function tablePages(tables: readonly PdfTable[]): PdfPage[] {
  const pages: PdfPage[] = [];
  for (const t of tables) {
    const [w, h] = t.landscape ? [842, 595] : [595, 842];
    const left = 36;
    const size = 9;
    const rowH = 16;
    const total = t.columns.reduce((s, c) => s + c.width, 0);
    const scale = Math.min(1, (w - 2 * left) / total);
    const cols = t.columns.map((c) => ({ ...c, width: c.width * scale }));
    let i = 0;
    let pageNo = 0;
    do {
      pageNo++;
      const page = new PdfPage(w, h);
      const text = (s: string, x: number, y: number, sz: number) => page.text(s, x, y, sz);
      text(t.title, (w - widthOf(t.title, 16)) / 2, h - 48, 16);
      text(t.subtitle, left, h - 72, 9);
      text(`第${pageNo}页`, w - left - 40, h - 72, 9);
      let y = h - 96;
      const drawRow = (cells: readonly string[], sz: number) => {
        let x = left;
        cells.forEach((cell, k) => {
          const c = cols[k];
          if (!c) return;
          const s = fit(cell, c.width - 6, sz);
          const tx = c.align === 'right' ? x + c.width - 3 - widthOf(s, sz) : x + 3;
          if (s) text(s, tx, y + 4, sz);
          x += c.width;
        });
        page.line(left, y, left + cols.reduce((s, c) => s + c.width, 0), y);
        y -= rowH;
      };
      page.lineWidth(0.5);
      page.line(left, y + rowH, left + cols.reduce((s, c) => s + c.width, 0), y + rowH);
      drawRow(
        cols.map((c) => c.header),
        size,
      );
      while (i < t.rows.length && y > 40) {
        drawRow(t.rows[i] ?? [], t.strong?.has(i) ? size + 0.5 : size);
        i++;
      }
      pages.push(page);
    } while (i < t.rows.length);
  }
  return pages;
}
