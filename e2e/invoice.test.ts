import { BENEFIT_MENU, EQUITY_MSG, usccCheckChar } from '@dzy/shared';
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

/** 销项发票 in Chromium against the simulated bureau: reach it from the menu, issue with a code lookup, 红冲. */

let product: Product;
let page: Page;
const shots = screenshotsAt('invoice-');
const first17 = '91330106MA2H3C0X1';
const buyerTaxNo = first17 + usccCheckChar(first17);
/** An ordinary staff member of the demo agency (张会计). */
const STAFF = '13800000002';

async function signInApi(account: string) {
  const res = await fetch(`${product.baseUrl}/api/userext/v1.0/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account, password: DEMO_PASSWORD }),
  });
  const body = (await res.json()) as { data: { token: { id: number } } };
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('dzy_session=')) ?? '').split(';')[0] ?? '';
  return { cookie, userId: body.data.token.id };
}

async function api<T>(cookie: string, path: string, body: unknown): Promise<{ code: number; msg: string; data: T }> {
  const res = await fetch(`${product.baseUrl}/api/${path}`, {
    method: 'POST',
    // As the product's page would send it: a cookie-carrying POST needs its Origin (plugins/security.ts).
    headers: { 'content-type': 'application/json', cookie, origin: product.baseUrl },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/**
 * The administrator's clients with a tax number, not held back by a contract reminder, split by the paid
 * 开具发票 right (the demo agency's own benefits have expired, so each client's rights decide).
 */
async function clientsByRight() {
  const { cookie } = await signInApi(DEMO_ADMIN);
  const list = await api<{ list: { id: number; qymc: string; qysh: string }[] }>(
    cookie,
    'user/agency/selectChooserEnterprise',
    { pageNum: 1, pageSize: 50 },
  );
  const facts = await api<{ entitledIds: number[] }>(cookie, 'equity/agency/equity/checkEnterpriseEquity', {
    menuid: BENEFIT_MENU.invoiceIssue,
    aeiIds: list.data.list.map((c) => c.id),
  });
  expect(facts.code, facts.msg).toBe(200);
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date()).slice(0, 7);
  const open: { id: number; qymc: string; entitled: boolean }[] = [];
  for (const c of list.data.list.filter((x) => x.qysh)) {
    const sum = await api<{ blocked: string }>(cookie, 'user/fp/xxfp/billingSummary', {
      aeiId: c.id,
      month,
      live: false,
    });
    if (sum.code === 200 && !sum.data.blocked) open.push({ ...c, entitled: facts.data.entitledIds.includes(c.id) });
  }
  const entitled = open.find((c) => c.entitled);
  const bare = open.filter((c) => !c.entitled);
  if (!entitled || bare.length < 2) throw new Error('the demo book should have clients with and without the right');
  return { cookie, entitled, bare };
}

/** Opens 销项发票 for the client, presses 开具发票 and expects the 权益提示 instead of the form. */
async function expectEquityDialog(p: Page, aeiId: number, shot: string) {
  await p.goto(`${product.baseUrl}/#/moreModuleCloudInvoice/xxfp?aeiId=${aeiId}`);
  const open = p.getByTestId('invoice-open-issue');
  await visible(open, 30_000);
  await expect.poll(() => open.isEnabled(), { timeout: 20_000 }).toBe(true);
  await open.click();
  const dialog = p.locator('.ant-modal-confirm');
  await visible(dialog.locator('.ant-modal-confirm-title', { hasText: EQUITY_MSG.title }));
  await visible(dialog.getByText(EQUITY_MSG.agencyExpired));
  await shots(p, shot);
  await dialog.getByRole('button', { name: '知道了' }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect(await p.locator('.ant-drawer-open').count()).toBe(0);
}

beforeAll(async () => {
  product = await startProduct();
  page = await product.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, product.baseUrl, DEMO_ADMIN);
}, 120_000);
afterAll(async () => {
  await product?.close();
});

describe('销项发票', () => {
  let fphm = '';
  let clients: Awaited<ReturnType<typeof clientsByRight>>;

  it('is reached from the menu and shows the client’s month with its quota', async () => {
    clients = await clientsByRight();
    await openFromMenu(page, '发票', '销项发票');
    await page.waitForURL(/moreModuleCloudInvoice\/xxfp/);
    // A client holding the paid right (the others get the 权益提示, below).
    await page.goto(`${product.baseUrl}/#/moreModuleCloudInvoice/xxfp?aeiId=${clients.entitled.id}`);
    await visible(page.getByTestId('invoice-summary'));
    await expect.poll(() => page.getByTestId('invoice-summary').textContent(), { timeout: 20_000 }).toMatch(/¥\d/);
    await visible(page.getByTestId('invoice-open-issue'));
    await expect.poll(() => page.getByTestId('invoice-open-issue').isEnabled(), { timeout: 20_000 }).toBe(true);
    await shots(page, 'list');
  }, 60_000);

  it('issues an invoice with a 税收分类编码 lookup and shows its number in the list', async () => {
    await page.getByTestId('invoice-open-issue').click();
    const drawer = page.locator('.ant-drawer-section');
    await visible(drawer.getByText('购买方'));
    // The client's 开票方式 (none set in the demo: 数电, the one way the product issues).
    expect(await drawer.getByTestId('invoice-kpfs').textContent()).toBe('数电发票（乐企/电子税务局）');
    await drawer.getByRole('combobox').first().fill('浏览器测试购买方有限公司');
    await drawer.getByTestId('invoice-buyer-taxno').fill(` ${buyerTaxNo.toLowerCase()} `);
    await drawer.getByTestId('invoice-code').click();
    await page.keyboard.type('餐饮');
    const option = page.locator('.ant-select-item-option', { hasText: '餐饮服务' });
    await visible(option);
    await option.first().click();
    await drawer.getByTestId('invoice-line-je').fill('1060');
    await expect.poll(() => drawer.getByTestId('invoice-totals').textContent()).toContain('壹仟零陆拾元整');
    await shots(page, 'issue');
    await drawer.getByTestId('invoice-issue').click();
    const issued = page.getByTestId('invoice-issued-no');
    await visible(issued, 30_000);
    fphm = (/\d{20}/.exec((await issued.textContent()) ?? '') ?? [''])[0];
    expect(fphm).toMatch(/^\d{20}$/);
    await page.getByRole('button', { name: /^完\s*成$/ }).click();
    await visible(page.locator('.ant-table-row', { hasText: fphm }));
  }, 90_000);

  it('红冲 asks first, then shows the blue as 已红冲 and the red invoice in the list', async () => {
    const row = page.locator('.ant-table-row', { hasText: fphm });
    await row.getByRole('button', { name: /^红\s*冲$/ }).click();
    await page.getByRole('button', { name: '下一步' }).click();
    await visible(page.getByText('红冲后不能撤销'));
    await shots(page, 'red-confirm');
    await page.getByTestId('invoice-red-confirm').click();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain('已红冲');
    await visible(page.locator('.ant-table-row', { hasText: '红字发票' }));
    expect(
      await page
        .locator('.ant-table-row', { hasText: '-1,060.00' })
        .or(page.locator('.ant-table-row', { hasText: '-1060.00' }))
        .count(),
    ).toBeGreaterThan(0);
    await shots(page, 'after-red');
  }, 90_000);

  it('权益提示: a client without the paid 开具发票 right gets the dialog, not the form (administrator)', async () => {
    await expectEquityDialog(page, clients.bare[0]?.id ?? 0, 'equity-admin');
  }, 90_000);

  it('权益提示 for an ordinary staff member too, on a client of their own', async () => {
    // The demo's staff member holds only clients with the right: the administrator gives them one without.
    const staff = await signInApi(STAFF);
    const bare = clients.bare[1] as { id: number };
    const given = await api(clients.cookie, 'user/agency/allocateAgencyEnterprise', {
      aeiIds: [bare.id],
      userId: staff.userId,
    });
    expect(given.code, given.msg).toBe(200);
    const staffPage = await product.newPage();
    try {
      await signIn(staffPage, product.baseUrl, STAFF);
      await expectEquityDialog(staffPage, bare.id, 'equity-staff');
    } finally {
      await staffPage.close();
    }
  }, 120_000);
});
