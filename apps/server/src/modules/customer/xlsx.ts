import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import ExcelJSLib from 'exceljs';

/**
 * exceljs for every spreadsheet the main thread writes (the one import of the library; reading happens in
 * the worker). Its whole-workbook writer (`new ExcelJS.Workbook()` … `xlsx.writeBuffer()`) hands each part's
 * XML to JSZip as a JavaScript string, and JSZip 3.10 cuts a string into 16,384-code-unit blocks
 * (lib/stream/DataWorker.js) and UTF-8-encodes each block on its own (lib/utf8.js, Buffer.from per block): a
 * character outside the BMP (𠀀, 𠮷, emoji: two UTF-16 code units) cut by a block boundary became two U+FFFD in
 * the file, in about one string of 2,000 (issue 26 point 5). Each part is given to JSZip as UTF-8 bytes here,
 * encoded whole, so blocks cut bytes, which JSZip only stores (as dolanmiu/docx#3329 does; the JSZip fix,
 * Stuk/jszip#963, is unmerged). docs/decisions/imports.md.
 */
const ZipWriter = (
  createRequire(import.meta.url)('exceljs/lib/utils/zip-stream.js') as {
    ZipWriter?: { prototype: { append(data: unknown, options: { name: string; base64?: boolean }): void } };
  }
).ZipWriter;
if (!ZipWriter || typeof ZipWriter.prototype.append !== 'function') throw new Error('exceljs zip-stream not found');
const appendPart = ZipWriter.prototype.append;
ZipWriter.prototype.append = function (data: unknown, options: { name: string; base64?: boolean }) {
  const bytes = typeof data === 'string' && !options.base64 ? Buffer.from(data, 'utf8') : data;
  return appendPart.call(this, bytes, options);
};
export const ExcelJS = ExcelJSLib;

const WORKER_URL = new URL('./xlsx-worker.mjs', import.meta.url);
/** A task that takes longer than this stops the worker (a pathological file); the next task starts a new one. */
const TASK_MS = 120_000;

export type ReadOutcome =
  | { ok: true; rows: { line: number; cells: string[] }[] }
  | { ok: false; reason: 'bad' | 'tooMany' | 'tooBig' | 'busy' | 'header' | 'empty'; error?: string };

/**
 * One warm worker thread for every spreadsheet task of this process: exceljs loads once (seconds), not
 * per upload, and tasks run one after another, so parsing never takes more than one worker's memory.
 */
let worker: Worker | null = null;
let chain: Promise<unknown> = Promise.resolve();
let nextId = 1;

function spawnWorker(): Worker {
  // A crafted file must not take the server's memory with it.
  const w = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: 384 } });
  w.unref();
  w.on('exit', () => {
    if (worker === w) worker = null;
  });
  return w;
}

function runOnWorker<T>(task: Record<string, unknown>, transfer: ArrayBuffer[]): Promise<T> {
  return new Promise((resolve, reject) => {
    worker ??= spawnWorker();
    const w = worker;
    const id = nextId++;
    const done = (fn: () => void) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onFail);
      w.off('exit', onFail);
      fn();
    };
    const onMessage = (msg: { id: number; out: T }) => msg.id === id && done(() => resolve(msg.out));
    const onFail = (err: unknown) =>
      done(() => reject(err instanceof Error ? err : new Error(`spreadsheet worker exited with ${String(err)}`)));
    const timer = setTimeout(() => {
      done(() => reject(new Error('spreadsheet worker timed out')));
      if (worker === w) worker = null;
      void w.terminate();
    }, TASK_MS);
    w.on('message', onMessage);
    w.once('error', onFail);
    w.once('exit', onFail);
    w.postMessage({ id, task }, transfer);
  });
}

/** Queues a task behind the ones before it. */
function run<T>(task: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
  const mine = chain.then(() => runOnWorker<T>(task, transfer));
  chain = mine.catch(() => undefined);
  return mine;
}

/** Owners (agencies) with a parse under way: one at a time each, so one agency cannot fill the queue. */
const parsing = new Set<string>();

/** True when the bytes start like a zip archive (every .xlsx is one). */
export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32BE(0) === 0x504b0304;

/** True when an upload is a table every import reads: an .xlsx that is a zip, or a .csv that is not one. */
export const isTableUpload = (buf: Buffer, fileName: string) =>
  (/\.xlsx$/i.test(fileName) && isZip(buf)) || (/\.csv$/i.test(fileName) && !isZip(buf));

/**
 * The one reader of uploaded tables, for every import (clients, passwords, bureau passwords, templates,
 * work orders, vouchers, invoices, staff invitations): an .xlsx or a .csv by its name and bytes, read by the
 * same rules (readXlsx, readCsv); any other file is 'bad'. Every character is kept (docs/decisions/imports.md).
 */
export function readTableUpload(
  buf: Buffer,
  fileName: string,
  columns: readonly string[],
  maxRows: number,
  owner: string,
  /** 'xlsx': an .xlsx only (the contract-template file, by the spec: business.md 模板导入). */
  accept: 'table' | 'xlsx' = 'table',
): Promise<ReadOutcome> {
  if (!isTableUpload(buf, fileName) || (accept === 'xlsx' && !/\.xlsx$/i.test(fileName)))
    return Promise.resolve({ ok: false, reason: 'bad' });
  return /\.csv$/i.test(fileName) ? readCsv(buf, columns, maxRows, owner) : readXlsx(buf, columns, maxRows, owner);
}

/**
 * Reads the first sheet of an .xlsx in a worker thread: the header must be `columns`, and at most
 * `maxRows` data rows are read (blank rows are skipped). A file exceljs cannot read is 'bad', one that
 * inflates past the cap 'tooBig'; while `owner` (an agency) has a parse under way, another is 'busy'.
 * Every character is kept: exceljs is given whole characters (see the worker).
 */
export const readXlsx = (buf: Buffer, columns: readonly string[], maxRows: number, owner: string) =>
  readTable('read', buf, columns, maxRows, owner);

/**
 * Reads a .csv by the same rules as readXlsx (the first record is the header, blank rows skipped, cells
 * trimmed): UTF-8 (with or without a BOM) or, as Excel in China saves plain CSV, GB18030; bytes that are
 * neither are 'bad' (docs/decisions/imports.md).
 */
export const readCsv = (buf: Buffer, columns: readonly string[], maxRows: number, owner: string) =>
  readTable('readCsv', buf, columns, maxRows, owner);

async function readTable(
  op: 'read' | 'readCsv',
  buf: Buffer,
  columns: readonly string[],
  maxRows: number,
  owner: string,
): Promise<ReadOutcome> {
  if (parsing.has(owner)) return { ok: false, reason: 'busy' };
  parsing.add(owner);
  const copy = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  try {
    return await run<ReadOutcome>({ op, buffer: copy, columns: [...columns], maxRows }, [copy]);
  } catch (err) {
    return { ok: false, reason: 'bad', error: err instanceof Error ? err.message : String(err) };
  } finally {
    parsing.delete(owner);
  }
}

/** Writes a one-sheet .xlsx to `path` in a worker thread (formula-like cells neutralised). */
export async function writeXlsx(
  path: string,
  sheetName: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
  widths?: readonly number[],
): Promise<void> {
  const out = await run<{ ok: boolean; error?: string }>({
    op: 'write',
    path,
    sheetName,
    header: [...header],
    rows: rows.map((r) => [...r]),
    widths: widths ? [...widths] : undefined,
  });
  if (!out.ok) throw new Error(`writing ${path} failed: ${out.error ?? ''}`);
}

/** The same neutralising as the worker's, for files written on the main thread (the export). */
export const neutralise = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
