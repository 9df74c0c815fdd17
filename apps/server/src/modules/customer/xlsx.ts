import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./xlsx-worker.mjs', import.meta.url);
/** A worker that takes longer than this is stopped (a pathological file). */
const TASK_MS = 120_000;

export type ReadOutcome =
  | { ok: true; rows: { line: number; cells: string[] }[] }
  | { ok: false; reason: 'bad' | 'tooMany' | 'header' | 'empty'; error?: string };

function run<T>(task: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: task,
      transferList: transfer,
      // A crafted file must not take the server's memory with it.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      void worker.terminate();
      reject(new Error('spreadsheet worker timed out'));
    }, TASK_MS);
    worker.once('message', (out: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(out);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`spreadsheet worker exited with ${code}`));
    });
  });
}

/** True when the bytes start like a zip archive (every .xlsx is one). */
export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32BE(0) === 0x504b0304;

/**
 * Reads the first sheet of an .xlsx in a worker thread: the header must be `columns`, and at most
 * `maxRows` data rows are read (blank rows are skipped). A file exceljs cannot read is 'bad'.
 */
export async function readXlsx(buf: Buffer, columns: readonly string[], maxRows: number): Promise<ReadOutcome> {
  const copy = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  try {
    return await run<ReadOutcome>({ op: 'read', buffer: copy, columns: [...columns], maxRows }, [copy]);
  } catch (err) {
    return { ok: false, reason: 'bad', error: err instanceof Error ? err.message : String(err) };
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
