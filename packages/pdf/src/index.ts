import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

/**
 * The one PDF writer of the product and the simulator (issue 29 point 1): receipts, invoices, vouchers, ledgers,
 * statements and print runs. Layouts record their pages as drawing operations in PDF coordinates (points,
 * origin bottom-left, text at its baseline); `renderPdf` writes them with pdfkit, which embeds the CJK font as a
 * TrueType subset (FontFile2, a six-letter subset prefix) with a ToUnicode map, so every viewer and printer shows
 * the same glyphs and the text can be searched and copied.
 *
 * The font: Noto Sans SC Regular (static TTF, TrueType outlines) from the npm package
 * @expo-google-fonts/noto-sans-sc, licence SIL OFL 1.1, which allows embedding in documents (OFL FAQ 1.11:
 * "a document that embeds the font is not a derivative work"). It covers GB 2312 and GB 18030's CJK range.
 */

// Not named `require`: the server's bundle declares its own at the top (scripts/build-node.mjs).
const requireHere = createRequire(import.meta.url);
const FONT_PATH = requireHere.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');
const FONT = 'cjk';

let fontBytes: Buffer | null = null;
/** The font file, read once (10.5 MB; each document embeds only the glyphs it uses). */
const font = () => {
  fontBytes ??= readFileSync(FONT_PATH);
  return fontBytes;
};

export type Rgb = readonly [number, number, number];

export type PdfOp =
  | { t: 'text'; s: string; x: number; y: number; size: number }
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number }
  | { t: 'rect'; x: number; y: number; w: number; h: number }
  | { t: 'fill'; rgb: Rgb }
  | { t: 'stroke'; rgb: Rgb }
  | { t: 'width'; w: number }
  | { t: 'dash'; on: number; off: number }
  | { t: 'undash' };

/** One page: its size in points and its drawing, recorded. */
export class PdfPage {
  readonly ops: PdfOp[] = [];
  constructor(
    readonly w: number,
    readonly h: number,
  ) {}
  /** Text with its left end at x and its baseline at y. */
  text(s: string, x: number, y: number, size: number) {
    if (s) this.ops.push({ t: 'text', s, x, y, size });
  }
  line(x1: number, y1: number, x2: number, y2: number) {
    this.ops.push({ t: 'line', x1, y1, x2, y2 });
  }
  /** A stroked rectangle, (x, y) its bottom-left corner. */
  rect(x: number, y: number, w: number, h: number) {
    this.ops.push({ t: 'rect', x, y, w, h });
  }
  /** Colour of text from now on (components 0-1). */
  fill(rgb: Rgb) {
    this.ops.push({ t: 'fill', rgb });
  }
  /** Colour of lines from now on. */
  stroke(rgb: Rgb) {
    this.ops.push({ t: 'stroke', rgb });
  }
  lineWidth(w: number) {
    this.ops.push({ t: 'width', w });
  }
  dash(on: number, off: number) {
    this.ops.push({ t: 'dash', on, off });
  }
  undash() {
    this.ops.push({ t: 'undash' });
  }
}

let measurer: PDFKit.PDFDocument | null = null;
/** The width of a text in the embedded font, in points. */
export function widthOf(text: string, size: number): number {
  if (!text) return 0;
  if (!measurer) {
    measurer = new PDFDocument({ autoFirstPage: false });
    measurer.registerFont(FONT, font());
  }
  return measurer.font(FONT).fontSize(size).widthOfString(text);
}

/** Cuts a text to fit a width (an ellipsis marks the cut). */
export function fit(text: string, width: number, size: number): string {
  if (widthOf(text, size) <= width) return text;
  let out = '';
  for (const ch of text) {
    if (widthOf(`${out}${ch}…`, size) > width) break;
    out += ch;
  }
  return `${out}…`;
}

const to255 = (rgb: Rgb): [number, number, number] => [rgb[0] * 255, rgb[1] * 255, rgb[2] * 255];

/** Lets other work run between pages, so a print run of many pages does not hold the event loop. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The PDF file of the pages; page streams are deflated. */
export async function renderPdf(pages: readonly PdfPage[], info: { title?: string } = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: { Title: info.title ?? '', Producer: '代账云', Creator: '代账云' },
    // PDF/A-like determinism is not needed, but a fixed date keeps files of the same content equal in tests.
  });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont(FONT, font());
  for (const [i, p] of pages.entries()) {
    if (i > 0 && i % 8 === 0) await breathe();
    doc.addPage({ size: [p.w, p.h], margin: 0 });
    doc.font(FONT).fillColor('black').strokeColor('black').lineWidth(1);
    for (const op of p.ops) {
      switch (op.t) {
        case 'text':
          doc.fontSize(op.size).text(op.s, op.x, p.h - op.y, { lineBreak: false, baseline: 'alphabetic' });
          break;
        case 'line':
          doc
            .moveTo(op.x1, p.h - op.y1)
            .lineTo(op.x2, p.h - op.y2)
            .stroke();
          break;
        case 'rect':
          doc.rect(op.x, p.h - op.y - op.h, op.w, op.h).stroke();
          break;
        case 'fill':
          doc.fillColor(to255(op.rgb));
          break;
        case 'stroke':
          doc.strokeColor(to255(op.rgb));
          break;
        case 'width':
          doc.lineWidth(op.w);
          break;
        case 'dash':
          doc.dash(op.on, { space: op.off });
          break;
        case 'undash':
          doc.undash();
          break;
      }
    }
  }
  doc.end();
  return finished;
}
