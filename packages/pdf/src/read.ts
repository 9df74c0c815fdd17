/**
 * For tests (server and simulator): opens a PDF with Mozilla's PDF.js (pdfjs-dist, from the registry) as a
 * viewer would and returns each page's size and text, and the file's fonts: their names (an embedded subset's
 * name starts with six capitals and +) and whether each font program is in the file (FontFile2/FontFile3).
 */

// pdfjs-dist 6 expects Node 22's Promise.withResolvers; the machines run Node 20.
const P = Promise as unknown as { withResolvers?: unknown };
if (!P.withResolvers)
  P.withResolvers = function withResolvers<T>() {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };

export interface ReadPdf {
  pages: { size: string; text: string; items: string[] }[];
  /** BaseFont names of the file's fonts. */
  fonts: string[];
  /** Whether a TrueType (FontFile2) or CFF (FontFile3) font program is embedded. */
  embedded: boolean;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    verbosity: 0,
  });
  const doc = await task.promise;
  const pages: ReadPdf['pages'] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [, , w, h] = page.view;
    const content = await page.getTextContent();
    const items = content.items.map((it) => ('str' in it ? it.str : '')).filter((s) => s.trim() !== '');
    pages.push({ size: `${Math.round(w ?? 0)}x${Math.round(h ?? 0)}`, text: items.join(' '), items });
  }
  await task.destroy();
  const raw = Buffer.from(bytes).toString('latin1');
  const fonts = [...new Set([...raw.matchAll(/\/BaseFont \/([A-Za-z0-9+-]+)/g)].map((m) => m[1] as string))];
  return { pages, fonts, embedded: /\/FontFile[23] \d+ 0 R/.test(raw) };
}
