import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INVITE_FILE_COLUMNS, PWD_IMPORT_COLUMNS } from '@dzy/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, screenshotsAt, signIn, startProduct, visible } from './harness';

/** Issue 19 points 2-3: batch invitations from an .xlsx, and the password imports followed as jobs. */
let product: Product;
let admin: Page;
const dir = mkdtempSync(join(tmpdir(), 'dzy-import-jobs-'));
const shots = screenshotsAt('import-jobs-');

beforeAll(async () => {
  // The machine is shared: the seeded server may take minutes to answer.
  product = await startProduct({ startMs: 400_000 });
  admin = await product.newPage();
  admin.setDefaultTimeout(120_000);
  admin.setDefaultNavigationTimeout(120_000);
  await signIn(admin, product.baseUrl, DEMO_ADMIN);
}, 500_000);
afterAll(() => product?.close());

async function sheet(name: string, header: readonly string[], rows: string[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow([...header]);
  for (const r of rows) ws.addRow(r);
  const file = join(dir, name);
  await wb.xlsx.writeFile(file);
  return file;
}

describe('imports in the browser', () => {
  it('批量邀请 reads an .xlsx into the list, normalised, and sends it with a result per phone', {
    timeout: 300_000,
  }, async () => {
    await admin.goto(`${product.baseUrl}/#/nested/manage/staff`);
    await visible(admin.getByRole('row', { name: /张伟/ }), 120_000);
    await admin.getByRole('button', { name: '批量邀请' }).click();
    const dialog = admin.getByRole('dialog', { name: '批量邀请员工' });
    await visible(dialog);
    await shots(admin, 'invite-empty');
    const file = await sheet('名单.xlsx', INVITE_FILE_COLUMNS, [
      ['１３５ ０００９ ８８０１', '钱一'],
      ['135-0009-8802', '孙二'],
      ['13800000002', '张伟'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles(file);
    await expect
      .poll(() => dialog.locator('textarea').inputValue(), { timeout: 15_000 })
      .toBe('13500098801 钱一\n13500098802 孙二\n13800000002 张伟');
    await visible(dialog.getByText('已识别 3 人'));
    await shots(admin, 'invite-filled');
    await dialog.getByRole('button', { name: /发送邀请/ }).click();
    await visible(dialog.getByText('已发送邀请'));
    const text = await dialog.locator('.ant-table-tbody').innerText();
    expect(text).toContain('13500098801');
    expect(text).toContain('该用户已加入代理机构，不能重复加入');
    await shots(admin, 'invite-result');
    // antd spaces a two-character label: 完 成.
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
  });

  it('导入账号密码 runs as a job: progress, then the result and its failure file', async () => {
    await admin.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(admin.locator('tr.ant-table-row'), 120_000);
    const rows = Array.from({ length: 3000 }, (_, i) => [`NOSUCH${String(i).padStart(6, '0')}`, 'acc', 'pw']);
    const file = await sheet('账号密码.xlsx', PWD_IMPORT_COLUMNS, rows);
    await admin.getByRole('button', { name: /导入账号密码/ }).click();
    const dialog = admin.getByRole('dialog', { name: '导入账号密码' });
    await visible(dialog);
    await dialog.locator('input[type=file]').setInputFiles(file);
    await visible(dialog.getByText('账号密码.xlsx'));
    await dialog
      .getByRole('button', { name: /导\s*入/ })
      .last()
      .click();
    const running = admin.getByText(/已处理 \d+ \/ 3000 行/);
    const result = admin.getByRole('dialog', { name: '导入结果' });
    await Promise.race([visible(running, 30_000), visible(result, 30_000)]);
    if (await running.isVisible()) await shots(admin, 'pwd-progress');
    await visible(result, 120_000);
    expect((await result.getByTestId('import-result').innerText()).replace(/\s+/g, '')).toContain('失败3000条');
    await shots(admin, 'pwd-result');
  }, 240_000);
});
