import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUREAU_MSG, defaultSsq, MSG_TYPE_NAMES } from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  freePort,
  launchChromium,
  preparedDatabase,
  signIn,
  snoozeMissingTaxDialog,
  spawnServer,
  waitFor,
} from './harness';

/**
 * 报税检查 in Chromium against the real server process, whose bureau is a simulator this test runs (so
 * it outlives the server): the demo agency's clients show every msg_type; the server is killed with
 * SIGKILL mid-batch and started again on the same database, and the page sees the batch finish with
 * every enterprise counted once.
 */
const ROOT = resolve(import.meta.dirname, '..');
const _TSX = join(ROOT, 'node_modules/.bin/tsx');

const visible = (l: Locator, timeout = 15_000) => l.first().waitFor({ state: 'visible', timeout });

let sim: TaxSim;
let dataDir: string;
let db: Awaited<ReturnType<typeof preparedDatabase>> | null = null;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | null = null;
let browser: Browser;
let baseUrl: string;

async function startServer() {
  server = spawnServer(env);
  await waitFor(`${baseUrl}/api/health`, 180_000);
}

async function snap(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `declare-check-${name}.png`) });
}

beforeAll(async () => {
  // 100 ms per bureau call and a cap of 3: the batch lasts long enough to be killed in the middle.
  sim = await startTaxSim({ latencyMs: 100 });
  dataDir = mkdtempSync(join(tmpdir(), 'dzy-e2e-check-'));
  db = await preparedDatabase(dataDir);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TAX_BUREAU_URL: sim.url,
    ...db.env,
    CHECK_CONCURRENCY: '3',
    CHECK_LEASE_SECONDS: '3',
  };
  await startServer();
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((ok) => server?.once('exit', ok));
  }
  await db?.drop();
  await sim?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signedInPage(): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  await ctx.addInitScript(snoozeMissingTaxDialog);
  const page = await ctx.newPage();
  await signIn(page, baseUrl, DEMO_ADMIN);
  return page;
}

/** A call from inside the page (its session cookie). */
async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(`/api/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
      return ((await res.json()) as { data: unknown }).data;
    },
    [path, body] as const,
  ) as Promise<T>;
}

const completeNum = async (page: Page) => Number(await page.getByTestId('complete-num').textContent());

describe('报税检查 /declare/bssz', () => {
  it('checks the demo book, survives kill -9 of the server, and shows every msg_type', async () => {
    const page = await signedInPage();
    await page.goto(`${baseUrl}/#/declare/bssz`);
    await visible(page.getByRole('button', { name: '开始检查' }));
    // The period defaults to the previous month; nothing checked yet.
    expect(await page.locator('.dzy-check-form input').first().inputValue()).toBe(defaultSsq());
    await visible(page.getByText('暂无检查记录'));
    await snap(page, 'idle');

    // Choosing by hand with nobody chosen asks for a choice.
    await page.getByText('选择企业', { exact: true }).first().click();
    await page.getByRole('button', { name: '开始检查' }).click();
    const picker = page.getByRole('dialog', { name: '选择企业' });
    await visible(picker);
    await picker.getByRole('button', { name: /^开始检查/ }).click();
    await visible(page.getByText('请选择企业'));
    await picker.getByRole('button', { name: /取\s*消/ }).click();
    await page.getByText(/^全部企业/).click();

    await page.getByRole('button', { name: '开始检查' }).click();
    await visible(page.getByTestId('check-progress'));
    await visible(page.getByRole('button', { name: '停止检查' }));
    const total = Number((await page.getByTestId('check-progress').textContent())?.match(/\/\s*(\d+)/)?.[1]);
    expect(total).toBeGreaterThan(40);

    // Mid-batch: some enterprises done, most not; then the server is killed outright.
    await expect.poll(() => completeNum(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
    await snap(page, 'running');
    const doneBeforeKill = await completeNum(page);
    expect(doneBeforeKill).toBeLessThan(total);
    const killed = server;
    killed?.kill('SIGKILL');
    await new Promise((ok) => killed?.once('exit', ok));
    expect(killed?.signalCode).toBe('SIGKILL');
    // Nothing answers any more: the batch is not finishing behind our back.
    await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();
    // The page has met the outage (one of its polls failed) before the new server comes up.
    await page.waitForEvent('requestfailed', { predicate: (r) => r.url().includes('/api/'), timeout: 30_000 });
    await startServer();

    // The page keeps polling, the new server's runner resumes the batch, and it finishes.
    await visible(page.getByText('检查完成'), 120_000);
    const stats = await api<{ completeNum: number; totalNum: number; byType: Record<string, number> }>(
      page,
      'user/lbs/getCheckCount',
      {},
    );
    expect(stats.completeNum).toBe(total);
    expect(stats.totalNum).toBe(total);
    expect(Object.values(stats.byType).reduce((a, b) => a + b, 0)).toBe(total);
    await snap(page, 'finished');

    // Every msg_type 1-8 shows among the results (the chips carry the counts).
    for (const t of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const chip = page.getByTestId(`chip-${t}`);
      await visible(chip);
      expect(await chip.textContent()).toContain(MSG_TYPE_NAMES[t as 1]);
    }
    // The UI resets to idle 3 s after completion and shows the last check.
    await visible(page.getByTestId('last-check'), 10_000);
    expect(await page.getByTestId('last-check').textContent()).toContain(`共 ${total} 家`);

    // Filter by msg_type: the mismatch shows its spec message.
    await page.getByTestId('chip-4').click();
    await visible(page.locator('tr.ant-table-row').getByText(BUREAU_MSG.mismatch));
    expect(await page.locator('tr.ant-table-row').count()).toBe(stats.byType['4']);
    await page.getByTestId('chip-6').click();
    await visible(page.locator('tr.ant-table-row').getByText(BUREAU_MSG.busy));
    await page.getByTestId('chip-8').click();
    await visible(page.locator('tr.ant-table-row').getByText(BUREAU_MSG.serviceExpired));
    await snap(page, 'filtered');

    // 失败列表: 重新检查 needs a choice, then checks the chosen ones in a new run.
    await page.getByRole('tab', { name: /失败列表/ }).click();
    const failedTab = page.getByRole('tabpanel', { name: /失败列表/ });
    await visible(failedTab.locator('tr.ant-table-row'));
    await failedTab.getByRole('button', { name: /重新检查/ }).click();
    await visible(page.getByText('请选择企业'));
    await snap(page, 'failed');
    await failedTab.locator('tr.ant-table-row').first().locator('input[type=checkbox]').check();
    await failedTab.getByRole('button', { name: /重新检查（1）/ }).click();
    await visible(page.getByText('已开始检查'));
    await visible(page.getByText('检查完成'), 60_000);

    // 检查记录: both runs, and a run's detail.
    await page.getByRole('tab', { name: '检查记录' }).click();
    const logs = page.getByRole('tabpanel', { name: '检查记录' });
    await visible(logs.locator('tr.ant-table-row'));
    expect(await logs.locator('tr.ant-table-row').count()).toBe(2);
    await logs.locator('tr.ant-table-row').last().getByRole('button', { name: '查看详情' }).click();
    const drawer = page.locator('.ant-drawer');
    await visible(drawer.getByText(/检查详情：所属期/));
    await visible(drawer.locator('tr.ant-table-row'));
    await snap(page, 'history-detail');
  }, 300_000);
});
