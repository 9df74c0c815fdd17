/**
 * The 申报回执 as a small PDF built by hand (no dependency): one A4 page of lines in the standard CJK
 * font STSong-Light (Adobe-GB1, UniGB-UCS2-H encoding), which PDF viewers supply themselves, so nothing
 * is embedded. Text is written as UCS-2 hex strings.
 */

const hexUcs2 = (text: string) =>
  [...text]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0x3f;
      return (code > 0xffff ? 0x3f : code).toString(16).padStart(4, '0');
    })
    .join('');

/** A PDF of a title and labelled lines. */
export function receiptPdf(title: string, lines: readonly [string, string][], footer: string): Buffer {
  const ops: string[] = ['BT', '/F1 20 Tf', '1 0 0 1 210 770 Tm', `<${hexUcs2(title)}> Tj`, '/F1 11 Tf'];
  let y = 720;
  for (const [label, value] of lines) {
    ops.push(`1 0 0 1 72 ${y} Tm`, `<${hexUcs2(label)}> Tj`, `1 0 0 1 200 ${y} Tm`, `<${hexUcs2(value)}> Tj`);
    y -= 24;
  }
  ops.push('/F1 9 Tf', `1 0 0 1 72 ${y - 24} Tm`, `<${hexUcs2(footer)}> Tj`, 'ET');
  const content = ops.join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor 7 0 R >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
  ];
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
