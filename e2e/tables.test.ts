import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterLayout, DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

/**
 * Tables that fit (issue 12, points 7 and 8): the main lists at 1440 and 1024 px show their name column
 * whole, fixed on the left, the operations fixed on the right, no header cut; a cut value shows itself
 * in a tooltip; a column the user hides stays hidden after a reload; the open-page tabs past the width
 * are all in a menu; the check results show each enterprise's name in full.
 */
const visible = (l: Locator, timeout = 15_000) => l.first().waitFor({ state: 'visible', timeout });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.close();
});

async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `tables-${name}.png`) });
}

interface ListCase {
  name: string;
  path: string;
  /** The title of the name column (fixed on the left, never cut). */
  nameTitle: string;
  /** The title of the operations column (fixed on the right). */
  actionTitle: string;
}

const LISTS: ListCase[] = [
  { name: '我的客户', path: '/customer/khgl/wdkh', nameTitle: '企业名称', actionTitle: '操作' },
  { name: '合同列表', path: '/contract/htgl/htlb', nameTitle: '合同编号', actionTitle: '操作' },
  { name: '收费列表', path: '/contractFee/sfgl/sflb', nameTitle: '企业名称 / 合同 / 负责人', actionTitle: '操作' },
  { name: '员工管理', path: '/nested/manage/staff', nameTitle: '员工', actionTitle: '操作' },
  { name: '角色权限', path: '/nested/manage/role', nameTitle: '角色名称', actionTitle: '操作' },
  { name: '岗位管理', path: '/nested/manage/station', nameTitle: '岗位名称', actionTitle: '操作' },
];

/**
 * In the page: whether the text inside `el` runs past the element's box (cut off or spilling into the
 * next cell), measured on the text itself, so the shadows of fixed cells do not count.
 */
const TEXT_OUTSIDE = `(el) => {
  const box = el.getBoundingClientRect();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent || !n.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) return true;
    }
  }
  for (const e of el.querySelectorAll('*')) {
    const s = getComputedStyle(e);
    if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1 && e.textContent.trim()) return true;
  }
  return false;
}`;

/** Header cells of the shown table whose title is cut or spills out of the cell. */
function clippedHeaders(page: Page): Promise<string[]> {
  return page.evaluate((fn) => {
    const outside = new Function(`return ${fn}`)() as (el: Element) => boolean;
    const table = [...document.querySelectorAll('.ant-table')].find((t) => (t as HTMLElement).offsetParent !== null);
    return [...(table?.querySelectorAll('.ant-table-thead th') ?? [])]
      .filter((c) => (c.textContent ?? '').trim() !== '' && outside(c))
      .map((c) => (c.textContent ?? '').trim());
  }, TEXT_OUTSIDE);
}

/** The cells of the column titled `title` in the shown rows: their text and whether the text is cut. */
function columnCells(page: Page, title: string) {
  return page.evaluate(
    ([fn, t]) => {
      const outside = new Function(`return ${fn}`)() as (el: Element) => boolean;
      const table = [...document.querySelectorAll('.ant-table')].find(
        (tb) => (tb as HTMLElement).offsetParent !== null,
      );
      if (!table) return [];
      const heads = [...table.querySelectorAll('.ant-table-thead th')];
      const at = heads.findIndex((h) => (h.textContent ?? '').trim() === t);
      if (at < 0) return [];
      return [...table.querySelectorAll('tr.ant-table-row')].map((row) => {
        const cell = row.children[at];
        return { text: (cell?.textContent ?? '').trim(), cut: !cell || outside(cell) };
      });
    },
    [TEXT_OUTSIDE, title] as const,
  );
}

const headerClass = (page: Page, title: string) =>
  page
    .locator('.ant-table-thead th:visible', { hasText: title })
    .filter({ hasText: new RegExp(`^${title.replace(/[/]/g, '\\/')}$`) })
    .first()
    .getAttribute('class');

describe('tables that fit', () => {
  for (const width of [1440, 1024]) {
    it(`shows each main list's name column whole, fixed, at ${width} px`, async () => {
      const page = await product.newPage();
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, product.baseUrl, DEMO_ADMIN);
      for (const list of LISTS) {
        await page.goto(`${product.baseUrl}/#${list.path}`);
        await visible(page.locator('tr.ant-table-row'));
        await afterLayout(page);
        await snap(page, `${list.path.split('/').at(-1)}-${width}`);

        expect(await clippedHeaders(page), `${list.name} headers at ${width}`).toEqual([]);
        expect(await headerClass(page, list.nameTitle), `${list.name} name column`).toContain(
          'ant-table-cell-fix-start',
        );
        expect(await headerClass(page, list.actionTitle), `${list.name} action column`).toContain(
          'ant-table-cell-fix-end',
        );
        const names = await columnCells(page, list.nameTitle);
        expect(names.length, `${list.name} rows`).toBeGreaterThan(0);
        expect(
          names.filter((n) => n.cut).map((n) => n.text),
          `${list.name} names cut at ${width}`,
        ).toEqual([]);
        // The search bar's button reads 查询 on every list.
        await visible(page.getByRole('button', { name: /查\s*询/ }));
      }
    });
  }

  it('shows a cut value whole in a tooltip', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
    await visible(page.locator('tr.ant-table-row'));
    const cell = page.locator('tr.ant-table-row .dzy-list-ellipsis').filter({ hasText: /省|市/ }).first();
    const full = ((await cell.textContent()) ?? '').trim();
    expect(full).not.toBe('');
    await cell.hover();
    const tip = page.locator('.ant-tooltip:visible');
    await visible(tip);
    expect(((await tip.textContent()) ?? '').trim()).toBe(full);
  });

  it('remembers a column the user hides, after a reload', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/contract/htgl/htlb`);
    await visible(page.locator('tr.ant-table-row'));
    const header = page.locator('.ant-table-thead th', { hasText: '服务项目' });
    await visible(header);

    await page.getByRole('button', { name: '列设置' }).click();
    const chooser = page.locator('.dzy-list-chooser');
    await visible(chooser);
    // The name and operation columns are not offered: they always show.
    expect(await chooser.getByRole('checkbox', { name: '合同编号' }).count()).toBe(0);
    expect(await chooser.getByRole('checkbox', { name: '操作' }).count()).toBe(0);
    await chooser.getByRole('checkbox', { name: '服务项目' }).uncheck();
    await hidden(header);
    await snap(page, 'column-hidden');

    await page.reload();
    await visible(page.locator('tr.ant-table-row'));
    expect(await header.count()).toBe(0);
    await visible(page.locator('.ant-table-thead th', { hasText: '签约企业' }));

    await page.getByRole('button', { name: '列设置' }).click();
    await page.locator('.dzy-list-chooser').getByRole('button', { name: '显示全部列' }).click();
    await visible(header);
  });

  it('puts the open-page tabs past the width into a menu', async () => {
    const page = await product.newPage();
    await page.setViewportSize({ width: 1024, height: 900 });
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const pages = [
      ...LISTS.map((l) => l.path),
      '/customer/khgl/hsz',
      '/nested/manage/department',
      '/nested/manage/agency-info',
      '/contract/htsz/htmb',
      '/declare/bssz',
    ];
    for (const path of pages) {
      await page.goto(`${product.baseUrl}/#${path}`);
      await expect.poll(() => page.locator('.dzy-tag-active').count(), { message: path }).toBe(1);
    }
    const more = page.getByRole('button', { name: '全部已打开的页面' });
    await visible(more);
    // The open tab is in sight even though the strip overflows.
    const active = page.locator('.dzy-tag-active');
    const strip = await page.locator('.dzy-tags-strip').boundingBox();
    const box = await active.boundingBox();
    expect(strip && box && box.x >= strip.x - 1 && box.x + box.width <= strip.x + strip.width + 1).toBe(true);
    await snap(page, 'tabs-overflow');

    await more.click();
    const menu = page.locator('.ant-dropdown:visible .ant-dropdown-menu');
    await visible(menu);
    expect(await menu.getByRole('menuitem').count()).toBe(pages.length + 1);
    await menu.getByRole('menuitem', { name: '我的客户' }).click();
    await page.waitForURL(/#\/customer\/khgl\/wdkh/);
    await visible(page.locator('.dzy-tag-active', { hasText: '我的客户' }));
  });

  it('shows each enterprise name of the check results in full', async () => {
    const page = await product.newPage();
    await page.setViewportSize({ width: 1024, height: 900 });
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    await page.goto(`${product.baseUrl}/#/declare/bssz`);
    await visible(page.getByRole('button', { name: '开始检查' }));
    await page.getByText(/^全部企业/).click();
    await page.getByRole('button', { name: '开始检查' }).click();
    await visible(page.getByText('检查完成'), 120_000);
    await visible(page.locator('tr.ant-table-row'));
    await afterLayout(page);

    expect(await clippedHeaders(page)).toEqual([]);
    expect(await headerClass(page, '企业名称')).toContain('ant-table-cell-fix-start');
    const names = await columnCells(page, '企业名称');
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => n.cut).map((n) => n.text)).toEqual([]);
    expect(await page.locator('tr.ant-table-row td.ant-table-cell-ellipsis', { hasText: names[0]?.text }).count()).toBe(
      0,
    );
    await snap(page, 'check-results-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    await afterLayout(page);
    expect((await columnCells(page, '企业名称')).filter((n) => n.cut)).toEqual([]);
    await snap(page, 'check-results-1440');
  }, 240_000);
});
