import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_OPERATOR,
  openFromMenu,
  type Product,
  screenshotsAt,
  signIn,
  startProduct,
  visible,
} from './harness';

/**
 * 财税课堂 in Chromium: the portal's news block and the classroom (filters, search, the reader and the lecture
 * link) as the administrator and as an ordinary employee; the operator's 课堂内容 page (create, reorder,
 * upload a video) and the uploaded video streamed with ranges to a reader.
 */

const STAFF = '13800000002';
let product: Product;
const shots = screenshotsAt('content-');

beforeAll(async () => {
  product = await startProduct();
}, 300_000);
afterAll(async () => {
  await product?.close();
});

const cards = (page: Page) => page.locator('.dzy-classroom-card');

async function openClassroom(page: Page) {
  await expect.poll(() => page.locator('.dzy-navbar-item').count()).toBeGreaterThan(1);
  await page.locator('.dzy-navbar-item').filter({ hasText: '财税课堂' }).first().click();
  await expect.poll(() => page.title(), { timeout: 20_000 }).toBe('财税课堂 - 代账云');
  await visible(cards(page));
}

describe('财税课堂 for the agency', () => {
  it('the portal shows the latest news and opens one in the classroom (administrator)', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, DEMO_ADMIN);
    const block = page.locator('.dzy-news-block');
    await visible(block.getByText('2026年12月征期：12月15日前完成11月所属期申报'));
    await shots(page, 'dashboard-admin');
    await block.getByText('2026年12月征期：12月15日前完成11月所属期申报').click();
    const reader = page.getByRole('dialog', { name: /12月征期/ });
    await visible(reader.getByText(/税总办征科函〔2025〕64号/));
    await shots(page, 'news-reader');
    await page.keyboard.press('Escape');
    await reader.waitFor({ state: 'hidden' });

    // The news link opened the classroom on 新闻; 全部 shows everything.
    await openClassroom(page);
    await page.locator('.ant-segmented-item', { hasText: '全部' }).click();
    await expect.poll(() => cards(page).count()).toBe(8);
    await shots(page, 'classroom-admin');
    await page.locator('.ant-segmented-item', { hasText: '讲座' }).click();
    await expect.poll(() => cards(page).count()).toBe(3);
    await page.getByPlaceholder('搜索标题或简介').fill('汇算清缴');
    await page.getByPlaceholder('搜索标题或简介').press('Enter');
    await expect.poll(() => cards(page).count()).toBe(1);
    await cards(page).first().click();
    const lecture = page.getByRole('dialog', { name: '企业所得税汇算清缴实务讲座' });
    await visible(lecture.getByRole('link', { name: /前往观看/ }));
    await shots(page, 'lecture');
  });

  it('an ordinary employee reads the same classroom from the menu', async () => {
    const page = await product.newPage();
    await signIn(page, product.baseUrl, STAFF);
    await visible(page.locator('.dzy-news-block').getByText('2026年全年申报纳税期限一览'));
    await shots(page, 'dashboard-staff');
    await openClassroom(page);
    await page.locator('.ant-select', { hasText: '全部分类' }).click();
    await page.locator('.ant-select-item-option', { hasText: '个人所得税' }).click();
    await expect.poll(() => cards(page).count()).toBe(2);
    await shots(page, 'classroom-staff');
  });
});

describe('课堂内容 for the platform operator', () => {
  let op: Page;
  it('creates news, moves it down, and uploads a video that a reader streams with ranges', async () => {
    op = await product.newPage();
    await signIn(op, product.baseUrl, DEMO_OPERATOR);
    await openFromMenu(op, '平台运营', '课堂内容');
    const rows = op.locator('tr.ant-table-row');
    await visible(rows);
    expect(await rows.count()).toBe(8);
    await shots(op, 'admin-list');

    await op.getByRole('button', { name: /新增内容/ }).click();
    const dialog = op.getByRole('dialog', { name: '新增课堂内容' });
    await visible(dialog);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(dialog.getByText('请选择学科分类'));
    await visible(dialog.getByText('请输入标题'));
    await dialog.locator('.ant-form-item', { hasText: '学科分类' }).locator('.ant-select').click();
    await op.locator('.ant-select-item-option', { hasText: '增值税' }).click();
    await dialog.getByPlaceholder('请输入标题').fill('留抵退税新规答问');
    await dialog.getByPlaceholder('请输入新闻正文').fill('第一问：哪些企业可以申请？\n\n第二问：何时申请？');
    await shots(op, 'admin-form');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(op.getByText('新增成功'));
    await expect.poll(() => rows.first().textContent()).toContain('留抵退税新规答问');

    await rows.first().getByRole('button', { name: '下移' }).click();
    await visible(op.getByText('排序已保存'));
    await expect.poll(() => rows.nth(1).textContent()).toContain('留抵退税新规答问');

    // A video: uploaded with progress, saved, first in the list.
    await op.getByRole('button', { name: /新增内容/ }).click();
    await visible(dialog);
    await dialog.getByText('视频', { exact: true }).click();
    await dialog.locator('.ant-form-item', { hasText: '学科分类' }).locator('.ant-select').click();
    await op.locator('.ant-select-item-option', { hasText: '财务会计' }).click();
    await dialog.getByPlaceholder('请输入标题').fill('凭证录入五分钟');
    await dialog.getByText('上传视频', { exact: true }).first().click();
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]);
    // Waits on the upload's own reply (its message shows if it failed) and on the toast from before the
    // file is chosen: under load the 3-second toast came and went while the wait had not started yet.
    const uploaded = op.waitForResponse((r) => r.url().includes('/api/content/upload'), { timeout: 60_000 });
    const toastSeen = visible(op.getByText('上传成功'), 60_000);
    await dialog
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: '凭证.mp4', mimeType: 'video/mp4', buffer: mp4 });
    expect(await (await uploaded).json()).toMatchObject({ code: 200 });
    await toastSeen;
    await visible(dialog.getByText('凭证.mp4'));
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await visible(op.getByText('新增成功'));
    await expect.poll(() => rows.first().textContent()).toContain('凭证录入五分钟');
    await shots(op, 'admin-after');

    // The employee sees it first and its file streams in parts.
    const page = await product.newPage();
    await signIn(page, product.baseUrl, STAFF);
    await openClassroom(page);
    await expect.poll(() => cards(page).first().textContent()).toContain('凭证录入五分钟');
    await cards(page).first().click();
    const video = page.locator('video.dzy-content-video');
    await visible(video);
    const src = (await video.getAttribute('src')) ?? '';
    expect(src).toMatch(/^\/api\/content\/file\/[0-9a-f]{32}\.mp4$/);
    const part = await page.evaluate(async (url) => {
      const r = await fetch(url, { headers: { range: 'bytes=4-11' } });
      return { status: r.status, range: r.headers.get('content-range'), text: await r.text() };
    }, src);
    expect(part).toEqual({ status: 206, range: `bytes 4-11/${mp4.length}`, text: 'ftypisom' });
  });
});
