import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInToPortal, totalBytes, visitSignIn } from '../bench/first-load.js';
import { type Product, startProduct } from './harness.js';

// A new user's first visit: what the server sends for the web client, and what the sign-in page fetches.
// bench/first-load.ts measures the same in figures (bench/README.md "First load").

/**
 * Issue 12's goal for the sign-in page (measured 114 KB of compressed JavaScript: drawn without antd and
 * without zod; 110 KB since issue 30), and issue 12's goal for sign-in + shell + portal: 300 KB. Issue 30
 * point 5 brought the portal from 481 KB (the guard had been raised to 500 KB) to 292 KB: the 提示 dialog
 * without antd's Table, the shell without zod and the contract's schemas (apps/web/contract-paths.ts), and
 * the sign-in page, the shell and the portal each in one chunk (apps/web/vite.config.ts); bench/README.md
 * "First load" has the figures by chunk.
 */
const SIGN_IN_JS_BUDGET = 150 * 1024;
const PORTAL_JS_BUDGET = 300 * 1024;

/**
 * Code the sign-in page must not fetch: the shell's chunk (antd's root, the shell, the portal), the menu pages
 * and antd's widgets.
 */
const NOT_FOR_SIGN_IN =
  /\/(shell|main-layout|dashboard-page|menu-page|antd-root|feedback-static|table|select|date-picker|form|button)-[\w-]+\.js$/;

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(() => product?.close());

async function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${product.baseUrl}${path}`, { headers });
}

/** The entry script index.html names (a hashed file under assets/). */
async function entryScript(): Promise<string> {
  const html = await (await get('/')).text();
  const src = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error('index.html names no module script');
  return `/${src}`;
}

describe('the web client as the server sends it', () => {
  it('hashed assets are cached for good, index.html is revalidated on every visit', async () => {
    const asset = await get(await entryScript());
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    for (const path of ['/', '/index.html']) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    // Not hashed, so not immutable either.
    expect((await get('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the brotli or gzip file the build made, by Accept-Encoding, with Vary: Accept-Encoding', async () => {
    const path = await entryScript();
    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    const plain = await get(path, { 'accept-encoding': 'identity' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const res of [br, gzip, plain]) {
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('content-type')).toContain('javascript');
    }
    // The same script whichever way it travelled (fetch decodes the body), and smaller compressed.
    const [brText, gzipText, plainText] = await Promise.all([br.text(), gzip.text(), plain.text()]);
    expect(brText).toBe(plainText);
    expect(gzipText).toBe(plainText);
    const sizes = [br, gzip, plain].map((r) => Number(r.headers.get('content-length')));
    expect(sizes[0]).toBeLessThan(sizes[1] ?? 0);
    expect(sizes[1]).toBeLessThan(sizes[2] ?? 0);

    expect((await get('/', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br');
  });

  it('answers a revalidation with 304 when the file is unchanged, per encoding', async () => {
    const path = await entryScript();
    // As a browser revalidates its copy (fetch would otherwise add Cache-Control: no-cache and get a 200).
    const revalidate = (encoding: string, etag: string) => ({
      'accept-encoding': encoding,
      'if-none-match': etag,
      'cache-control': 'max-age=0',
    });
    for (const encoding of ['br', 'gzip']) {
      const first = await get(path, { 'accept-encoding': encoding });
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await get(path, revalidate(encoding, etag ?? ''));
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    const brTag = (await get(path, { 'accept-encoding': 'br' })).headers.get('etag') ?? '';
    // Another encoding is another file: its tag does not match.
    expect((await get(path, revalidate('gzip', brTag))).status).toBe(200);

    const page = await get('/', { 'accept-encoding': 'identity' });
    const revalidated = await get('/', revalidate('identity', page.headers.get('etag') ?? ''));
    expect(revalidated.status).toBe(304);
  });

  it('leaves the API and unknown addresses as they were', async () => {
    const health = await get('/api/health', { 'accept-encoding': 'br' });
    expect(health.status).toBe(200);
    expect(((await health.json()) as { code: number }).code).toBe(200);
    const unknown = await get('/api/no-such-call');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 404, msg: '接口不存在' });
    expect((await get('/assets/no-such-chunk-123.js')).status).toBe(404);
  });

  it('index.html holds nothing that blocks the first paint, and shows the brand while the code loads', async () => {
    const html = await (await get('/')).text();
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    expect(html.match(/<script/g)).toHaveLength(1);

    const page = await product.newPage();
    // No script arrives: what a visitor sees on a slow line before the code.
    await page.route('**/*.js', (route) => route.abort());
    await page.goto(`${product.baseUrl}/#/login`);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('代账云');
    expect(await page.getByRole('status').textContent()).toContain('正在加载');
    expect(await page.locator('.dzy-boot-spin').isVisible()).toBe(true);
    await page.context().close();
  });
});

describe('the sign-in page in Chromium', () => {
  it('loads only its own code, compressed, and the loading state gives way to the form', async () => {
    const visit = await visitSignIn(product.browser, product.baseUrl);
    const { page, scripts } = visit;
    expect(await page.getByPlaceholder('手机号 / 账号').isVisible()).toBe(true);
    expect(await page.locator('.dzy-boot').count()).toBe(0);

    const urls = scripts.map((s) => s.url);
    expect(urls.filter((u) => NOT_FOR_SIGN_IN.test(u))).toEqual([]);
    // Every script worth compressing came compressed (tiny ones are sent as they are).
    expect(scripts.filter((s) => s.bytes > 1024 && s.encoding !== 'br')).toEqual([]);
    expect(totalBytes(scripts)).toBeLessThanOrEqual(SIGN_IN_JS_BUDGET);

    // The two tabs still switch, by mouse and by keyboard.
    await page.getByRole('tab', { name: '验证码登录' }).click();
    expect(await page.getByPlaceholder('手机号', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByPlaceholder('手机号 / 账号').isVisible()).toBe(false);
    await page.getByRole('tab', { name: '验证码登录' }).press('ArrowLeft');
    expect(await page.getByRole('tab', { name: '账号登录' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByPlaceholder('手机号 / 账号').isVisible()).toBe(true);

    // The form checks as antd's did: each field on submit, the consent, the phone before a code is sent.
    await page.getByRole('tab', { name: '账号登录' }).click();
    await page.getByRole('button', { name: '登 录' }).click();
    await expect.poll(() => page.getByText('请输入账号').count()).toBe(1);
    expect(await page.getByText('请输入密码').count()).toBe(1);
    expect(await page.getByText('请先阅读并勾选同意用户协议和隐私政策').count()).toBe(1);
    await page.getByPlaceholder('手机号 / 账号').fill('13800000000');
    await expect.poll(() => page.getByText('请输入账号').count()).toBe(0);
    await page.getByRole('tab', { name: '验证码登录' }).click();
    await page.getByPlaceholder('手机号', { exact: true }).fill('1380');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => page.getByText('请输入正确的手机号').count()).toBe(1);
    await page.context().close();

    // Signing in then brings antd, the shell and the portal, within their budget. A fresh visit: the one
    // above had started fetching the shell as soon as the form was used.
    const fresh = await visitSignIn(product.browser, product.baseUrl);
    const portal = await signInToPortal(fresh.page);
    // antd's root, the shell and the portal come as one chunk (apps/web/vite.config.ts), compressed.
    expect(portal.map((s) => s.url).some((u) => /\/shell-[\w-]+\.js$/.test(u))).toBe(true);
    expect(portal.filter((s) => s.bytes > 1024 && s.encoding !== 'br')).toEqual([]);
    expect(totalBytes(fresh.scripts) + totalBytes(portal)).toBeLessThanOrEqual(PORTAL_JS_BUDGET);
    await fresh.page.context().close();
  });
});
