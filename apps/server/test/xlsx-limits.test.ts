import { IMPORT_COLUMNS } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import { readXlsx } from '../src/modules/customer/xlsx.js';
import { xlsx } from './customer-helpers.js';
import { zipBomb } from './zip-helpers.js';

describe('reading uploaded spreadsheets (one warm worker, bounded)', () => {
  it('reads a real workbook, and again on the same warm worker', async () => {
    const file = await xlsx(IMPORT_COLUMNS, [['甲有限公司', '91310000MA1FL0001X']]);
    for (let i = 0; i < 2; i++) {
      const out = await readXlsx(file, IMPORT_COLUMNS, 10, `agency:${i}`);
      expect(out.ok).toBe(true);
      if (out.ok) expect(out.rows[0]?.cells.slice(0, 2)).toEqual(['甲有限公司', '91310000MA1FL0001X']);
    }
  });

  it('refuses a zip bomb after inflating at most the cap, and the process keeps its memory', async () => {
    const bomb = zipBomb();
    expect(bomb.length).toBeLessThan(200 * 1024);
    const before = process.memoryUsage().rss;
    const out = await readXlsx(bomb, IMPORT_COLUMNS, 10, 'agency:bomb');
    expect(out).toEqual({ ok: false, reason: 'tooBig' });
    // Inflating stopped at the cap: the process (worker included) grew by far less than the bomb's 60 MB x2.
    expect(process.memoryUsage().rss).toBeLessThan(before + 150 * 1024 * 1024);
  });

  it('refuses a file with more rows than allowed', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => [`企业${i}`, `9131000000000000${i}X`]);
    const out = await readXlsx(await xlsx(IMPORT_COLUMNS, rows), IMPORT_COLUMNS, 5, 'agency:rows');
    expect(out).toEqual({ ok: false, reason: 'tooMany' });
  });

  it('parses one file per agency at a time; other agencies are not refused', async () => {
    const file = await xlsx(IMPORT_COLUMNS, [['甲有限公司', '91310000MA1FL0001X']]);
    const [first, second, otherAgency] = await Promise.all([
      readXlsx(file, IMPORT_COLUMNS, 10, 'agency:7'),
      readXlsx(file, IMPORT_COLUMNS, 10, 'agency:7'),
      readXlsx(file, IMPORT_COLUMNS, 10, 'agency:8'),
    ]);
    expect(first.ok).toBe(true);
    expect(second).toEqual({ ok: false, reason: 'busy' });
    expect(otherAgency.ok).toBe(true);
    // Once the first is done, the agency may upload again.
    expect((await readXlsx(file, IMPORT_COLUMNS, 10, 'agency:7')).ok).toBe(true);
  });
});
