import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTaxSim, type TaxSimOptions } from '@dzy/tax-sim';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { freshDatabase } from '../apps/server/test/fresh-database.js';
import { copyPglite, ensureTemplate } from '../apps/server/test/template.js';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The server as `npm start` runs it: the compiled build on plain Node (scripts/build-node.mjs; the test
 * command builds it first). One process, so a signal really reaches the server.
 */
export function spawnServer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--enable-source-maps', 'apps/server/build/main.mjs'], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
  });
}

/** The demo data on a fresh PostgreSQL database, with the compiled seed (`npm run seed` does the same). */
/**
 * A database for a server a test spawns: a copy of the run's prepared one (migrated and seeded once;
 * apps/server/test/template.ts), in `dataDir` on PGlite or as a new database made from it on PostgreSQL.
 * `env` is what the server needs to open it (the key the seed encrypted the stored credentials with too).
 */
export async function preparedDatabase(dataDir: string) {
  const template = await ensureTemplate();
  const db = process.env.DATABASE_URL
    ? await freshDatabase(process.env.DATABASE_URL, 'dzy_e2e', template.postgres?.seeded)
    : null;
  if (!db) copyPglite(template, 'seeded', dataDir);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: db?.url ?? '', SECRET_KEY: template.secretKey },
    drop: async () => {
      await db?.drop();
    },
  };
}

export const DEMO_ADMIN = '13800000000';
export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_OPERATOR = '13600000000';

/** Signs in over the API and returns the session cookie (name=value). */
async function signInCookie(baseUrl: string, account: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/userext/v1.0/common/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: '1', account, password: DEMO_PASSWORD }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('dzy_session='));
  if (!cookie) throw new Error(`sign-in of ${account} failed: ${res.status}`);
  return cookie.split(';')[0] ?? '';
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * The product as a user gets it: the real server process (built web client, demo data) on a fresh
 * embedded database, or on a fresh PostgreSQL database when DATABASE_URL is set (either a copy of the
 * run's prepared database); and Chromium.
 * `sim` sets up the simulator (e.g. a fixed day: `{ today: '2026-11-10' }`); `startMs` is how long the
 * server may take to answer its health check.
 */
export async function startProduct(opts: { sim?: TaxSimOptions; startMs?: number } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-e2e-'));
  const port = await freePort();
  // The simulated e-tax bureau, as its own server the product reaches over HTTP (docs/tax-bureau-protocol.md).
  const sim = await startTaxSim(opts.sim);
  // A copy of the run's prepared database: the server finds its migrations applied and the demo data there,
  // as on any later start.
  const db = await preparedDatabase(dataDir);
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TAX_BUREAU_URL: sim.url,
    ...db.env,
  };
  const server = spawnServer(env);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/api/health`, opts.startMs ?? 60_000);

  const browser = await launchChromium();
  let operatorCookie: string | undefined;

  return {
    baseUrl,
    /** The simulated e-tax bureau the server uses: its admin calls set scenarios and faults, read SMS codes. */
    bureauUrl: sim.url,
    browser,
    /**
     * A new browser context (fresh cookies and storage) with one page, at 1440x900. The missing
     * tax-number dialog, which opens by itself for the demo administrator, is put off as its
     * 暂不补充 would, unless a test asks to meet it.
     */
    async newPage(opts: { missingTaxDialog?: boolean } = {}): Promise<Page> {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      if (!opts.missingTaxDialog) await ctx.addInitScript(snoozeMissingTaxDialog);
      return ctx.newPage();
    },
    /** The newest SMS the server "sent" to a phone, from the development outbox. */
    async lastSms(phone: string): Promise<string> {
      // The outbox is for signed-in platform operators only: read it as the demo operator.
      operatorCookie ??= await signInCookie(baseUrl, DEMO_OPERATOR);
      const res = await fetch(`${baseUrl}/api/dev/outbox`, { headers: { cookie: operatorCookie } });
      const body = (await res.json()) as { data: { phone: string; content: string }[] };
      const sms = body.data.find((m) => m.phone === phone);
      if (!sms) throw new Error(`no SMS to ${phone}`);
      return sms.content;
    },
    async close() {
      await browser.close();
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((ok) => server.once('exit', ok));
      }
      await sim.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;

/** Debian's Chromium, headless, with the flags this machine needs (no background networking). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
}

/** Signs in with a password on the login page, as a user would, and waits for the portal. */
export async function signIn(page: Page, baseUrl: string, account: string, password = DEMO_PASSWORD) {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByPlaceholder('手机号 / 账号').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await page.waitForURL(/#\/dashboard/);
}

export const visible = (l: Locator, timeout = 15_000) => l.first().waitFor({ state: 'visible', timeout });

/**
 * Waits until the page has drawn what it just laid out: three animation frames (a resize observer's answer
 * and the re-render it causes land within them). Frames, not milliseconds: a loaded machine draws later.
 */
export const afterLayout = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
      ),
  );

/**
 * Searches a client list (我的客户 and the like) by 企业名称或税号 and waits for the answer: every row shown
 * contains the text (or none is shown). A condition, not a pause, so a slow answer is never read stale.
 */
export async function searchClients(page: Page, text: string) {
  await page.getByPlaceholder('企业名称或税号').first().fill(text);
  await page
    .getByRole('button', { name: /查\s*询/ })
    .first()
    .click();
  await expect
    .poll(async () => (await page.locator('tr.ant-table-row').allTextContents()).every((t) => t.includes(text)))
    .toBe(true);
}

/**
 * Screenshots at both widths (1440 and 1024) into E2E_SHOTS_DIR, named `<prefix><name>-<width>.png`; none
 * when it is not set. Looked at by eye when the pages change.
 */
export function screenshotsAt(prefix: string) {
  return async (page: Page, name: string) => {
    const dir = process.env.E2E_SHOTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await afterLayout(page);
      await page.screenshot({ path: join(dir, `${prefix}${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  };
}

/** Opens a page from the top menu (`top`) and the sidebar (`entry`), and waits for its title. */
export async function openFromMenu(page: Page, top: string, entry: string) {
  // The menu arrives with getRouters, the first call after sign-in; right after a server start that call is
  // slower than vitest's 1-second poll default (issue 30 point 4), so it gets the bound of the other waits.
  await expect.poll(() => page.locator('.dzy-navbar-item').count(), { timeout: 15_000 }).toBeGreaterThan(1);
  await page.locator('.dzy-navbar-item').filter({ hasText: top }).first().click();
  // The top menu opens its first page; the entry is clicked once the sidebar shows it, and again if that
  // first page's navigation landed after the click.
  const item = page.locator('.dzy-sider .ant-menu-item').filter({ hasText: entry }).first();
  await expect
    .poll(
      async () => {
        await item.click();
        // The title changes with the navigation; a click that came too early is made again.
        await page
          .waitForFunction((t) => document.title === t, `${entry} - 代账云`, { timeout: 2_000 })
          .catch(() => undefined);
        return page.title();
      },
      { timeout: 20_000 },
    )
    .toBe(`${entry} - 代账云`);
}

/** What 暂不补充 leaves in the tab's session storage, for the demo agencies (ids 1 and 2). */
export function snoozeMissingTaxDialog() {
  for (const orgId of [1, 2, 3]) sessionStorage.setItem(`dzy.noQysh.snoozed.${orgId}`, '1');
}

export async function waitFor(url: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within ${ms} ms`);
}

/**
 * Makes a call as the page's signed-in user (the page must be on the product, signed in), for a journey's
 * setup or a check of what was stored; anything but code 200 throws with the message.
 */
export async function callAs<T>(page: Page, path: string, body: unknown): Promise<T> {
  const r = (await page.evaluate(
    async ([p, b]) => {
      const res = await fetch(`/api/${p}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
      return res.json();
    },
    [path, body] as const,
  )) as { code: number; msg: string; data: T };
  if (r.code !== 200) throw new Error(`${path}: ${r.code} ${r.msg}`);
  return r.data;
}
