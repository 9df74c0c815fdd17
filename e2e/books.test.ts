import {
  accountsCall,
  addAccountCall,
  type BookAccount,
  type BookClient,
  bookClientsCall,
  openingsCall,
  saveAuxItemCall,
  VOUCHER_IMPORT_COLUMNS,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  DEMO_ADMIN,
  openFromMenu,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/**
 * 账套管理 and 凭证 in Chromium against the real server: the administrator creates a book for a demo client,
 * enters opening balances that balance, enters a voucher with the keyboard only (summary, account by pinyin
 * initials, Enter to move on, '=' to balance), sees it numbered 记-1 in the list and reviews it. The
 * accountant 13800000001 opens the same pages.
 */

/** The voucher grid's cell that has the keyboard focus (`row:column`), or null. */
const focusedCell = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-cell]')?.getAttribute('data-cell') ?? null);

let product: Product;
const snap = screenshotsAt('books-');
/** The client whose book the first journey creates. */
let bookedAeiId = 0;

beforeAll(async () => {
  product = await startProduct({ sim: { latencyMs: 5 }, startMs: 180_000 });
}, 240_000);

afterAll(async () => {
  await product?.close();
});

describe('账套 and 凭证 in Chromium', () => {
  it('creates a book, balances the openings, enters a voucher by keyboard and reviews it', async () => {
    const page = await product.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await openFromMenu(page, '账务', '账套管理');
    await page.locator('.ant-radio-button-wrapper').filter({ hasText: '未建账' }).click();
    const setup = page.locator('[data-testid^="setup-"]').first();
    await visible(setup);
    bookedAeiId = Number((await setup.getAttribute('data-testid'))?.replace('setup-', ''));
    await snap(page, 'list');
    await setup.click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '新建账套' });
    await visible(dialog);
    await snap(page, 'setup');
    await dialog.getByRole('button', { name: /建\s*账/ }).click();

    // The book opens on its chart.
    const drawer = page.locator('.ant-drawer');
    await visible(drawer.getByText('库存现金'));
    await snap(page, 'chart');

    // Openings: 库存现金 10,000.00 against 实收资本 10,000.00.
    await drawer.getByRole('tab', { name: '期初余额' }).click();
    await page.getByTestId('opening-balance-1001').fill('10000');
    await visible(drawer.getByText('试算不平衡'));
    await drawer
      .getByRole('tabpanel', { name: '期初余额' })
      .locator('.ant-segmented-item')
      .filter({ hasText: '所有者权益' })
      .click();
    await page.getByTestId('opening-balance-3001').fill('10000');
    await visible(page.getByTestId('opening-trial').getByText('试算平衡'));
    await expect.poll(() => page.getByTestId('opening-trial').textContent()).toContain('10,000.00');
    await page.getByTestId('save-openings').click();
    await visible(page.getByText('已保存，期初试算平衡'));
    await snap(page, 'openings');
    await drawer.locator('.ant-drawer-close').click();

    // 凭证: the chooser remembers the book just opened.
    await openFromMenu(page, '账务', '凭证');
    await visible(page.getByTestId('new-voucher'));
    await page.getByTestId('new-voucher').click();
    await visible(page.getByTestId('voucher-grid'));
    await expect.poll(() => page.getByTestId('voucher-no').textContent()).toContain('第 1 号');
    await page.locator('[data-cell="0:summary"] input').click();
    // Keyboard only from here: the pointer away from the picker's list (a hovered option would be the active one).
    await page.mouse.move(0, 0);
    await page.keyboard.type('购办公用品');
    await page.keyboard.press('Enter');
    await page.keyboard.type('bgf');
    await visible(page.locator('.dzy-account-option').filter({ hasText: '560202' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-cell="0:account"] input').inputValue()).toContain('管理费用_办公费');
    await page.keyboard.type('1234.5');
    await page.keyboard.press('Enter');
    // The next row's 摘要 takes the one above.
    await expect.poll(() => page.locator('[data-cell="1:summary"] input').inputValue()).toBe('购办公用品');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1001');
    await visible(page.locator('.dzy-account-option').filter({ hasText: '库存现金' }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('=');
    await expect.poll(() => page.locator('[data-cell="1:credit"] input').inputValue()).toBe('1234.50');
    await expect.poll(() => page.getByTestId('debit-total').textContent()).toBe('1,234.50');
    await expect.poll(() => page.getByTestId('voucher-upper').textContent()).toBe('壹仟贰佰叁拾肆元伍角');
    await snap(page, 'entry');
    await page.keyboard.press('Control+s');
    await visible(page.getByText('已保存 记-1'));

    // The list shows 记-1 with its lines; review it.
    const row = page.locator('.ant-table-row').filter({ hasText: '记-1' });
    await visible(row);
    await expect.poll(() => row.textContent()).toContain('1,234.50');
    await expect.poll(() => page.getByTestId('voucher-sum').textContent()).toBe('1,234.50');
    await row.getByRole('button', { name: /审\s*核/ }).click();
    await visible(row.getByText('已审核'));
    await snap(page, 'vouchers');

    // 导入凭证 runs as a background job: the dialog follows it, then gives the result and the failure file.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('凭证导入');
    ws.addRow([...VOUCHER_IMPORT_COLUMNS]);
    ws.addRow(['2026-01-20', '1', '0', '提现备用', '1001', '', '500.00', '']);
    ws.addRow(['2026-01-20', '1', '0', '提现备用', '1002', '', '', '500.00']);
    ws.addRow(['2026-01-21', '2', '0', '错误凭证', '1001', '', '10.00', '']);
    ws.addRow(['2026-01-21', '2', '0', '错误凭证', '9999', '', '', '10.00']);
    await page.getByRole('button', { name: '导入凭证' }).click();
    const importDialog = page.locator('.ant-modal').filter({ hasText: '下载导入模板' });
    await importDialog.locator('input[type=file]').setInputFiles({
      name: '凭证.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
    const result = page.locator('.ant-modal').filter({ hasText: '下载失败记录' });
    await visible(result);
    // The dialog itself mentions 下载失败记录: wait for the job's result (a loaded machine takes a while).
    await expect.poll(() => result.textContent(), { timeout: 60_000 }).toContain('失败2条');
    await snap(page, 'import');
    const failures = page.waitForEvent('download');
    await result.getByText('下载失败记录').click();
    expect((await failures).suggestedFilename()).toBe('凭证导入失败记录.xlsx');
    await page.keyboard.press('Escape');
    await visible(page.locator('.ant-table-row').filter({ hasText: '提现备用' }));

    // An unbalanced voucher is refused with the rule's message.
    await page.getByTestId('new-voucher').click();
    await page.locator('[data-cell="0:summary"] input').click();
    await page.mouse.move(0, 0);
    await page.keyboard.type('测试');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1001');
    await visible(page.locator('.dzy-account-option').filter({ hasText: '库存现金' }));
    await page.keyboard.press('Enter');
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-cell="1:summary"] input').inputValue()).toBe('测试');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedCell(page)).toBe('1:account');
    await page.keyboard.type('1002');
    await visible(page.locator('.dzy-account-option').filter({ hasText: '银行存款' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedCell(page)).toBe('1:debit');
    await page.keyboard.press('Tab');
    await expect.poll(() => focusedCell(page)).toBe('1:credit');
    await page.keyboard.type('90');
    await page.keyboard.press('Enter');
    await visible(page.getByTestId('voucher-problem').getByText('借贷不平衡：借方合计100.00元，贷方合计90.00元'));
    await snap(page, 'unbalanced');
    expect(errors).toEqual([]);
  }, 240_000);

  it('enters 应收账款 openings per customer (辅助核算) and the account and the trial balance take their sum', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const api = <T>(path: string, data: unknown) => callAs<T>(page, path, data);
    const clients = await api<{ list: BookClient[] }>(bookClientsCall.path, { state: 'booked', pageSize: 100 });
    const bookId = clients.list.find((c) => c.aeiId === bookedAeiId)?.bookId ?? 0;
    expect(bookId).toBeGreaterThan(0);
    // The accountant's setup: 112201 往来客户 with 辅助核算 客户, and two customers.
    const chart = await api<{ list: BookAccount[] }>(accountsCall.path, { bookId });
    const parentId = chart.list.find((a) => a.code === '1122')?.id;
    await api(addAccountCall.path, { bookId, parentId, name: '往来客户', auxKinds: ['customer'] });
    await api(saveAuxItemCall.path, { bookId, kind: 'customer', code: 'C001', name: '杭州甲贸易有限公司' });
    await api(saveAuxItemCall.path, { bookId, kind: 'customer', code: 'C002', name: '杭州乙科技有限公司' });

    await openFromMenu(page, '账务', '账套管理');
    const search = page.getByPlaceholder('企业名称或税号');
    await search.fill(String(clients.list.find((c) => c.bookId === bookId)?.qymc));
    await search.press('Enter');
    await page.getByTestId(`open-book-${bookedAeiId}`).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: '期初余额' }).click();
    await page.getByTestId('opening-aux-112201').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '按客户录入期初' });
    await visible(dialog);
    // Two customers: 3,000.00 and 1,500.50 (pasted with a thousands separator).
    const pick = async (row: number, name: string) => {
      await dialog.locator('.dzy-aux-picker').nth(row).click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: name })
        .click();
    };
    await pick(0, '杭州甲贸易有限公司');
    await page.getByTestId('aux-opening-balance-0').fill('3,000');
    await page.getByTestId('aux-opening-add').click();
    await pick(1, '杭州乙科技有限公司');
    await page.getByTestId('aux-opening-balance-1').fill('1500.5');
    await expect.poll(() => dialog.textContent()).toContain('4,500.50');
    await snap(page, 'aux-openings');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    // The account shows the sum; the trial is off by exactly that until 实收资本 takes it.
    await expect.poll(() => drawer.getByRole('row').filter({ hasText: '112201' }).textContent()).toContain('4,500.50');
    await visible(page.getByTestId('opening-trial').getByText('试算不平衡'));
    await drawer
      .getByRole('tabpanel', { name: '期初余额' })
      .locator('.ant-segmented-item')
      .filter({ hasText: '所有者权益' })
      .click();
    await page.getByTestId('opening-balance-3001').fill('14500.50');
    await visible(page.getByTestId('opening-trial').getByText('试算平衡'));
    await page.getByTestId('save-openings').click();
    await visible(page.getByText('已保存，期初试算平衡'));
    // Stored per customer.
    const saved = await api<{ rows: { accountId: number; auxItemId: number; balance: number }[] }>(openingsCall.path, {
      bookId,
    });
    const leaf = (await api<{ list: BookAccount[] }>(accountsCall.path, { bookId })).list.find(
      (a) => a.code === '112201',
    );
    expect(
      saved.rows
        .filter((r) => r.accountId === leaf?.id)
        .map((r) => r.balance)
        .sort((a, b) => a - b),
    ).toEqual([150_050, 300_000]);
  }, 120_000);

  it('the accountant opens 账套管理, 凭证 and 记账设置', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, '13800000001');
    await openFromMenu(page, '账务', '账套管理');
    await visible(page.locator('.ant-table-row'));
    await snap(page, 'staff-list');
    await openFromMenu(page, '账务', '凭证');
    await visible(page.getByTestId('book-chooser'));
    await openFromMenu(page, '账务', '记账设置');
    await visible(page.getByRole('tab', { name: '常用凭证' }));
  }, 120_000);
});
