// Spreadsheet work off the main thread (plain JavaScript so that it runs in a worker under any loader):
// reading an uploaded .xlsx with exceljs's streaming reader (bounded: it stops past the row limit) and
// writing result files with the streaming writer. One task per worker; the answer is posted back.
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

/** Text of a cell value as a person sees it. */
function cellText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text ?? '').join('');
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
  }
  return String(v);
}

/** Cells that a spreadsheet program would take for a formula are prefixed with ' (CSV/formula injection). */
function neutralise(text) {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

async function read({ buffer, maxRows, columns }) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(Buffer.from(buffer)), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let header = null;
  const rows = [];
  let sheets = 0;
  for await (const worksheet of reader) {
    sheets += 1;
    if (sheets > 1) break;
    for await (const row of worksheet) {
      const values = Array.isArray(row.values) ? row.values : [];
      const cells = [];
      for (let c = 1; c <= columns.length; c++) cells.push(cellText(values[c]).trim());
      const extra = values.slice(columns.length + 1).some((v) => cellText(v).trim() !== '');
      if (header === null) {
        header = cells;
        if (extra) return { ok: false, reason: 'header' };
        continue;
      }
      if (cells.every((c) => c === '')) continue;
      rows.push({ line: row.number, cells });
      if (rows.length > maxRows) return { ok: false, reason: 'tooMany' };
    }
  }
  // A zip without a worksheet is not a workbook; a workbook with an empty sheet has nothing to import.
  if (sheets === 0) return { ok: false, reason: 'bad' };
  if (header === null) return { ok: false, reason: 'empty' };
  const want = columns.map((c) => c.replace(/\*$/, ''));
  const got = header.map((c) => c.replace(/\*$/, ''));
  if (want.some((w, i) => w !== got[i])) return { ok: false, reason: 'header' };
  if (rows.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, rows };
}

async function write({ path, sheetName, header, rows, widths }) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false, useStyles: true });
  const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = header.map((h, i) => ({ header: h, width: widths?.[i] ?? 18 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (const r of rows) ws.addRow(r.map((v) => neutralise(String(v ?? '')))).commit();
  ws.commit();
  await wb.commit();
  return { ok: true };
}

const task = workerData;
try {
  const out = task.op === 'read' ? await read(task) : await write(task);
  parentPort.postMessage(out);
} catch (err) {
  parentPort.postMessage({ ok: false, reason: 'bad', error: err instanceof Error ? err.message : String(err) });
}
