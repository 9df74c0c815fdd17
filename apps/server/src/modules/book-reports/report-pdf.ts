import { deflateSync } from 'node:zlib';

/**
 * Tables as a PDF built by hand (no dependency), as the bureau's receipts are: the standard CJK font
 * STSong-Light (Adobe-GB1, UniGB-UCS2-H), which PDF viewers supply, so nothing is embedded. Pages break
 * when full; the title and the header row repeat on each page.
 */

export const hexUcs2 = (text: string) =>
  [...text]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0x3f;
      return (code > 0xffff ? 0x3f : code).toString(16).padStart(4, '0');
    })
    .join('');

/** Rough width of text at a size: CJK full width, the rest half. */
export const widthOf = (text: string, size: number) =>
  [...text].reduce((w, ch) => w + ((ch.codePointAt(0) ?? 0) > 0x2e80 ? size : size * 0.5), 0);

/** Cuts text to fit a width. */
export function fit(text: string, width: number, size: number) {
  if (widthOf(text, size) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (widthOf(`${out}${ch}…`, size) > width) break;
    out += ch;
  }
  return `${out}…`;
}

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

/** A page's drawing operators and its size in points (batch print lays out its own pages too). */
export interface PdfPage {
  content: string;
  w: number;
  h: number;
}

/** One PDF of one or more tables (each starts on a new page). */
export function tablesPdf(tables: readonly PdfTable[]): Buffer {
  return assemblePdf(tablePages(tables));
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
      const ops: string[] = [];
      const text = (s: string, x: number, y: number, sz: number) =>
        ops.push('BT', `/F1 ${sz} Tf`, `1 0 0 1 ${x.toFixed(1)} ${y.toFixed(1)} Tm`, `<${hexUcs2(s)}> Tj`, 'ET');
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
        ops.push(`${left} ${y} m ${(left + cols.reduce((s, c) => s + c.width, 0)).toFixed(1)} ${y} l S`);
        y -= rowH;
      };
      ops.push('0.5 w');
      ops.push(`${left} ${y + rowH} m ${(left + cols.reduce((s, c) => s + c.width, 0)).toFixed(1)} ${y + rowH} l S`);
      drawRow(
        cols.map((c) => c.header),
        size,
      );
      while (i < t.rows.length && y > 40) {
        drawRow(t.rows[i] ?? [], t.strong?.has(i) ? size + 0.5 : size);
        i++;
      }
      pages.push({ content: ops.join('\n'), w, h });
    } while (i < t.rows.length);
  }
  return pages;
}

/**
 * The PDF file of the given pages, with the one CJK font as /F1; `compress` deflates the page streams
 * (batch print keeps many clients' files until they are downloaded).
 */
export function assemblePdf(pages: readonly PdfPage[], opts: { compress?: boolean } = {}): Buffer {
  // Objects: 1 catalog, 2 pages, 3 font, 4 cid font, 5 descriptor, then per page: page, content.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [4 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 5 0 R /DW 1000 /W [1 95 500 814 939 500] >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
  const kids: string[] = [];
  for (const p of pages) {
    const pageObj = objects.length + 1;
    kids.push(`${pageObj} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${p.w} ${p.h}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObj + 1} 0 R >>`,
    );
    if (opts.compress) {
      const packed = deflateSync(Buffer.from(p.content, 'latin1')).toString('latin1');
      objects.push(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n${packed}\nendstream`);
    } else objects.push(`<< /Length ${Buffer.byteLength(p.content, 'latin1')} >>\nstream\n${p.content}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
