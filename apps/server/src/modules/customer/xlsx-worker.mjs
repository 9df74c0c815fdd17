// Spreadsheet work off the main thread (plain JavaScript so that it runs in a worker under any loader):
// reading an uploaded .xlsx with exceljs's streaming reader (bounded: the archive is inflated once with
// a hard cap before exceljs sees it, and reading stops past the row limit) or an uploaded .csv, and
// writing result files with the streaming writer. The worker stays warm (exceljs loads once) and takes
// one task at a time.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/**
 * Text of a stream of UTF-8 bytes, decoded across chunk boundaries: a character whose bytes are split
 * between two chunks is decoded whole. Bytes that are not UTF-8 throw (the file is refused as unreadable)
 * rather than turning into U+FFFD.
 */
async function* utf8Chunks(chunks) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? decoder.decode() + chunk : decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

// exceljs 4.4.0 decodes every inflated piece of a sheet's XML (16 KB, zlib's chunk) on its own
// (lib/utils/parse-sax.js), so a character cut by a piece boundary became two or three U+FFFD: one name in
// a few thousand rows lost a character (issue 26 point 5; upstream exceljs#2063, #2084, fixes unmerged).
// Every XML part of a workbook goes through that one function; it is given whole characters here, before
// exceljs loads (its modules take the function when they load).
const parseSaxPath = require.resolve('exceljs/lib/utils/parse-sax.js');
const parseSax = require(parseSaxPath);
const parseSaxModule = require.cache[parseSaxPath];
if (typeof parseSax !== 'function' || !parseSaxModule) throw new Error('exceljs parse-sax not found');
parseSaxModule.exports = (iterable) => parseSax(utf8Chunks(iterable));
const ExcelJS = require('exceljs');

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

/**
 * The rules every uploaded table is read by, whatever its format: the first row is the header, which must
 * be `columns` (a trailing * aside) with nothing right of it; blank rows are skipped; cells are trimmed
 * text; more than `maxRows` data rows is 'tooMany'.
 */
function tableReader(columns, maxRows) {
  let header = null;
  const rows = [];
  return {
    /** Takes one row's cell texts; answers an outcome when reading must stop there. */
    add(line, texts) {
      const cells = [];
      for (let c = 0; c < columns.length; c++) cells.push((texts[c] ?? '').trim());
      const extra = texts.slice(columns.length).some((t) => (t ?? '').trim() !== '');
      if (header === null) {
        header = cells;
        return extra ? { ok: false, reason: 'header' } : null;
      }
      if (cells.every((c) => c === '')) return null;
      rows.push({ line, cells });
      return rows.length > maxRows ? { ok: false, reason: 'tooMany' } : null;
    },
    end() {
      if (header === null) return { ok: false, reason: 'empty' };
      const want = columns.map((c) => c.replace(/\*$/, ''));
      const got = header.map((c) => c.replace(/\*$/, ''));
      if (want.some((w, i) => w !== got[i])) return { ok: false, reason: 'header' };
      if (rows.length === 0) return { ok: false, reason: 'empty' };
      return { ok: true, rows };
    },
  };
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
  const table = tableReader(columns, maxRows);
  let sheets = 0;
  for await (const worksheet of reader) {
    sheets += 1;
    if (sheets > 1) break;
    for await (const row of worksheet) {
      const values = Array.isArray(row.values) ? row.values : [];
      const texts = [];
      for (let c = 1; c < Math.max(values.length, columns.length + 1); c++) texts.push(cellText(values[c]));
      const stop = table.add(row.number, texts);
      if (stop) return stop;
    }
  }
  // A zip without a worksheet is not a workbook; a workbook with an empty sheet has nothing to import.
  if (sheets === 0) return { ok: false, reason: 'bad' };
  return table.end();
}

/**
 * The text of an uploaded .csv. Excel in China saves "CSV UTF-8" with a byte-order mark and plain "CSV"
 * in the system's code page (GBK, which GB18030 contains): a BOM decides; otherwise bytes that are valid
 * UTF-8 are UTF-8, and anything else is GB18030. Null when the bytes are neither (nothing is guessed).
 */
function csvText(buf) {
  const tryDecode = (encoding, bytes) => {
    try {
      return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return null;
    }
  };
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return tryDecode('utf-8', buf.subarray(3));
  if (buf[0] === 0xff && buf[1] === 0xfe) return tryDecode('utf-16le', buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return tryDecode('utf-16be', buf.subarray(2));
  return tryDecode('utf-8', buf) ?? tryDecode('gb18030', buf);
}

/**
 * Records of CSV text (RFC 4180): fields separated by commas, records by CRLF or LF; a field in double
 * quotes may hold commas, line breaks and doubled quotes. Answers each record's cells and its number.
 */
function* csvRecords(text) {
  const delimiter = /[,\r\n]/g;
  let cells = [];
  let record = 1;
  let at = 0;
  while (at < text.length) {
    let cell;
    if (text[at] === '"') {
      // A quoted field runs to the quote not followed by another.
      let parts = '';
      let from = at + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) {
          parts += text.slice(from);
          at = text.length;
          break;
        }
        parts += text.slice(from, q);
        if (text[q + 1] === '"') {
          parts += '"';
          from = q + 2;
          continue;
        }
        at = q + 1;
        break;
      }
      // Anything between the closing quote and the delimiter is kept, as spreadsheet programs do.
      delimiter.lastIndex = at;
      const d = delimiter.exec(text);
      const stop = d ? d.index : text.length;
      cell = parts + text.slice(at, stop);
      at = stop;
    } else {
      delimiter.lastIndex = at;
      const d = delimiter.exec(text);
      const stop = d ? d.index : text.length;
      cell = text.slice(at, stop);
      at = stop;
    }
    cells.push(cell);
    const ch = text[at];
    if (ch === ',') {
      at += 1;
      if (at === text.length) cells.push('');
      continue;
    }
    if (ch === '\r' || ch === '\n') at += ch === '\r' && text[at + 1] === '\n' ? 2 : 1;
    yield { line: record, cells };
    record += 1;
    cells = [];
  }
  // The last record, when the text ends right after its last comma (no line break after it).
  if (cells.length > 0) yield { line: record, cells };
}

async function readCsv({ buffer, maxRows, columns }) {
  const text = csvText(Buffer.from(buffer));
  if (text === null) return { ok: false, reason: 'bad' };
  const table = tableReader(columns, maxRows);
  for (const { line, cells } of csvRecords(text)) {
    const stop = table.add(line, cells);
    if (stop) return stop;
  }
  return table.end();
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
    out = task.op === 'read' ? await read(task) : task.op === 'readCsv' ? await readCsv(task) : await write(task);
  } catch (err) {
    out = { ok: false, reason: 'bad', error: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage({ id, out });
});
