import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { customerCreateCall, HELPER_MSG, HELPER_PORTS } from '@dzy/shared';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUscc } from '../apps/server/test/customer-helpers';
import { DEMO_ADMIN, type Product, signIn, startProduct } from './harness';

const ROOT = resolve(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

const visible = (l: Locator, timeout = 20_000) => l.first().waitFor({ state: 'visible', timeout });

let product: Product;
let helper: { proc: ChildProcess; url: string } | null = null;
let page: Page;
const ents = {
  sms: { qymc: '杭州短信验证科技有限公司', qysh: newUscc() },
  mismatch: { qymc: '杭州旧密码贸易有限公司', qysh: newUscc() },
};

/** `npm run helper` as a user starts it: its own process, told the product's origin and the bureau. */
async function startHelperProcess(): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(TSX, ['apps/helper/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DZY_ORIGIN: product.baseUrl, TAX_BUREAU_URL: product.bureauUrl, DZY_HELPER_PORT: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('helper did not start')), 30_000);
    let out = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done(m[0]);
      }
    });
    proc.once('exit', () => fail(new Error(`helper exited: ${out}`)));
  });
  return { proc, url };
}

async function stopHelper() {
  if (!helper) return;
  const { proc } = helper;
  helper = null;
  proc.kill('SIGTERM');
  await new Promise((ok) => proc.once('exit', ok));
}

async function snap(name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (!shots) return;
  await page.screenshot({ path: join(shots, `etax-${name}.png`) });
}

async function setScenario(qysh: string, scenario: string, qymc: string) {
  const res = await fetch(`${product.bureauUrl}/admin/taxpayers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ qysh, scenario, qymc }),
  });
  expect(res.ok).toBe(true);
}

async function openLogin(qymc: string) {
  await page.goto(`${product.baseUrl}/#/customer/khgl/wdkh`);
  // The book restores the last query first; search once it has shown its rows.
  await visible(page.locator('tr.ant-table-row'));
  await page.getByPlaceholder('企业名称或税号').first().fill(qymc);
  await page
    .getByRole('button', { name: /查\s*询/ })
    .first()
    .click();
  const row = page.locator('tr.ant-table-row', { hasText: qymc });
  await visible(row);
  try {
    await row.getByRole('button', { name: '登录电子税务局' }).click({ timeout: 15_000 });
  } catch (err) {
    await page.screenshot({ path: join(process.env.E2E_SHOTS_DIR ?? '/tmp', 'etax-open-failed.png') });
    throw err;
  }
}

/** A new browser context, signed in as the demo administrator. */
async function freshPage() {
  if (page) await page.context().close();
  page = await product.newPage();
  await signIn(page, product.baseUrl, DEMO_ADMIN);
}

beforeAll(async () => {
  product = await startProduct();
  await freshPage();
  await setScenario(ents.sms.qysh, 'sms', ents.sms.qymc);
  await setScenario(ents.mismatch.qysh, 'mismatch', ents.mismatch.qymc);
  for (const e of Object.values(ents)) {
    const res = await page.request.post(`${product.baseUrl}/api/${customerCreateCall.path}`, {
      // As the product's page would send it: a cookie-carrying POST needs its Origin (plugins/security.ts).
      headers: { origin: product.baseUrl },
      data: {
        ...e,
        credentials: { xdzswj_dlzh: '13312345678', xdzswj_pass: 'Old#Pass1', xdzswj_sfbm: '3', login_type: '0' },
      },
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  }
  helper = await startHelperProcess();
});

afterAll(async () => {
  await stopHelper();
  await product?.close();
});

describe('e-tax login through the helper', () => {
  it('the helper runs on a port the page probes, and the downloads page finds it', async () => {
    const port = Number(new URL(helper?.url ?? '').port);
    expect(HELPER_PORTS as readonly number[]).toContain(port);
    await page.goto(`${product.baseUrl}/#/nested/aboutDownload`);
    const status = page.getByTestId('helper-status');
    await visible(status.getByText('365基础服务运行正常'));
    expect(await status.textContent()).toContain(`已在本机端口 ${port} 检测到`);
    await snap('downloads-found');
  });

  it('SMS verification, then the e-tax hall titled with the name and tax number', async () => {
    const { qymc, qysh } = ents.sms;
    await openLogin(qymc);
    const dialog = page.getByRole('dialog', { name: '登录电子税务局' });
    await visible(dialog.getByText('该企业登录需要短信验证'));
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await visible(dialog.getByRole('button', { name: /s后重新获取/ }));
    const sms = (await (await fetch(`${product.bureauUrl}/admin/sms?qysh=${qysh}`)).json()) as {
      data: { code: string };
    };
    await dialog.getByLabel('短信验证码').fill(sms.data.code);
    await snap('sms');
    await dialog.getByRole('button', { name: '验证并登录' }).click();
    const hall = page.locator('.dzy-hall-dialog');
    await visible(hall.locator('.ant-modal-title', { hasText: `${qymc}（${qysh}）` }));
    const frame = page.frameLocator('iframe.dzy-hall-frame');
    await visible(frame.getByText(qysh));
    await snap('hall');
    await hall.locator('.ant-modal-close').click();
  });

  it('a wrong password shows 用户名与密码不匹配，请修改 and the server keeps isVerifySet 4', async () => {
    const { qymc } = ents.mismatch;
    await openLogin(qymc);
    const dialog = page.getByRole('dialog', { name: '登录电子税务局' });
    await visible(dialog.getByText('用户名与密码不匹配，请修改'));
    await snap('mismatch');
    await dialog.getByRole('button', { name: '关闭' }).click();
    // Opened again in a new browser, the dialog shows what the server saved (isVerifySet '4').
    await freshPage();
    await openLogin(qymc);
    const again = page.getByRole('dialog', { name: '登录电子税务局' });
    await visible(again.locator('.dzy-etax-flag', { hasText: '账号密码不匹配' }));
    await visible(again.getByText('用户名与密码不匹配，请修改'));
    await again.getByRole('button', { name: '关闭' }).click();
  });

  it('the helper refuses a page of another origin', async () => {
    const other = await product.newPage();
    await other.goto(`${product.bureauUrl}/health`);
    const url = helper?.url ?? '';
    const fromOther = await other.evaluate(
      (u) =>
        fetch(`${u}/?func=upversion`).then(
          () => 'answered',
          () => 'refused',
        ),
      url,
    );
    expect(fromOther).toBe('refused');
    const fromProduct = await page.evaluate((u) => fetch(`${u}/?func=upversion`).then((r) => r.status), url);
    expect(fromProduct).toBe(200);
    await other.context().close();
  });

  it('with the helper stopped: 365基础服务未正常启动; 已安装，去启动 finds it once it runs', async () => {
    await stopHelper();
    await openLogin(ents.sms.qymc);
    const dialog = page.getByRole('dialog', { name: '系统提示' });
    await visible(dialog.getByText(HELPER_MSG.notRunning));
    await visible(dialog.getByRole('button', { name: '未安装，去下载' }));
    await snap('not-running');
    await dialog.getByRole('button', { name: '已安装，去启动' }).click();
    await visible(dialog.getByText(/正在启动365基础服务/));
    // The user starts it while the page keeps looking (10 tries, 1 s apart).
    helper = await startHelperProcess();
    const login = page.getByRole('dialog', { name: '登录电子税务局' });
    await visible(login.getByText('该企业登录需要短信验证'), 15_000);
    await snap('started');
    // Headless Chromium keeps an invisible prompt for the unregistered dzy365:// handler that swallows
    // further input in this tab (a user answers it); the next test goes on in a fresh one.
    await freshPage();
  });

  it('短信登录验证失效 offers 去验证: the trusted-login dialog shows 登录成功 on the page message', async () => {
    const { qymc, qysh } = ents.sms;
    await openLogin(qymc);
    const dialog = page.getByRole('dialog', { name: '登录电子税务局' });
    await visible(dialog.getByText('该企业登录需要短信验证'));
    // The helper restarts between the login and the code: the SMS login it held is gone.
    await stopHelper();
    helper = await startHelperProcess();
    await dialog.getByLabel('短信验证码').fill('123456');
    await dialog.getByRole('button', { name: '验证并登录' }).click();
    await visible(dialog.getByText('短信登录验证失效'));
    await dialog.getByRole('button', { name: '去验证' }).click();
    const trusted = page.getByRole('dialog', { name: `可信登录 · ${qymc}` });
    const frame = page.frameLocator('iframe.dzy-trusted-frame');
    await frame.locator('input[name=account]').fill('13312345678');
    await frame.locator('input[name=password]').fill('Old#Pass1');
    await frame.getByRole('button', { name: '登录', exact: true }).click();
    await visible(frame.locator('#sms'));
    await frame.getByRole('button', { name: '获取验证码' }).click();
    await visible(frame.getByText('验证码已发送'));
    const sms = (await (await fetch(`${product.bureauUrl}/admin/sms?qysh=${qysh}`)).json()) as {
      data: { code: string };
    };
    await frame.locator('input[name=code]').fill(sms.data.code);
    await frame.getByRole('button', { name: '登录', exact: true }).click();
    await visible(trusted.locator('.ant-result-title', { hasText: '登录成功' }));
    await snap('trusted');
  });
});
