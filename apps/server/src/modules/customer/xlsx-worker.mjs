// Spreadsheet work off the main thread (plain JavaScript so that it runs in a worker under any loader):
// reading an uploaded .xlsx with exceljs's streaming reader (bounded: the archive is inflated once with
// a hard cap before exceljs sees it, and reading stops past the row limit) and writing result files with
// the streaming writer. The worker stays warm (exceljs loads once) and takes one task at a time.
import { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';
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

/** Inflated bytes an upload may hold in all (a 10,000-row import is a few MB), and entries it may have. */
const MAX_INFLATED = 50 * 1024 * 1024;
const MAX_ENTRIES = 2000;

/**
 * Inflates every entry of the zip once, counting real output against MAX_INFLATED (declared sizes can
 * lie): true when the archive stays under the caps. A zip bomb stops here after at most the cap.
 */
function withinCaps(buf) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buf.length) return 'bad';
  const entries = buf.readUInt16LE(eocd + 10);
  if (entries > MAX_ENTRIES) return 'tooBig';
  let at = buf.readUInt32LE(eocd + 16);
  let left = MAX_INFLATED;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return 'bad';
    const method = buf.readUInt16LE(at + 10);
    const packed = buf.readUInt32LE(at + 20);
    const local = buf.readUInt32LE(at + 42);
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) return 'bad';
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + packed);
    if (method === 0) {
      left -= data.length;
    } else if (method === 8) {
      try {
        left -= inflateRawSync(data, { maxOutputLength: left + 1 }).length;
      } catch (err) {
        return err && err.code === 'ERR_BUFFER_TOO_LARGE' ? 'tooBig' : 'bad';
      }
    } else {
      return 'bad';
    }
    if (left < 0) return 'tooBig';
  }
  return 'ok';
}

async function read({ buffer, maxRows, columns }) {
  const caps = withinCaps(Buffer.from(buffer));
  if (caps !== 'ok') return { ok: false, reason: caps };
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

parentPort.on('message', async ({ id, task }) => {
  let out;
  try {
    out = task.op === 'read' ? await read(task) : await write(task);
  } catch (err) {
    out = { ok: false, reason: 'bad', error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage({ id, out });
});
