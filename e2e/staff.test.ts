import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const AGENCY = '演示财税代理有限公司';
const INVITEE = '13800000009';

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

/** Saves a picture of the page when E2E_SHOTS_DIR is set (for looking at, not for asserting). */
async function snap(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** The 客户数 cell of a member's row in the staff table. */
async function clientCountOf(page: Page, name: string): Promise<string> {
  const row = page.getByRole('row', { name: new RegExp(name) });
  return ((await row.locator('td').nth(5).textContent()) ?? '').trim();
}

describe('staff administration in the browser', () => {
  let admin: Page;
  let inviteLink = '';

  it('the administrator invites 13800000009 and sees it in the invite log', async () => {
    admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await admin.goto(`${product.baseUrl}/#/nested/manage/staff`);
    await visible(admin.getByRole('row', { name: /张伟/ }));
    await admin.getByRole('button', { name: '邀请员工' }).click();
    const dialog = admin.getByRole('dialog', { name: '邀请员工' });
    await dialog.getByLabel('手机号').fill(INVITEE);
    await dialog.getByLabel('姓名').fill('周小青');
    await dialog.getByLabel('部门员工').check();
    await dialog.getByRole('button', { name: '发送邀请' }).click();
    await visible(admin.getByText('发送邀请成功'));
    await hidden(dialog);
    await admin.getByRole('tab', { name: '邀请记录' }).click();
    const row = admin.getByRole('row', { name: new RegExp(INVITEE) });
    await visible(row);
    expect(await row.textContent()).toContain('待接受');

    const sms = await product.lastSms(INVITEE);
    expect(sms).toContain(AGENCY);
    const path = sms.match(/#\/acceptInvite\?id=\d+/)?.[0];
    expect(path).toBeTruthy();
    inviteLink = `${product.baseUrl}/${path}`;
  });

  it('the invitee opens the link, signs up by SMS code, accepts and sees the agency', async () => {
    const page = await product.newPage();
    await page.goto(inviteLink);
    await visible(page.getByText('您收到一份加入代理机构的邀请'));
    await snap(page, 'e2e-accept-signed-out');
    await page.getByRole('button', { name: '登录 / 注册后查看邀请' }).click();
    await page.waitForURL(/#\/login\?redirect=/);

    await page.getByRole('tab', { name: '验证码登录' }).click();
    await page.getByPlaceholder('手机号', { exact: true }).fill(INVITEE);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => product.lastSms(INVITEE), { timeout: 10_000 }).toMatch(/验证码为\d{6}/);
    const code = (await product.lastSms(INVITEE)).match(/验证码为(\d{6})/)?.[1] ?? '';
    await page.getByPlaceholder('6位验证码').fill(code);
    await page.getByRole('checkbox').check();
    await page
      .getByRole('tabpanel')
      .getByRole('button', { name: /^登\s*录$/ })
      .click();

    // Back on the invitation, now signed in as the invitee.
    await page.waitForURL(/#\/acceptInvite\?id=\d+/);
    await visible(page.getByText(AGENCY));
    await visible(page.getByText('王建国 邀请您加入本机构'));
    await snap(page, 'e2e-accept-pending');
    await page.getByRole('button', { name: '接受邀请并加入' }).click();
    await visible(page.getByText(`已加入「${AGENCY}」`));
    await page.waitForURL(/#\/dashboard/);
    await visible(page.locator('header').getByText(AGENCY));
    await snap(page, 'e2e-accepted-dashboard');
    await page.context().close();
  });

  it("the administrator hands 张伟's clients over to 李晓梅: the counts move 20 → 0 and 20 → 40", async () => {
    await admin.getByRole('tab', { name: /员工列表/ }).click();
    await admin.reload();
    await visible(admin.getByRole('row', { name: /周小青/ }));
    expect(await clientCountOf(admin, '张伟')).toBe('20');
    expect(await clientCountOf(admin, '李晓梅')).toBe('20');

    await admin.getByRole('row', { name: /张伟/ }).getByRole('button', { name: '工作交接' }).click();
    const dialog = admin.getByRole('dialog', { name: '工作交接' });
    await visible(dialog.getByText('20 家'));
    await dialog.getByRole('combobox').click();
    await admin.getByTitle(/李晓梅 · 记账一部/).click();
    await visible(dialog.getByText('交接后'));
    await snap(admin, 'e2e-handover-dialog');
    await dialog.getByRole('button', { name: '确认交接' }).click();
    await visible(admin.getByText(/交接成功/));
    await hidden(dialog);

    await expect.poll(() => clientCountOf(admin, '张伟'), { timeout: 10_000 }).toBe('0');
    expect(await clientCountOf(admin, '李晓梅')).toBe('40');
    await snap(admin, 'e2e-after-handover');
  });
});
