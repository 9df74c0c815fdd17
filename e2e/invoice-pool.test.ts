import { BENEFIT_MENU } from '@dzy/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_PASSWORD,
  openFromMenu,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/**
 * 发票池, 进项发票 and 发票统计 in Chromium against the simulated bureau: collect a month for every client,
 * see the progress and the tax-retrieval error dialog, retry the chosen failed client; tick and confirm a
 * client's input invoices; the statistics.
 */

let product: Product;
let page: Page;
let cookie = '';
const shots = screenshotsAt('invoice-pool-');

async function api<T>(path: string, body: unknown): Promise<{ code: number; msg: string; data: T }> {
  const res = await fetch(`${product.baseUrl}/api/${path}`, {
    method: 'POST',
    // As the product's page would send it: a cookie-carrying POST needs its Origin (plugins/security.ts).
    headers: { 'content-type': 'application/json', cookie, origin: product.baseUrl },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

const thisMonth = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date()).slice(0, 7);

beforeAll(async () => {
  product = await startProduct({ startMs: 240_000 });
  page = await product.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, product.baseUrl, DEMO_ADMIN);
  const res = await fetch(`${product.baseUrl}/api/userext/v1.0/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account: DEMO_ADMIN, password: DEMO_PASSWORD }),
  });
  cookie = (res.headers.getSetCookie().find((c) => c.startsWith('dzy_session=')) ?? '').split(';')[0] ?? '';
}, 300_000);
afterAll(async () => {
  await product?.close();
});

describe('发票池', () => {
  it('collects a month for every client with progress, lists failures with a reason each, and retries the chosen one', async () => {
    await openFromMenu(page, '发票', '发票池');
    await page.waitForURL(/moreModuleCloudInvoice\/fpc/);
    // One client's invoice service refuses for now: it fails with that reason, and succeeds on the retry.
    const clients = await api<{ list: { id: number; qymc: string; qysh: string }[] }>(
      'user/invoicepool/selectFpPoolCustomers',
      { keyword: '', pageNo: 1, pageSize: 20 },
    );
    const victim = clients.data.list.find((c) => c.qysh) as { qymc: string; qysh: string };
    await fetch(`${product.bureauUrl}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        qysh: victim.qysh,
        path: 'fp/cxfp',
        refuse: 'always',
        refuseMsg: '发票服务暂不可用，请稍后再试',
      }),
    });
    await page.getByTestId('pool-collect').click();
    await visible(page.getByTestId('pool-run-progress'), 20_000);
    await shots(page, 'collecting');
    // The run ends with failures: the dialog opens by itself with a reason per client.
    const dialog = page.locator('.ant-modal', { hasText: '取数失败企业' });
    await visible(dialog, 480_000);
    await expect.poll(() => page.getByTestId('pool-run-counts').textContent(), { timeout: 30_000 }).toContain('已完成');
    const row = dialog.locator('.ant-table-row', { hasText: victim.qymc });
    await visible(row);
    expect(await row.textContent()).toContain('发票服务暂不可用，请稍后再试');
    await shots(page, 'failures');
    // 重试 without a choice: 请选择企业.
    await dialog.getByTestId('pool-retry').click();
    await visible(page.getByText('请选择企业'));
    await fetch(`${product.bureauUrl}/admin/faults`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qysh: victim.qysh }),
    });
    await row.locator('.ant-checkbox-input').check();
    await dialog.getByTestId('pool-retry').click();
    await visible(page.getByText(/已重新采集 1 户/));
    // The retried client is collected: the dialog (reopened when the run ends again) no longer lists it.
    await expect
      .poll(
        async () => {
          const shown = await dialog.isVisible();
          if (!shown)
            await page
              .getByTestId('pool-show-failures')
              .click({ timeout: 2000 })
              .catch(() => {});
          return dialog.locator('.ant-table-row', { hasText: victim.qymc }).count();
        },
        { timeout: 120_000 },
      )
      .toBe(0);
    await page.keyboard.press('Escape');
    await dialog
      .getByRole('button', { name: '关闭' })
      .click()
      .catch(() => {});
    // The collected invoices of the month.
    await visible(page.locator('.ant-table-row').first(), 30_000);
    await expect.poll(() => page.getByTestId('pool-xx-sums').textContent()).toMatch(/共 [1-9]\d* 张/);
    await shots(page, 'list');
  }, 720_000);
});

describe('进项发票', () => {
  it('ticks a client’s input 专票 and confirms the period in the background', async () => {
    const month = thisMonth();
    // This month collected for the first clients of the book (through the call the 采集 button makes).
    const first = await api<{ list: { id: number; qysh: string; qymc: string }[] }>(
      'user/invoicepool/selectFpPoolCustomers',
      {
        keyword: '',
        pageNo: 1,
        pageSize: 20,
      },
    );
    const aeiIds = first.data.list.filter((c) => c.qysh).map((c) => c.id);
    const run = await api<{ taskId: string }>('user/invoicepool/sendTaskToFpPool', {
      month,
      scope: 'selected',
      aeiIds,
    });
    expect(run.code, run.msg).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await api<{ list: { state: string }[] }>('user/invoicepool/getFpPoolStatusByTaskIds', {
              taskIds: [run.data.taskId],
            })
          ).data.list[0]?.state,
        { timeout: 300_000, interval: 1000 },
      )
      .toBe('done');
    // A general taxpayer holding the paid 进项勾选确认 right (the others get the 权益提示 instead) with a 专票 to tick.
    const rights = await api<{ entitledIds: number[] }>('equity/agency/equity/checkEnterpriseEquity', {
      menuid: BENEFIT_MENU.invoiceInput,
      aeiIds,
    });
    expect(rights.code, rights.msg).toBe(200);
    let client: { aeiId: number; qymc: string; fphm: string } | undefined;
    for (const aeiId of rights.data.entitledIds) {
      // Only a general taxpayer (nsrlx '0') may tick input invoices at the bureau.
      const kind = await api<{ nsrlx: string }>('user/fp/xxfp/billingSummary', { aeiId, month, live: false });
      if (kind.data?.nsrlx !== '0') continue;
      const zp = await api<{ list: { aeiId: number; qymc: string; fphm: string }[] }>(
        'invoice-pool/statistic/queryFpJxfp',
        { month, aeiId, fplx: 'zp', state: 'normal', pageSize: 20 },
      );
      client = zp.data.list[0];
      if (client) break;
    }
    if (!client) throw new Error('no client with the right has an input 专票 this month');
    expect(client).toBeDefined();

    await openFromMenu(page, '发票', '进项发票');
    await page.waitForURL(/moreModuleCloudInvoice\/jxfp/);
    await shots(page, 'input-empty');
    // A client without the right: 全部勾选 shows the 权益提示 and ticks nothing.
    const bare = first.data.list.find((c) => c.qysh && !rights.data.entitledIds.includes(c.id));
    if (!bare) throw new Error('the demo book should have a client without the right');
    await page.getByTestId('jx-client').click();
    await page.keyboard.type(bare.qymc.slice(0, 6));
    await page.locator('.ant-select-item-option', { hasText: bare.qymc }).first().click();
    await expect.poll(() => page.getByTestId('jx-tick-all').isEnabled(), { timeout: 20_000 }).toBe(true);
    await page.getByTestId('jx-tick-all').click();
    const notice = page.locator('.ant-modal-confirm');
    await visible(notice.locator('.ant-modal-confirm-title', { hasText: '权益提示' }));
    await shots(page, 'input-equity');
    await notice.getByRole('button', { name: '知道了' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByTestId('jx-client').click();
    await page.keyboard.type(client.qymc.slice(0, 6));
    const option = page.locator('.ant-select-item-option', { hasText: client.qymc });
    await visible(option);
    await option.first().click();
    const row = page.locator('.ant-table-row', { hasText: client.fphm });
    await visible(row, 30_000);
    await row.locator('.ant-checkbox-input').check();
    await page.getByTestId('jx-tick').click();
    await visible(page.getByText(/勾选成功 1 张/));
    await expect.poll(() => page.getByTestId('jx-selected-count').textContent()).toContain('1 张');
    await expect.poll(() => row.textContent()).toContain('已勾选');
    await page.getByTestId('jx-tick-all').click();
    await expect.poll(() => page.getByTestId('jx-deductible-tax').textContent()).not.toContain('0.00');
    await shots(page, 'input-ticked');
    await page.getByTestId('jx-confirm').click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: '确 认' })
      .or(page.locator('.ant-modal-confirm').getByRole('button', { name: '确认' }))
      .click();
    await visible(page.getByTestId('pool-run-progress'), 20_000);
    await expect.poll(() => page.getByTestId('jx-period-state').textContent(), { timeout: 60_000 }).toContain('已确认');
    await expect.poll(() => page.getByTestId('jx-confirmed-tax').textContent()).not.toBe('已确认税额0.00');
    await expect.poll(() => row.textContent()).toContain('已确认');
    await shots(page, 'input-confirmed');
  }, 360_000);
});

describe('发票统计', () => {
  it('shows the trend, the make-up by rate and kind, and the top parties', async () => {
    await openFromMenu(page, '发票', '发票统计');
    await page.waitForURL(/moreModuleCloudInvoice\/fptj/);
    await visible(page.getByTestId('tj-trend'), 20_000);
    await expect.poll(() => page.getByTestId('tj-sums').textContent()).toMatch(/销项金额[1-9]/);
    await visible(page.getByTestId('tj-xx-rate').locator('.dzy-pool-share-row'));
    await visible(page.getByTestId('tj-buyers').locator('.ant-table-row'));
    await shots(page, 'stats');
  }, 120_000);
});
