import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedDatabase, snoozeMissingTaxDialog, spawnServer } from './harness.js';

/**
 * The shell's message flow in Chromium: the bell pushed within a second, the message centre's tabs,
 * paging and empty state, pushes reaching only their user, and the push channel reconnecting after
 * the server restarts. The server is started here (not by startProduct) so the test can restart it on
 * the same port and data.
 */
const ROOT = resolve(import.meta.dirname, '..');
const _TSX = join(ROOT, 'node_modules/.bin/tsx');
const PASSWORD = 'Demo@2026';
const ZHANG = '13800000002';
const LI = '13800000001';
const OPERATOR = '13600000000';

let server: ChildProcess | null = null;
let browser: Browser;
let baseUrl = '';
let env: NodeJS.ProcessEnv;
let dataDir = '';
let db: Awaited<ReturnType<typeof preparedDatabase>> | null = null;

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

async function startServer() {
  server = spawnServer(env);
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function stopServer() {
  const s = server;
  server = null;
  if (!s || s.exitCode !== null) return;
  await new Promise((ok) => {
    s.once('exit', ok);
    s.kill('SIGTERM');
  });
}

async function api<T = unknown>(path: string, body: unknown, cookie?: string) {
  const res = await fetch(`${baseUrl}/api/${path}`, {
    method: 'POST',
    // As the product's page would send it: a cookie-carrying POST needs its Origin (plugins/security.ts).
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const cookieOut = res.headers.getSetCookie().find((c) => c.startsWith('dzy_session='));
  return { ...((await res.json()) as { code: number; msg: string; data: T }), cookie: cookieOut?.split(';')[0] ?? '' };
}

const signIn = async (phone: string) =>
  (await api('userext/v1.0/common/user/login', { type: '1', account: phone, password: PASSWORD })).cookie;

/** A signed-in page of one user at the portal, with its push channel open. */
async function pageOf(phone: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  await ctx.addInitScript(snoozeMissingTaxDialog);
  const cookie = await signIn(phone);
  const [name, value] = cookie.split('=');
  await ctx.addCookies([{ name: name ?? '', value: value ?? '', url: baseUrl }]);
  const page = await ctx.newPage();
  await page.goto(`${baseUrl}/#/dashboard`);
  await page.waitForFunction(() => document.documentElement.dataset.push === 'open', null, { timeout: 20_000 });
  return page;
}

let operator = '';
const remind = (phone: string, content: string) =>
  api<{ count: number }>('user/message/sendSystemMsg', { phone, content }, operator);

/** The bell's unread count as the user sees it (0 when no badge). */
/**
 * The bell's number: the badge's title holds it (its text is a column of rolling digits until the roll
 * ends, which without motion takes antd's one-second fallback).
 */
const bellCount = (page: Page) =>
  page.evaluate(() => {
    const badge = document.querySelector('[data-testid=news-bell] .ant-badge-count');
    return Number((badge?.getAttribute('title') ?? '').replace(/\D/g, '') || '0');
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dzy-e2e-msg-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  db = await preparedDatabase(dataDir);
  env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...db.env,
    // No daily reminders during the test: the messages are the ones it sends.
    DAILY_JOBS: '0',
  };
  await startServer();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  operator = await signIn(OPERATOR);
});

afterAll(async () => {
  await browser?.close();
  await stopServer();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('messages in the browser', () => {
  let zhang: Page;
  let li: Page;

  it('a pushed message reaches the bell within a second, and only its user', async () => {
    zhang = await pageOf(ZHANG);
    li = await pageOf(LI);
    expect(await bellCount(zhang)).toBe(0);
    const started = Date.now();
    expect((await remind(ZHANG, '第1条提醒')).code).toBe(200);
    await zhang.waitForFunction(
      () => document.querySelector('[data-testid=news-bell] .ant-badge-count')?.getAttribute('title') === '1',
      null,
      { timeout: 1000, polling: 'raf' },
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1000);
    // 李晓梅's page got nothing.
    await li.waitForTimeout(1500);
    expect(await bellCount(li)).toBe(0);
    // The bell shows the label cut to 6 characters inside brackets.
    await zhang.getByTestId('news-bell').click();
    await expect.poll(() => zhang.locator('.dzy-bell-label').first().textContent()).toBe('【系统提醒】');
    await expect.poll(() => zhang.locator('.dzy-bell-text').first().textContent()).toBe('第1条提醒');
    await zhang.getByTestId('news-bell').click();
    await zhang.locator('.dzy-bell-popup').waitFor({ state: 'hidden' });
  });

  it('the message centre: 870 px, tabs, pages of 6, 暂无消息, reset to page 1 on a tab switch', async () => {
    for (let i = 2; i <= 7; i++) await remind(ZHANG, `第${i}条提醒`);
    await expect.poll(() => bellCount(zhang)).toBe(7);
    await zhang.getByTestId('news-bell').click();
    await zhang.locator('.dzy-bell-popup').waitFor();
    await zhang.getByText('查看全部消息').click();
    const dialog = zhang.getByRole('dialog', { name: '消息管理' });
    await dialog.waitFor();
    // 870 px once the opening animation has finished.
    const box = zhang.locator('.ant-modal').filter({ hasText: '消息管理' });
    await expect.poll(async () => Math.round((await box.boundingBox())?.width ?? 0)).toBe(870);
    // Opens on the tab that holds the unread messages: 系统提醒 (派工消息, the usual first tab, is empty for 张伟).
    await expect.poll(() => dialog.getByRole('tab', { selected: true }).textContent()).toBe('系统提醒');
    await dialog.getByRole('tab', { name: '派工消息' }).click();
    await dialog.getByText('暂无消息').waitFor();

    await dialog.getByRole('tab', { name: '系统提醒' }).click();
    const items = dialog.locator('.dzy-msg-item');
    await expect.poll(() => items.count()).toBe(6);
    expect(await items.first().textContent()).toContain('【系统提醒】第7条提醒');
    // System reminders have no page to open.
    expect(await dialog.getByText('查看详情').count()).toBe(0);
    await dialog.getByText('共 7 条').waitFor();
    await dialog.locator('.ant-pagination-item-2').click();
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain('第1条提醒');

    // A tab switch starts again at page 1.
    await dialog.getByRole('tab', { name: '系统公告' }).click();
    await dialog.getByText('暂无消息').waitFor();
    await dialog.getByRole('tab', { name: '系统提醒' }).click();
    await expect.poll(() => items.count()).toBe(6);
    expect(await dialog.locator('.ant-pagination-item-active').textContent()).toBe('1');

    // Neither Esc nor a click outside closes it.
    await zhang.keyboard.press('Escape');
    await zhang.mouse.click(20, 880);
    await zhang.waitForTimeout(400);
    expect(await dialog.isVisible()).toBe(true);

    // A new message shows in the open centre without waiting for the poll.
    const started = Date.now();
    await remind(ZHANG, '第8条提醒');
    await zhang.waitForFunction(
      () => document.querySelector('.dzy-msg-item')?.textContent?.includes('第8条提醒'),
      null,
      { timeout: 1000, polling: 'raf' },
    );
    expect(Date.now() - started).toBeLessThan(1000);
    await dialog.locator('.ant-modal-close').click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the settings tab saves a second after the last change', async () => {
    await zhang.getByRole('button', { name: '用户菜单' }).hover();
    await zhang.getByRole('menuitem', { name: '消息中心' }).click();
    const dialog = zhang.getByRole('dialog', { name: '消息管理' });
    await dialog.getByRole('tab', { name: '消息设置' }).click();
    const fee = dialog.getByRole('checkbox', { name: '收费提醒' });
    await fee.waitFor();
    expect(await fee.isChecked()).toBe(true);
    const saved = zhang.waitForResponse((r) => r.url().includes('updateUserMsgSetting'));
    const clicked = Date.now();
    await fee.click();
    await dialog.getByRole('checkbox', { name: '新建工单' }).click();
    const res = await saved;
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(900);
    expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({ msg_sftx: 0, msg_xjgd: 0 });
    const settings = await api<Record<string, number>>('user/agency/selectUserMsgSetting', {}, await signIn(ZHANG));
    expect(settings.data).toEqual({ msg_fp: 1, msg_xjht: 1, msg_xjgd: 0, msg_sftx: 0 });
    await dialog.locator('.ant-modal-close').click();
  });

  it('the push channel reconnects after the server restarts', async () => {
    await stopServer();
    await zhang.waitForFunction(() => document.documentElement.dataset.push !== 'open', null, { timeout: 10_000 });
    await startServer();
    // Reconnects 5 s after the close (and again every 5 s while the server is down).
    await zhang.waitForFunction(() => document.documentElement.dataset.push === 'open', null, { timeout: 30_000 });
    operator = await signIn(OPERATOR);
    const before = await bellCount(zhang);
    const started = Date.now();
    await remind(ZHANG, '重启后的提醒');
    await zhang.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=news-bell] .ant-badge-count')?.textContent ?? 0) > n,
      before,
      { timeout: 1000, polling: 'raf' },
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('signing out closes the channel on purpose: no reconnection', async () => {
    await li.getByRole('button', { name: '用户菜单' }).hover();
    await li.getByRole('menuitem', { name: '退出登录' }).click();
    await li.waitForURL(/#\/login/);
    await li.waitForTimeout(6000);
    expect(await li.evaluate(() => document.documentElement.dataset.push)).toBe('idle');
  });
});
