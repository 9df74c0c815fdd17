import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const ZHANG = '13800000002';
const EDIT_BUTTONS = ['新增部门', '新增下级部门', '编辑部门', '删除部门'];

const visible = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

/** Opens 设置角色 for a member on the 成员角色 tab, ticks or unticks roles, and saves. */
async function setRoles(page: Page, member: string, roles: Record<string, boolean>) {
  await page.getByRole('tab', { name: '成员角色' }).click();
  await page
    .getByRole('row', { name: new RegExp(member) })
    .getByRole('button', { name: '设置角色' })
    .click();
  const dialog = page.getByRole('dialog', { name: '设置角色与岗位' });
  await visible(dialog);
  for (const [role, on] of Object.entries(roles)) {
    const box = dialog.getByRole('checkbox', { name: role });
    if (on) await box.check();
    else await box.uncheck();
  }
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await visible(page.getByText('设置成功'));
  await hidden(dialog);
}

/** The 编辑部门 buttons 张伟 can see on 部门管理. */
async function editButtonsOn(page: Page): Promise<string[]> {
  const shown: string[] = [];
  for (const name of EDIT_BUTTONS) {
    // Exact names ('新增部门' carries its icon's label before it).
    if (await page.getByRole('button', { name: new RegExp(`(^|\\s)${name}$`) }).isVisible()) shown.push(name);
  }
  return shown;
}

describe('roles and permissions: the buttons follow the roles', () => {
  it('the administrator builds a role in the permission tree and gives 张伟 部门主管; the buttons come and go with it', async () => {
    const admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await admin.goto(`${product.baseUrl}/#/nested/manage/role`);
    await visible(admin.getByRole('cell', { name: '部门主管' }));

    // A role that may only look at departments.
    await admin.getByRole('button', { name: /新增角色/ }).click();
    const roleDialog = admin.getByRole('dialog', { name: '新增角色' });
    await roleDialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(roleDialog.getByText('请输入角色名称'));
    await roleDialog.getByLabel('角色名称').fill('部门查看');
    await roleDialog.getByLabel('备注').fill('只能查看部门与成员');
    await roleDialog.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(roleDialog);
    const row = admin.getByRole('row', { name: /部门查看/ });
    await visible(row.getByText('未设置'));

    await row.getByRole('button', { name: '功能权限' }).click();
    const drawer = admin.locator('.ant-drawer').filter({ hasText: '功能权限 · 部门查看' });
    await visible(drawer.getByText('已勾选'));
    await drawer
      .locator('.ant-tree-treenode')
      .filter({ hasText: 'org:dept:view' })
      .locator('.ant-tree-checkbox')
      .click();
    await expect.poll(() => drawer.locator('.dzy-perm-tree-head').textContent()).toMatch(/已勾选 1 \/ \d+ 项/);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await hidden(drawer);
    await visible(row.getByText('1 项'));

    // 张伟 gets 部门主管 and 部门查看 besides 普通员工.
    await setRoles(admin, '张伟', { 部门主管: true, 部门查看: true });
    await visible(admin.getByRole('row', { name: /张伟/ }).getByText('部门主管'));

    const zhang = await product.newPage();
    await signIn(zhang, product.baseUrl, ZHANG);
    // 普通员工 alone shows no 部门管理 in the menu.
    await zhang.goto(`${product.baseUrl}/#/nested/manage/department`);
    await visible(zhang.getByRole('cell', { name: /李晓梅/ }));
    expect(await editButtonsOn(zhang)).toEqual(EDIT_BUTTONS);
    expect(await zhang.getByRole('menuitem', { name: '角色权限' }).isVisible()).toBe(true);

    // The administrator takes 部门主管 away again.
    await setRoles(admin, '张伟', { 部门主管: false });
    await visible(admin.getByRole('row', { name: /张伟/ }).getByText('部门查看'));
    await hidden(admin.getByRole('row', { name: /张伟/ }).getByText('部门主管'));

    // 张伟 reloads: the page stays (部门查看), the editing buttons are gone, and so is 角色权限.
    await zhang.reload();
    await visible(zhang.getByRole('cell', { name: /李晓梅/ }));
    expect(await editButtonsOn(zhang)).toEqual([]);
    expect(await zhang.getByRole('button', { name: '调整部门' }).count()).toBe(0);
    expect(await zhang.getByRole('menuitem', { name: '部门管理' }).isVisible()).toBe(true);
    expect(await zhang.getByRole('menuitem', { name: '角色权限' }).count()).toBe(0);
  });

  it('the default role cannot be deleted, and deleting another asks first', async () => {
    const admin = await product.newPage();
    await signIn(admin, product.baseUrl, DEMO_ADMIN);
    await admin.goto(`${product.baseUrl}/#/nested/manage/role`);
    await visible(admin.getByRole('cell', { name: '部门查看' }));
    expect(
      await admin
        .getByRole('row', { name: /普通员工/ })
        .getByRole('button', { name: '删除' })
        .isDisabled(),
    ).toBe(true);

    await admin
      .getByRole('row', { name: /部门查看/ })
      .getByRole('button', { name: '删除' })
      .click();
    await visible(admin.getByText(/1 名成员持有「部门查看」/));
    await admin
      .getByRole('button', { name: /删\s*除/ })
      .last()
      .click();
    await visible(admin.getByText('删除成功'));
    await hidden(admin.getByRole('cell', { name: '部门查看' }));
  });
});
