import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IMPORT_COLUMNS, selectMsgListCall } from '@dzy/shared';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, searchClients, signIn, startProduct } from './harness';

const ZHANG = '13800000002';
const NAME = '杭州云帆数据科技有限公司';
const QYSH = '91330106MA2H3C0X1X';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
let dir: string;
beforeAll(async () => {
  product = await startProduct();
  dir = mkdtempSync(join(tmpdir(), 'dzy-e2e-customer-'));
});
afterAll(async () => {
  await product?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Saves a picture of the page when E2E_SHOTS_DIR is set (for looking at, not for asserting). */
async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `customer-${name}.png`) });
}

/** Opens 我的客户; the missing-tax-number dialog comes up by itself and is put off. */
async function openBook(page: Page, expectTaxDialog = false) {
  await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
  const dialog = page.getByRole('dialog', { name: '提示' });
  if (expectTaxDialog) {
    await visible(dialog);
    expect(await dialog.textContent()).toContain('请补充企业税号，企业税号为空时无法使用发票/记账/申报');
    await dialog.getByRole('button', { name: '暂不补充' }).click();
    await hidden(dialog);
  }
  await visible(page.locator('tr.ant-table-row'));
}

/** The table row of an enterprise. */
const rowOf = (page: Page, name: string) => page.locator('tr.ant-table-row', { hasText: name });

async function rowAction(page: Page, name: string, action: string) {
  await rowOf(page, name).getByRole('button', { name: /更多/ }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('the client-enterprise book in the browser', () => {
  let admin: Page;

  it('creates an enterprise with credentials, sees them masked, and reveals them', async () => {
    admin = await product.newPage({ missingTaxDialog: true });
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await openBook(admin, true);
    await snap(admin, 'list');
    await admin.getByRole('button', { name: /新增客户/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新增客户' });
    await visible(dialog);
    await dialog.getByPlaceholder('与营业执照一致').fill(NAME);
    await dialog
      .getByPlaceholder('统一社会信用代码或纳税人识别号，6-20位')
      .fill(` ${QYSH.slice(0, 8)} ${QYSH.slice(8)}`);
    await dialog.getByRole('tab', { name: '登录信息' }).click();
    await dialog.getByPlaceholder('身份证号/手机号/用户名').fill('330106199001011234');
    await dialog.getByPlaceholder('电子税务局密码').fill('Etax#Pass2026');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(admin.getByText('保存成功'));
    await hidden(dialog);

    await searchClients(admin, '云帆数据');
    await visible(rowOf(admin, NAME));
    expect(await rowOf(admin, NAME).textContent()).toContain(QYSH);
    await rowOf(admin, NAME).getByRole('button', { name: NAME }).click();
    const drawer = admin.locator('.ant-drawer-section');
    await visible(drawer.getByText(NAME));
    await drawer.getByRole('tab', { name: '登录信息' }).click();
    await visible(drawer.getByText('330****1234'));
    expect(await drawer.textContent()).toContain('******');
    expect(await drawer.textContent()).not.toContain('Etax#Pass2026');
    // Revealing asks for a reason and the administrator's own password (issue 12).
    await drawer.getByRole('button', { name: /查看明文/ }).click();
    const reveal = admin.getByRole('dialog', { name: '查看账号密码' });
    await reveal.getByLabel('查看原因').fill('核对新建客户的登录信息');
    await reveal.getByLabel('登录密码').fill('Demo@2026');
    await reveal.getByRole('button', { name: /验证并查看/ }).click();
    await hidden(reveal);
    await visible(drawer.getByText('Etax#Pass2026'));
    await visible(drawer.getByText('330106199001011234'));
    await snap(admin, 'revealed');
    await admin.keyboard.press('Escape');
    await hidden(drawer);
  });

  it('imports a file with good and bad rows and downloads the failure file', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('客户导入');
    ws.addRow([...IMPORT_COLUMNS]);
    const blank = IMPORT_COLUMNS.map(() => '');
    ws.addRow(['导入甲号商贸有限公司', '91330106MA2H3C0Y2A', ...blank.slice(2)]);
    ws.addRow(['导入乙号科技有限公司', 'ABCD12345678', '一般纳税人', '浙江省', '杭州市', '西湖区', ...blank.slice(6)]);
    ws.addRow(['税号不对有限公司', '123', ...blank.slice(2)]);
    const file = join(dir, '客户导入.xlsx');
    await wb.xlsx.writeFile(file);

    await admin.getByRole('button', { name: /导入客户/ }).click();
    const dialog = admin.getByRole('dialog', { name: '导入客户' });
    await visible(dialog);
    await dialog.locator('input[type=file]').setInputFiles(file);
    await visible(dialog.getByText('客户导入.xlsx'));
    await dialog
      .getByRole('button', { name: /导\s*入/ })
      .last()
      .click();
    const result = admin.getByRole('dialog', { name: '导入结果' });
    await visible(result);
    expect((await result.getByTestId('import-result').innerText()).replace(/\s+/g, '')).toBe(
      '导入成功2条失败1条未导入0条',
    );
    await snap(admin, 'import-result');
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      result.getByRole('button', { name: /下载失败记录/ }).click(),
    ]);
    const saved = join(dir, 'fail.xlsx');
    await download.saveAs(saved);
    const failBook = new ExcelJS.Workbook();
    await failBook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
    const sheet = failBook.worksheets[0];
    expect(sheet?.getRow(2).getCell(2).text).toBe('税号不对有限公司');
    expect(sheet?.getRow(2).getCell(IMPORT_COLUMNS.length + 2).text).toBe('税号为6-20位，请输入符合规范的税号');
    await result.getByRole('button', { name: /完\s*成/ }).click();
    await searchClients(admin, '导入乙号');
    await visible(rowOf(admin, '导入乙号科技有限公司'));
    expect(await rowOf(admin, '导入乙号科技有限公司').textContent()).toContain('一般纳税人');
  });

  it('assigns an enterprise to a colleague, who gets the dispatch message', async () => {
    await searchClients(admin, '云帆数据');
    await rowAction(admin, NAME, '分配');
    const dialog = admin.getByRole('dialog', { name: '分配客户' });
    await visible(dialog);
    await dialog.locator('.ant-select').click();
    await admin.locator('.ant-select-item-option', { hasText: '张伟' }).click();
    await snap(admin, 'assign');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await visible(admin.getByText('分配成功'));
    await visible(rowOf(admin, NAME).getByText('张伟'));

    const zhang = await product.newPage({ missingTaxDialog: true });
    await signIn(zhang, product.baseUrl, ZHANG);
    const messages = await zhang.evaluate(async (path) => {
      const res = await fetch(`/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ msg_style_big: 1, pageNo: 1, pageSize: 10 }),
      });
      return (await res.json()) as { code: number; data: { list: { content: string }[] } };
    }, selectMsgListCall.path);
    expect(messages.code).toBe(200);
    expect(messages.data.list.map((m) => m.content)).toContain(`【客户分配提醒】您有新分配的客户：${NAME}`);
    // 张伟 now has it in his own book.
    await openBook(zhang, true);
    await searchClients(zhang, '云帆数据');
    await visible(rowOf(zhang, NAME));
    await zhang.context().close();
  });

  it('deletes to the recycle bin and restores', async () => {
    await searchClients(admin, '导入甲号');
    await rowAction(admin, '导入甲号商贸有限公司', '删除');
    const confirm = admin.getByRole('dialog', { name: '删除客户' });
    await visible(confirm);
    expect(await confirm.textContent()).toContain('删除后可在回收站恢复');
    await confirm.getByRole('button', { name: /删\s*除/ }).click();
    await visible(admin.getByText('删除成功'));
    await visible(admin.getByText('暂无客户'));

    await admin.goto(`${product.baseUrl}/#/customer/khgl/hsz`);
    await visible(rowOf(admin, '导入甲号商贸有限公司'));
    await snap(admin, 'recycle');
    await rowOf(admin, '导入甲号商贸有限公司')
      .getByRole('button', { name: /恢\s*复/ })
      .click();
    const restore = admin.getByRole('dialog', { name: '恢复客户' });
    await restore.getByRole('button', { name: /恢\s*复/ }).click();
    await visible(admin.getByText('恢复成功'));
    await visible(admin.getByText('回收站是空的'));

    await openBook(admin);
    await searchClients(admin, '导入甲号');
    await visible(rowOf(admin, '导入甲号商贸有限公司'));
  });
});
