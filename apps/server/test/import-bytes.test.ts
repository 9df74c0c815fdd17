import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CODE, CUSTOMER_FILES, IMPORT_COLUMNS, type ImportResult, importProgressCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExcelJS, readTableUpload } from '../src/modules/customer/xlsx.js';
import { ADMIN, newUscc, upload } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Imports keep every character (issue 26 point 5): Chinese text of every length 1..80, with characters
 * outside the BMP (four UTF-8 bytes, two UTF-16 code units), full-width punctuation and the CSV specials,
 * goes through the product's reader (20,000 rows a file: .xlsx with shared strings from both of exceljs's
 * writers, .xlsx with inline strings, .csv in UTF-8 with a BOM and in GB18030) and through the HTTP client
 * import and its job (fewer rows: a client import takes at most 10,000, and 20,000 clients on PGlite take
 * minutes), and every value comes back byte for byte.
 */

const HAN = [
  ...'中华人民共和国北京上海广州深圳杭州南京成都武汉西安有限责任公司股份科技贸易咨询服务财务会计代理记账税务鑫淼犇骉龘',
];
/** Four UTF-8 bytes each: CJK Extension B (𠀀 U+20000, 𠮷, 𡃁, 𪚥), Extension G (𰀀), emoji. */
const ASTRAL = ['𠀀', '𠮷', '𡃁', '𪚥', '𰀀', '😀', '👍', '🏢', '💰'];
/** Full-width punctuation, the ideographic zero and yen sign, and the characters CSV must quote. */
const PUNCT = [...'，。（）：；！？、“”‘’《》【】〇￥—…·', ',', '"'];

/** A deterministic sequence (the same text every run, so a failure names the same row). */
function lcg(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/**
 * `count` texts, the i-th of (i mod 80) + 1 characters (code points); at most `astralMax(len)` of them are
 * four-byte characters. No text starts or ends with white space (cells are trimmed).
 */
function texts(count: number, seed: number, astralMax: (len: number) => number = (len) => len): string[] {
  const rnd = lcg(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const len = (i % 80) + 1;
    let astral = 0;
    const chars: string[] = [];
    for (let k = 0; k < len; k++) {
      const pick = rnd(10);
      if (pick < 3 && astral < astralMax(len)) {
        astral += 1;
        chars.push(ASTRAL[rnd(ASTRAL.length)] ?? '𠀀');
      } else if (pick < 5) chars.push(PUNCT[rnd(PUNCT.length)] ?? '，');
      else chars.push(HAN[rnd(HAN.length)] ?? '中');
    }
    out.push(chars.join(''));
  }
  return out;
}

const HEADER = IMPORT_COLUMNS;
const ROWS = 20_000;
const source = texts(ROWS, 26_5);
/** Each row: the text as 企业名称, the other cells empty. */
const cellsOf = (t: string) => HEADER.map((_c, j) => (j === 0 ? t : ''));

/** With exceljs's whole-workbook writer (always shared strings), as the product writes its templates. */
async function documentXlsx(rows: string[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  ws.addRow([...HEADER]);
  for (const t of rows) ws.addRow(cellsOf(t));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** With exceljs's streaming writer, shared strings or inline strings. */
async function streamedXlsx(rows: string[], useSharedStrings: boolean): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings, useStyles: false });
  const ws = wb.addWorksheet('客户');
  ws.addRow([...HEADER]).commit();
  for (const t of rows) ws.addRow(cellsOf(t)).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
/** A CSV as spreadsheet programs save it: CRLF after every record, the last included. */
const csvText = (rows: string[]) => {
  const lines = [[...HEADER], ...rows.map(cellsOf)].map((r) => r.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
};

/** GB18030 bytes of a character: its two-byte code (GBK), or the four-byte code of a supplementary one. */
const gbTwoByte = (() => {
  const pairs: number[] = [];
  for (let a = 0x81; a <= 0xfe; a++) for (let b = 0x40; b <= 0xfe; b++) if (b !== 0x7f) pairs.push(a, b);
  // Every two-byte code of GB18030 decodes to one BMP code unit, so the i-th unit is the i-th pair's.
  const decoded = new TextDecoder('gb18030').decode(Buffer.from(pairs));
  const map = new Map<string, [number, number]>();
  for (let i = 0; i < decoded.length; i++) {
    const ch = decoded[i] ?? '';
    if (!map.has(ch)) map.set(ch, [pairs[2 * i] ?? 0, pairs[2 * i + 1] ?? 0]);
  }
  return map;
})();
function gb18030(text: string): Buffer {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) bytes.push(cp);
    else if (cp >= 0x10000) {
      // GB 18030-2005 §6.3.3: U+10000.. run linearly from 0x90308130.
      const o = cp - 0x10000;
      bytes.push(0x90 + Math.floor(o / 12600), 0x30 + (Math.floor(o / 1260) % 10));
      bytes.push(0x81 + (Math.floor(o / 10) % 126), 0x30 + (o % 10));
    } else {
      const pair = gbTwoByte.get(ch);
      if (!pair) throw new Error(`no two-byte GB18030 code for ${ch}`);
      bytes.push(...pair);
    }
  }
  return Buffer.from(bytes);
}

/** The rows whose stored bytes differ from the source's (row number, source, stored). */
function differences(got: readonly (string | undefined)[], want: readonly string[]) {
  const bad: { row: number; want: string; got: string | undefined }[] = [];
  want.forEach((w, i) => {
    const g = got[i];
    if (g === undefined || !Buffer.from(g, 'utf8').equals(Buffer.from(w, 'utf8')))
      bad.push({ row: i + 2, want: w, got: g });
  });
  return bad;
}

describe('the reader keeps every character of 20,000 rows', () => {
  it('has test data of every length with four-byte characters and full-width punctuation', () => {
    const lengths = new Set(source.map((t) => [...t].length));
    expect([...lengths].sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (const ch of [...ASTRAL, ...PUNCT]) expect(source.some((t) => t.includes(ch))).toBe(true);
    // The GB18030 bytes are what a GB18030 decoder reads back.
    const sample = source.slice(0, 400).join('\n');
    expect(new TextDecoder('gb18030', { fatal: true }).decode(gb18030(sample))).toBe(sample);
  });

  const variants: [string, string, () => Promise<Buffer>][] = [
    ['.xlsx, shared strings, whole-workbook writer', '客户.xlsx', () => documentXlsx(source)],
    ['.xlsx, shared strings, streaming writer', '客户.xlsx', () => streamedXlsx(source, true)],
    ['.xlsx, inline strings, streaming writer', '客户.xlsx', () => streamedXlsx(source, false)],
    [
      '.csv, UTF-8 with a BOM',
      '客户.csv',
      async () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csvText(source), 'utf8')]),
    ],
    ['.csv, GB18030', '客户.csv', async () => gb18030(csvText(source))],
  ];
  for (const [name, fileName, make] of variants) {
    it(name, async () => {
      const file = await make();
      const read = await readTableUpload(file, fileName, HEADER, ROWS, `agency:bytes:${name}`);
      if (!read.ok) throw new Error(`read failed: ${read.reason} ${read.error ?? ''}`);
      expect(read.rows).toHaveLength(ROWS);
      expect(read.rows.map((r) => r.line)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 2));
      expect(
        differences(
          read.rows.map((r) => r.cells[0]),
          source,
        ),
      ).toEqual([]);
    }, 60_000);
  }
});

describe('spreadsheets go through the one reader and the one exceljs', () => {
  it('no module but xlsx.ts loads exceljs, reads an upload with readXlsx/readCsv or checks a file by its name', () => {
    const root = join(import.meta.dirname, '../src');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.(ts|mts|mjs)$/.test(f));
    const offenders = files.filter((f) => {
      if (f.endsWith(join('customer', 'xlsx.ts')) || f.endsWith(join('customer', 'xlsx-worker.mjs'))) return false;
      const text = readFileSync(join(root, f), 'utf8');
      return /from 'exceljs'|require\('exceljs|\breadXlsx\(|\breadCsv\(|\\\.xlsx\$\/i\.test\(fileName\)/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

describe('the client import over HTTP keeps every character', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    // Room for the clients imported here (the demo agency's licence holds 200).
    await t.ownerQuery('update organisations set licence_customers = null where id = 1');
    admin = await t.login(ADMIN);
  });
  afterAll(() => t?.close());

  /** 企业名称 holds at most 100 UTF-16 code units: at most 100 - length four-byte characters a name. */
  const names = (count: number, seed: number) => texts(count, seed, (len) => Math.max(0, 100 - len));

  async function importFile(fileName: string, data: Buffer, count: number) {
    const started = await upload<{ jobId: number; total: number }>(t, CUSTOMER_FILES.importUpload, admin, {
      name: fileName,
      data,
    });
    expect(started.code, started.msg).toBe(CODE.OK);
    expect(started.data.total).toBe(count);
    for (let i = 0; i < 1200; i++) {
      const p = await t.call<{ state: string; result: ImportResult | null; error: string | null }>(
        importProgressCall.path,
        { jobId: started.data.jobId },
        admin,
      );
      if (p.data.state === 'done' || p.data.state === 'failed') return p.data;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('import did not finish');
  }

  async function storedNames(taxNumbers: string[]) {
    const rows = await t.ownerQuery<{ qysh: string; qymc: string }>(
      "select qysh, qymc from enterprises where agency_id = 1 and qysh = any(string_to_array($1, ','))",
      [taxNumbers.join(',')],
    );
    const byTax = new Map(rows.map((r) => [r.qysh, r.qymc]));
    return taxNumbers.map((q) => byTax.get(q));
  }

  /**
   * [kind, file name, rows, the file of the rows]: 3,000 rows an .xlsx, 1,000 a .csv (time on PGlite). These
   * .csv files end without a line break after the last record, whose last cell is empty.
   */
  const kinds: [string, string, number, (rows: string[][]) => Promise<Buffer> | Buffer][] = [
    [
      '.xlsx (shared strings, as exceljs and Excel write it)',
      '客户导入.xlsx',
      3000,
      async (rows) => {
        const wb = new ExcelJS.Workbook();
        const ws = wb.addWorksheet('客户');
        ws.addRow([...HEADER]);
        for (const r of rows) ws.addRow(r);
        return Buffer.from(await wb.xlsx.writeBuffer());
      },
    ],
    [
      '.csv in GB18030 (Excel\'s plain "CSV" in China)',
      '客户导入.csv',
      1000,
      (rows) => gb18030([[...HEADER], ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')),
    ],
    [
      '.csv in UTF-8 with a BOM (Excel\'s "CSV UTF-8")',
      '客户导入.csv',
      1000,
      (rows) =>
        Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from([[...HEADER], ...rows].map((r) => r.map(csvField).join(',')).join('\r\n'), 'utf8'),
        ]),
    ],
  ];
  kinds.forEach(([name, fileName, count, make], k) => {
    it(`stores ${count} names of every length from a ${name} byte for byte`, async () => {
      const want = names(count, 100 + k);
      const taxNumbers = want.map(() => newUscc());
      const rows = want.map((n, i) =>
        HEADER.map((c) =>
          c === '企业名称*' ? n : c === '企业税号*' ? (taxNumbers[i] ?? '') : c === '企业性质' ? '小规模纳税人' : '',
        ),
      );
      const done = await importFile(fileName, await make(rows), count);
      expect(done.error).toBeNull();
      expect(done.result?.failNum).toBe(0);
      expect(done.result?.successNum).toBe(count);
      expect(differences(await storedNames(taxNumbers), want)).toEqual([]);
    }, 120_000);
  });
});
