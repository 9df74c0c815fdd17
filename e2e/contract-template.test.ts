import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATE_IMPORT_COLUMNS, TEMPLATE_MSG } from '@dzy/shared';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const ZHANG = '13800000002';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
let dir: string;
beforeAll(async () => {
  product = await startProduct();
  dir = mkdtempSync(join(tmpdir(), 'dzy-e2e-tpl-'));
});
afterAll(async () => {
  await product?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `contract-template-${name}.png`) });
}

async function openTemplates(page: Page) {
  await page.goto(`${product.baseUrl}/#/contract/htsz/htmb`);
  await visible(page.locator('tr.ant-table-row:visible'));
}

// Pages stay mounted in their tabs: only the visible table's rows count.
const rowOf = (page: Page, name: string) => page.locator('tr.ant-table-row:visible', { hasText: name });
const toast = (page: Page, text: string) => visible(page.locator('.ant-message-notice', { hasText: text }));
const cellTexts = (row: Locator) => row.locator('td').allInnerTexts();

/** Chooses a service in the line's select (options are rendered in a popup). */
async function chooseService(page: Page, line: Locator, name: string) {
  const dropdown = page.locator('.ant-select-dropdown:visible');
  if ((await dropdown.count()) === 0) await line.locator('.ant-select').click();
  await dropdown.locator(`[title="${name}"]`).click();
  try {
    await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden', timeout: 2000 });
  } catch {
    // Still open (the choice was refused and cleared): close it by clicking outside.
    await page.locator('.ant-modal-title').first().click();
    await hidden(page.locator('.ant-select-dropdown:visible'));
  }
}

/** The text of a line's service select (its placeholder when nothing is chosen). */
const chosen = (line: Locator) => line.locator('.ant-select').innerText();

const lineRows = (dialog: Locator) => dialog.locator('.dzy-tpl-lines tr.ant-table-row');

describe('contract templates in the browser', () => {
  let admin: Page;

  it('lists the templates with the spec’s columns, coloured services and the settings tooltip', async () => {
    admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await openTemplates(admin);
    await snap(admin, 'list');
    const headers = await admin.locator('.ant-table-thead th').allInnerTexts();
    expect(headers.map((h) => h.trim()).filter(Boolean)).toEqual([
      '序号',
      '模板名称',
      '模板说明',
      '合同总价（元）',
      '服务项目',
      '模板状态',
      '操作',
    ]);
    expect(await admin.locator('.dzy-tpl-card tr.ant-table-row').count()).toBe(6);
    const all = await cellTexts(rowOf(admin, '全能套餐'));
    expect(all[0]).toBe('1');
    expect(all[3]).toBe('10700.00');
    // First two service names, then an ellipsis; each tag coloured by its job type.
    const tags = rowOf(admin, '全能套餐').locator('.dzy-tpl-services .ant-tag');
    expect(await tags.allInnerTexts()).toEqual(['记账报税', '社保代缴']);
    expect(await tags.first().getAttribute('class')).toContain('ant-tag-blue');
    expect(await tags.nth(1).getAttribute('class')).toContain('ant-tag-purple');
    expect(await rowOf(admin, '全能套餐').locator('.dzy-tpl-more').innerText()).toBe('…');
    expect(await rowOf(admin, '小规模全年').locator('.dzy-tpl-more').count()).toBe(0);
    // The settings icon's tooltip says whether the template is configured.
    await rowOf(admin, '小规模全年').locator('.dzy-tpl-setting').hover();
    await visible(admin.locator('.ant-tooltip', { hasText: TEMPLATE_MSG.configured }));
    await rowOf(admin, '全能套餐').locator('.dzy-tpl-setting').hover();
    await visible(admin.locator('.ant-tooltip', { hasText: TEMPLATE_MSG.notConfigured }));
    // It opens the settings view of an enabled template only.
    await rowOf(admin, '开票服务').locator('.dzy-tpl-setting').click();
    await toast(admin, TEMPLATE_MSG.settingsDisabled);
    await admin.mouse.move(700, 850);
    await hidden(admin.locator('.ant-tooltip:visible'));
    await rowOf(admin, '全能套餐').locator('.dzy-tpl-setting').click();
    const drawer = admin.locator('.ant-drawer-content-wrapper');
    await visible(drawer.getByText('模板设置：全能套餐'));
    await visible(drawer.locator('tr.ant-table-row', { hasText: '税务咨询' }));
    await drawer.getByRole('button', { name: '确认配置' }).click();
    await toast(admin, TEMPLATE_MSG.saved);
    await admin.locator('.ant-drawer-close').click();
    await hidden(drawer);
  });

  it('shows every rule of the template dialog, reorders lines by dragging and saves with the total', async () => {
    await admin.getByRole('button', { name: /新增合同模板/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新增合同模板' });
    await visible(dialog);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await toast(admin, TEMPLATE_MSG.incomplete);
    await visible(dialog.getByText(TEMPLATE_MSG.nameRequired));
    await visible(dialog.getByText(TEMPLATE_MSG.serviceRequired));
    expect(await dialog.getByText(TEMPLATE_MSG.amountRequired).count()).toBe(2);
    await snap(admin, 'dialog-empty');

    await dialog.getByPlaceholder('请输入模板名称').fill('一二三四五六七八九十一');
    await visible(dialog.getByText(TEMPLATE_MSG.nameTooLong));
    await dialog.getByPlaceholder('请输入模板名称').fill('浏览器模板');
    await dialog.getByPlaceholder('选填，例如适用的客户类型').fill('x'.repeat(51));
    await visible(dialog.getByText(TEMPLATE_MSG.descTooLong));
    await dialog.getByPlaceholder('选填，例如适用的客户类型').fill('在浏览器里新建');

    // Choosing a service takes its unit price, discount 0.00.
    const first = lineRows(dialog).nth(0);
    await chooseService(admin, first, '记账报税');
    const price = (line: Locator) => line.locator('input.ant-input').nth(0);
    const discount = (line: Locator) => line.locator('input.ant-input').nth(1);
    await expect.poll(() => price(first).inputValue()).toBe('300.00');
    expect(await discount(first).inputValue()).toBe('0.00');

    // Amount rules.
    await price(first).fill('12.345');
    await price(first).blur();
    await visible(dialog.getByText(TEMPLATE_MSG.amountPattern));
    await price(first).fill('12345678901');
    await price(first).blur();
    await visible(dialog.getByText(TEMPLATE_MSG.amountTooLong));
    await price(first).fill('3600');
    await discount(first).fill('4000');
    await discount(first).blur();
    // A discount above the unit price is reset to 0.00.
    await expect.poll(() => discount(first).inputValue()).toBe('0.00');
    await discount(first).fill('600');
    await discount(first).blur();
    expect(await cellTexts(first)).toContain('3000.00');
    // Changing 是否赠送 resets the discount; now price is the unit price again.
    await first.getByRole('switch').click();
    await expect.poll(() => discount(first).inputValue()).toBe('0.00');
    expect(await cellTexts(first)).toContain('3600.00');
    await discount(first).fill('600');
    await discount(first).blur();

    // A second line with the same service: 服务项目不可重复 and the choice is cleared.
    await dialog.getByRole('button', { name: /添加服务项目/ }).click();
    const second = lineRows(dialog).nth(1);
    await chooseService(admin, second, '记账报税');
    await toast(admin, TEMPLATE_MSG.serviceDuplicate);
    expect(await chosen(second)).toContain('请选择服务项目');
    await chooseService(admin, second, '工商年报');
    await expect.poll(() => price(second).inputValue()).toBe('200.00');
    await visible(dialog.getByTestId('tpl-total').getByText('¥3200.00'));
    await snap(admin, 'dialog-filled');

    // Drag the second line above the first.
    await dialog.getByTestId('drag-1').dragTo(lineRows(dialog).nth(0));
    await expect.poll(() => chosen(lineRows(dialog).nth(0))).toContain('工商年报');
    // Both lines present: each offers delete; with one left, none.
    expect(await dialog.getByRole('button', { name: '删除此行' }).count()).toBe(2);

    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await toast(admin, TEMPLATE_MSG.saved);
    await hidden(dialog);
    const row = rowOf(admin, '浏览器模板');
    await visible(row);
    const cells = await cellTexts(row);
    expect(cells[3]).toBe('3200.00');
    expect(await row.locator('.dzy-tpl-services .ant-tag').allInnerTexts()).toEqual(['工商年报', '记账报税']);

    // Editing shows the saved lines in their order (type 2).
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const edit = admin.getByRole('dialog', { name: '编辑合同模板' });
    await visible(edit);
    await visible(lineRows(edit).nth(1));
    await expect.poll(() => chosen(lineRows(edit).nth(0))).toContain('工商年报');
    await lineRows(edit).nth(0).getByRole('button', { name: '删除此行' }).click();
    expect(await edit.getByRole('button', { name: '删除此行' }).count()).toBe(0);
    await edit.getByRole('button', { name: /保\s*存/ }).click();
    await toast(admin, TEMPLATE_MSG.saved);
    await visible(rowOf(admin, '浏览器模板').getByText('3000.00'));
  });

  it('switches the status as an administrator; others are told 请联系管理员修改！', async () => {
    const sw = rowOf(admin, '零申报套餐').getByRole('switch');
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    await sw.click();
    await toast(admin, TEMPLATE_MSG.statusOff);
    await admin.waitForFunction(
      () =>
        document
          .querySelector('.dzy-tpl-card tr.ant-table-row[data-row-key="3"] [role="switch"]')
          ?.getAttribute('aria-checked') === 'false',
    );

    const zhang = await product.newPage();
    await signIn(zhang, product.baseUrl, ZHANG);
    await openTemplates(zhang);
    const theirs = zhang.getByRole('switch', { name: '模板状态 社保代缴' });
    await theirs.click();
    await toast(zhang, TEMPLATE_MSG.adminOnly);
    expect(await theirs.getAttribute('aria-checked')).toBe('true');
    await zhang.context().close();
  });

  it('asks before deleting, then goes back to page 1', async () => {
    await rowOf(admin, '开票服务')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    const confirm = admin.locator('.ant-modal-confirm');
    await visible(confirm.getByText(TEMPLATE_MSG.deleteConfirm));
    await snap(admin, 'delete-confirm');
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await toast(admin, TEMPLATE_MSG.deleted);
    await hidden(rowOf(admin, '开票服务'));
  });

  it('imports templates from a file, shows the result and offers the failure list; pages with continuing numbers', async () => {
    await admin.locator('.dzy-tpl-toolbar .ant-space-compact button').nth(1).click();
    await admin.getByRole('menuitem', { name: '批量导入' }).click();
    const dialog = admin.getByRole('dialog', { name: '批量导入合同模板' });
    await visible(dialog);
    const width = await admin.evaluate(() =>
      Math.max(
        ...[...document.querySelectorAll<HTMLElement>('.ant-modal')]
          .filter((m) => m.textContent?.includes('批量导入合同模板'))
          // offsetWidth: the layout width, not the opening animation's scaled box.
          .map((m) => m.offsetWidth),
      ),
    );
    expect(width).toBe(650);
    const htmb = admin.waitForEvent('download');
    await dialog.getByRole('button', { name: /htmb_temp\.xlsx/ }).click();
    expect((await htmb).suggestedFilename()).toBe('htmb_temp.xlsx');
    await dialog.getByRole('button', { name: /^导\s*入$/ }).click();
    await toast(admin, '请上传文件');

    const xls = join(dir, '模板.xls');
    writeFileSync(xls, 'not a spreadsheet');
    await dialog.locator('input[type=file]').setInputFiles(xls);
    await toast(admin, '文件格式有误，请检查后再上传!');

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('合同模板');
    ws.addRow([...TEMPLATE_IMPORT_COLUMNS]);
    for (let i = 1; i <= 25; i++) ws.addRow([`导入${i}`, '', '记账报税', '否', i === 13 ? '1.234' : `${i}00`, '0']);
    const file = join(dir, '合同模板.xlsx');
    writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
    await dialog.locator('input[type=file]').setInputFiles(file);
    await visible(dialog.getByText('合同模板.xlsx'));
    // Only one file: a second choice is refused while one is chosen.
    await dialog.locator('input[type=file]').setInputFiles(file);
    await toast(admin, '当前限制上传 1 个文件');
    await dialog.getByRole('button', { name: /^导\s*入$/ }).click();

    const result = admin.getByRole('dialog', { name: '导入结果' });
    await visible(result);
    expect((await result.getByTestId('import-result').innerText()).replace(/\s+/g, '')).toBe(
      '导入成功24条失败1条未导入0条',
    );
    await snap(admin, 'import-result');
    const download = admin.waitForEvent('download');
    await result.getByRole('button', { name: /下载失败记录/ }).click();
    expect((await download).suggestedFilename()).toBe('批量导入合同模板失败记录.xlsx');
    await result.getByRole('button', { name: /完\s*成/ }).click();
    await hidden(result);

    // 6 seeded - 1 deleted + 1 added + 24 imported = 30: three pages of 10, numbers continue.
    await visible(admin.getByText('共 30 条'));
    await admin.locator('.ant-pagination-item-2').click();
    await admin.waitForFunction(
      () => document.querySelector('.dzy-tpl-card tr.ant-table-row td')?.textContent === '11',
    );
    await admin.locator('.ant-pagination-options .ant-select').click();
    for (const size of ['10 条/页', '20 条/页', '30 条/页', '50 条/页']) {
      await visible(admin.locator('.ant-select-dropdown').getByText(size));
    }
    await admin.locator('.ant-select-dropdown').getByText('20 条/页').click();
    await admin.waitForFunction(() => document.querySelectorAll('.dzy-tpl-card tr.ant-table-row').length === 20);

    // Query by name, then reset.
    await admin.getByPlaceholder('请输入模板名称').fill('导入2');
    await admin.getByRole('button', { name: /查\s*询/ }).click();
    await visible(admin.getByText('共 7 条'));
    await admin.getByRole('button', { name: /重\s*置/ }).click();
    await visible(admin.getByText('共 30 条'));
  });

  it('manages service items: add with a job type, switch off', async () => {
    await admin.goto(`${product.baseUrl}/#/contract/htsz/fwxm`);
    await visible(rowOf(admin, '记账报税'));
    await admin.getByRole('button', { name: /新增服务项目/ }).click();
    const dialog = admin.getByRole('dialog', { name: '新增服务项目' });
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(dialog.getByText('请输入服务名称'));
    await visible(dialog.getByText('请选择业务类型'));
    await dialog.getByPlaceholder('例如 记账报税').fill('审计报告');
    await dialog.locator('.ant-select').click();
    await admin.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('咨询').click();
    await dialog.getByPlaceholder('0.00').fill('1.234');
    await visible(dialog.getByText('请输入正确的单价（最多两位小数）'));
    await dialog.getByPlaceholder('0.00').fill('1500');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await toast(admin, '保存成功');
    const row = rowOf(admin, '审计报告');
    await visible(row);
    expect(await cellTexts(row)).toContain('1500.00');
    await snap(admin, 'services');
    await row.getByRole('switch').click();
    await toast(admin, '已停用');
  });
});
