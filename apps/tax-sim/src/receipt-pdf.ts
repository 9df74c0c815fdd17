import { PdfPage, renderPdf, widthOf } from '@dzy/pdf';

/**
 * The 申报回执: one A4 page, the title centred and labelled lines, through the shared PDF writer (@dzy/pdf,
 * the CJK font embedded as a subset). The simulator only draws with it; it computes no tax there.
 */
export function receiptPdf(title: string, lines: readonly [string, string][], footer: string): Promise<Buffer> {
  const p = new PdfPage(595, 842);
  p.text(title, (595 - widthOf(title, 20)) / 2, 770, 20);
  let y = 720;
  for (const [label, value] of lines) {
    p.text(label, 72, y, 11);
    p.text(value, 200, y, 11);
    y -= 24;
  }
  p.text(footer, 72, y - 24, 9);
  return renderPdf([p], { title });
}
