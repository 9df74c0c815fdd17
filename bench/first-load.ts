import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page, type Response } from 'playwright-core';

// `npm run bench:first-load`: the first visit of a new user, measured in Chromium against the built product
// (apps/server/build and the web build in WEB_DIST, default apps/web/dist). See bench/README.md "First load".

export const DEMO_ADMIN = '13800000000';
const DEMO_PASSWORD = 'Demo@2026';

/** The goals of issue 12 point 1. */
export const GOALS = {
  /** Compressed JavaScript a first visit to the sign-in page transfers. */
  signInJsBytes: 150 * 1024,
  /** ... and after signing in and landing on the portal in the shell, in all. */
  portalJsBytes: 300 * 1024,
  /** From navigation start to the sign-in form on screen, on a quiet machine. */
  formVisibleMs: 1500,
  /** From navigation start to the first paint of anything, on the slow 3G profile. */
  slowFirstPaintMs: 1000,
};

/** Chrome DevTools' "Slow 3G": about 400 kbit/s both ways and 400 ms round trip. */
export const SLOW_3G = { latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 };

const ACCOUNT_INPUT = 'input[placeholder="手机号 / 账号"]';

/**
 * Runs in the page before any of its scripts: notes when the sign-in form's account field is in the DOM
 * and painted (the frame after it appeared). Plain JavaScript, as the page runs it.
 */
const FORM_MARKER = `(() => {
  const seen = () => {
    if (!document.querySelector(${JSON.stringify(ACCOUNT_INPUT)})) return false;
    requestAnimationFrame(() => { window.__dzyFormVisible = performance.now(); });
    return true;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  observer.observe(document, { childList: true, subtree: true });
})();`;

export interface Transfer {
  url: string;
  /** Bytes of the body as sent (after content encoding). */
  bytes: number;
  encoding: string;
}

/** Every script the page fetches over the network, with its size on the wire. */
export function recordScripts(page: Page): () => Promise<Transfer[]> {
  const responses: Response[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') responses.push(res);
  });
  return async () => {
    const out: Transfer[] = [];
    for (const res of responses.splice(0)) {
      await res.finished();
      const sizes = await res.request().sizes();
      out.push({ url: res.url(), bytes: sizes.responseBodySize, encoding: res.headers()['content-encoding'] ?? '' });
    }
    return out;
  };
}

export const totalBytes = (list: Transfer[]) => list.reduce((sum, t) => sum + t.bytes, 0);

// The page's CSP allows no eval, so what runs in the page is passed as functions, not strings.
async function firstContentfulPaint(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? false,
  );
  return (await handle.jsonValue()) as number;
}

async function formVisible(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => (globalThis as { __dzyFormVisible?: number }).__dzyFormVisible ?? false,
    undefined,
    { timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** When (ms from navigation start) the last script and the session check had arrived. */
async function milestones(page: Page): Promise<{ scriptsDone: number; sessionDone: number }> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as unknown as { name: string; responseEnd: number }[];
    return {
      scriptsDone: Math.max(0, ...entries.filter((e) => e.name.endsWith('.js')).map((e) => e.responseEnd)),
      sessionDone: Math.max(0, ...entries.filter((e) => e.name.includes('/user/session')).map((e) => e.responseEnd)),
    };
  });
}

export interface SignInVisit {
  page: Page;
  scriptsDoneMs: number;
  sessionDoneMs: number;
  /** Scripts fetched until the sign-in page was complete and the network quiet. */
  scripts: Transfer[];
  formVisibleMs: number;
  firstPaintMs: number;
}

/** A first visit (empty cache) to the sign-in page; `slow` emulates the slow 3G network. */
export async function visitSignIn(browser: Browser, baseUrl: string, slow = false): Promise<SignInVisit> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_3G });
  }
  await page.addInitScript({ content: FORM_MARKER });
  const scripts = recordScripts(page);
  await page.goto(`${baseUrl}/#/login`, { waitUntil: 'commit' });
  const formVisibleMs = await formVisible(page);
  const firstPaintMs = await firstContentfulPaint(page);
  await page.waitForLoadState('networkidle');
  const { scriptsDone, sessionDone } = await milestones(page);
  return {
    page,
    scripts: await scripts(),
    formVisibleMs,
    firstPaintMs,
    scriptsDoneMs: scriptsDone,
    sessionDoneMs: sessionDone,
  };
}

/** From the sign-in page: signs in as the demo administrator and waits for the portal's figures. */
export async function signInToPortal(page: Page): Promise<Transfer[]> {
  const scripts = recordScripts(page);
  await page.locator(ACCOUNT_INPUT).fill(DEMO_ADMIN);
  await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
  await page.locator('.dzy-auth-consent input').check();
  await page.getByRole('button', { name: '登 录' }).click();
  await page.waitForURL(/#\/dashboard/);
  await page.locator('.dzy-stat-value').first().waitFor();
  await page.waitForLoadState('networkidle');
  return scripts();
}

// --- the command ------------------------------------------------------------------------------------------

const ROOT = resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

async function waitForHealth(url: string, ms: number) {
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

/** The compiled server on a fresh embedded database (it seeds the demo data on first start). */
async function startServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dzy-first-load-'));
  const port = await freePort();
  const server: ChildProcess = spawn(process.execPath, ['apps/server/build/main.mjs'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Nothing on these pages reaches the e-tax bureau; a closed port keeps the simulator out of the figures.
      TAX_BUREAU_URL: `http://127.0.0.1:${await freePort()}`,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, fail) =>
    server.once('exit', (code) => fail(new Error(`the server stopped (exit ${code}): is apps/server/build built?`))),
  );
  // A fresh embedded database migrates and seeds first: on a busy machine that takes a while.
  await Promise.race([waitForHealth(`${baseUrl}/api/health`, 180_000), exited]);
  exited.catch(() => {});
  return {
    baseUrl,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((ok) => server.once('exit', ok));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${Math.round(n)} ms`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function main() {
  const runs = Number(process.env.FIRST_LOAD_RUNS ?? 5);
  const verbose = process.env.FIRST_LOAD_VERBOSE === '1';
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    // One visit that is not counted: the server's and the disk's first touches.
    await (await visitSignIn(browser, server.baseUrl)).page.context().close();

    const quiet: SignInVisit[] = [];
    for (let i = 0; i < runs; i++) quiet.push(await visitSignIn(browser, server.baseUrl));
    const first = quiet[0];
    if (!first) throw new Error('FIRST_LOAD_RUNS must be at least 1');
    const portal = await signInToPortal(first.page);
    for (const v of quiet) await v.page.context().close();

    const slow = await visitSignIn(browser, server.baseUrl, true);
    await slow.page.context().close();

    const signInJs = totalBytes(first.scripts);
    const allJs = signInJs + totalBytes(portal);
    const formMs = median(quiet.map((v) => v.formVisibleMs));
    const rows: [string, string, string, boolean][] = [
      ['sign-in page: compressed JS', kb(signInJs), `≤ ${kb(GOALS.signInJsBytes)}`, signInJs <= GOALS.signInJsBytes],
      [
        'sign-in + shell + portal: compressed JS',
        kb(allJs),
        `≤ ${kb(GOALS.portalJsBytes)}`,
        allJs <= GOALS.portalJsBytes,
      ],
      [
        `sign-in form visible, quiet (median of ${runs})`,
        ms(formMs),
        `≤ ${ms(GOALS.formVisibleMs)}`,
        formMs <= GOALS.formVisibleMs,
      ],
      [
        'first paint, slow 3G',
        ms(slow.firstPaintMs),
        `≤ ${ms(GOALS.slowFirstPaintMs)}`,
        slow.firstPaintMs <= GOALS.slowFirstPaintMs,
      ],
    ];
    console.log(`\nFirst load (${server.baseUrl}, Chromium ${browser.version()})\n`);
    for (const [what, got, goal, ok] of rows) {
      console.log(`  ${what.padEnd(44)} ${got.padStart(10)}   goal ${goal.padEnd(12)} ${ok ? 'met' : 'NOT MET'}`);
    }
    console.log('\n  also:');
    console.log(`    sign-in scripts: ${first.scripts.length} files, encodings ${encodings(first.scripts)}`);
    console.log(`    portal scripts after sign-in: ${portal.length} files, ${kb(totalBytes(portal))}`);
    console.log(`    first paint, quiet (median): ${ms(median(quiet.map((v) => v.firstPaintMs)))}`);
    console.log(`    sign-in form visible, slow 3G: ${ms(slow.formVisibleMs)}`);
    console.log(`    form visible, quiet, each run: ${quiet.map((v) => ms(v.formVisibleMs)).join(', ')}`);
    console.log(`    quiet, last script arrived (median): ${ms(median(quiet.map((v) => v.scriptsDoneMs)))}`);
    console.log(`    quiet, session check answered (median): ${ms(median(quiet.map((v) => v.sessionDoneMs)))}`);
    if (verbose) {
      for (const [stage, list] of [
        ['sign-in', first.scripts],
        ['portal', portal],
      ] as const) {
        console.log(`\n  ${stage}:`);
        for (const t of [...list].sort((a, b) => b.bytes - a.bytes)) {
          console.log(`    ${kb(t.bytes).padStart(9)}  ${t.encoding.padEnd(4)} ${new URL(t.url).pathname}`);
        }
      }
    }
    process.exitCode = rows.every((r) => r[3]) ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

function encodings(list: Transfer[]): string {
  const counts = new Map<string, number>();
  for (const t of list) counts.set(t.encoding || 'none', (counts.get(t.encoding || 'none') ?? 0) + 1);
  return [...counts].map(([e, n]) => `${e} ×${n}`).join(', ');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
