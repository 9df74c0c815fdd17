import { Worker } from 'node:worker_threads';

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
