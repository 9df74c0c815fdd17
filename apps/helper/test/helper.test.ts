import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUREAU_MSG,
  CODE,
  encodeHelperData,
  HELPER_CODE,
  HELPER_MIN_VERSION,
  HELPER_MSG,
  HELPER_PORTS,
  HELPER_STATUS,
  HELPER_VERSION,
  type HelperCookieData,
  type HelperLoginData,
  type HelperProbeReply,
  type HelperReply,
  httpBureauClient,
} from '@dzy/shared';
import { type Scenario, startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, create, newUscc, stored } from '../../server/test/customer-helpers.js';
import { startTestApp, type TestApp } from '../../server/test/harness.js';
import { type HelperHandle, startHelper } from '../src/helper.server.js';
import type { SelfInstall } from '../src/upgrade.js';

// Each test makes several bureau and product round trips; on a loaded two-core machine 30 s is too tight.
vi.setConfig({ testTimeout: 90_000 });

let sim: TaxSim;
let t: TestApp;
let helper: HelperHandle;
let origin: string;
let admin: string;
const ents: Partial<Record<Scenario, { id: number; qysh: string; qymc: string }>> = {};

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw request to the helper, with exactly the headers given (a browser's Origin, a forged Host ...). */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port: helper.port, method, path, headers: { host: `127.0.0.1:${helper.port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

async function post<T>(
  path: string,
  func: string,
  data: unknown,
  opts: { from?: string; token?: string; callbackurl?: string } = {},
): Promise<HelperReply<T>> {
  const from = opts.from ?? origin;
  const body = JSON.stringify({
    data: encodeHelperData(data),
    token: opts.token ?? '123',
    callbackurl: opts.callbackurl ?? `${from}/api/helper/redeem`,
    func,
  });
  const r = await raw('POST', path, { origin: from, 'content-type': 'application/json' }, body);
  expect(r.status).toBe(200);
  return JSON.parse(r.text) as HelperReply<T>;
}

async function grant(aeiId: number): Promise<string> {
  const r = await t.call<{ grant: string }>('user/etax/helperGrant', { aeiId }, admin);
  expect(r.code).toBe(CODE.OK);
  return r.data.grant;
}

const login = async (aeiId: number) =>
  post<HelperLoginData>('/hb_etax_ex', 'login_etax', { grant: await grant(aeiId), aeiId });

beforeAll(async () => {
  sim = await startTaxSim();
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  helper = await startHelper({
    origins: [origin, 'http://127.0.0.1:1'],
    bureau: httpBureauClient({ baseUrl: sim.url, busyDelayMs: () => 0 }),
    bureauUrl: sim.url,
    port: 0,
  });
  admin = await t.login(ADMIN);
  for (const scenario of ['clean', 'sms', 'mismatch', 'busy'] as const) {
    const qysh = newUscc();
    const qymc = `助手测试${scenario}有限公司`;
    sim.setScenario(qysh, scenario, qymc);
    const made = await create(t, admin, {
      qymc,
      qysh,
      credentials: { xdzswj_dlzh: `acc-${scenario}`, xdzswj_pass: 'Old#Pass1', xdzswj_sfbm: '1', login_type: '0' },
    });
    expect(made.code).toBe(CODE.OK);
    ents[scenario] = { id: made.data.id, qysh, qymc };
  }
}, 240_000);

// Closing the product's database takes a while when the machine is busy (it hit 60 s once under load).
afterAll(async () => {
  await helper?.close();
  await t?.close();
  await sim?.close();
}, 180_000);

const ent = (s: Scenario) => {
  const e = ents[s];
  if (!e) throw new Error(`no enterprise for ${s}`);
  return e;
};

describe('listening', () => {
  it('listens on loopback only, and refuses any other address', async () => {
    expect(helper.url).toBe(`http://127.0.0.1:${helper.port}`);
    await expect(
      startHelper({
        origins: [origin],
        bureau: httpBureauClient({ baseUrl: sim.url }),
        bureauUrl: sim.url,
        host: '0.0.0.0',
      }),
    ).rejects.toThrow(/回环/);
  });

  it('takes the first free port of the ones the page probes', async () => {
    const other = await startHelper({
      origins: [origin],
      bureau: httpBureauClient({ baseUrl: sim.url }),
      bureauUrl: sim.url,
    });
    try {
      expect(HELPER_PORTS as readonly number[]).toContain(other.port);
    } finally {
      await other.close();
    }
  });
});

describe('origin and host', () => {
  it('answers the product origin with CORS for it', async () => {
    const r = await raw('GET', '/?func=upversion', { origin });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe(origin);
  });

  it('refuses another origin, or none, with 403 and no CORS headers', async () => {
    const tries: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'http://127.0.0.1:9999' },
      {},
    ];
    for (const headers of tries) {
      const r = await raw('GET', '/?func=upversion', headers);
      expect(r.status).toBe(403);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    const body = JSON.stringify({ data: '', token: '123', callbackurl: '', func: 'get_cookie' });
    const p = await raw('POST', '/hb_etax_ex', { origin: 'http://evil.example' }, body);
    expect(p.status).toBe(403);
    expect(p.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers the preflight only for the product, private-network access included', async () => {
    const ok = await raw('OPTIONS', '/hb_etax_ex', {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-private-network': 'true',
    });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(origin);
    expect(ok.headers['access-control-allow-methods']).toContain('POST');
    expect(ok.headers['access-control-allow-private-network']).toBe('true');
    const evil = await raw('OPTIONS', '/hb_etax_ex', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
    });
    expect(evil.status).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a request whose Host is not loopback (DNS rebinding)', async () => {
    const r = await raw('GET', '/?func=upversion', { origin, host: `evil.example:${helper.port}` });
    expect(r.status).toBe(403);
  });
});

describe('probes and status codes', () => {
  it('upversion, findDevice and upversionAll answer 200 with the version', async () => {
    for (const func of ['upversion', 'findDevice', 'upversionAll']) {
      const r = JSON.parse((await raw('GET', `/?func=${func}`, { origin })).text) as HelperProbeReply;
      expect(r.code).toBe(HELPER_STATUS.ok);
      expect(r.version).toBe(HELPER_VERSION);
      if (func !== 'upversion') expect(r.device?.os).toBeTruthy();
    }
  });

  it('900 when the page needs a newer version', async () => {
    const r = JSON.parse((await raw('GET', '/?func=upversion&minVersion=99.0.0', { origin })).text) as HelperProbeReply;
    expect(r.code).toBe(HELPER_STATUS.tooOld);
    expect(r.msg).toBe(HELPER_MSG.tooOld);
  });

  it('201 while upgrading, and calls are refused until it ends', async () => {
    helper.setUpgrading(true);
    try {
      const r = JSON.parse((await raw('GET', '/?func=upversion', { origin })).text) as HelperProbeReply;
      expect(r.code).toBe(HELPER_STATUS.upgrading);
      const c = await post('/', 'openrun', {});
      expect(c.code).toBe('201');
      expect(c.msg).toBe(HELPER_MSG.upgrading);
    } finally {
      helper.setUpgrading(false);
    }
    expect((await post('/', 'openrun', {})).code).toBe(HELPER_CODE.ok);
  });
});

describe('the local protocol', () => {
  it('checks the token, the body and the function', async () => {
    expect((await post('/', 'openrun', {}, { token: 'nope' })).code).toBe(HELPER_CODE.badToken);
    const bad = await raw('POST', '/hb_etax_ex', { origin }, 'not json');
    expect(JSON.parse(bad.text)).toMatchObject({ code: HELPER_CODE.badRequest });
    const garbled = await raw(
      'POST',
      '/hb_etax_ex',
      { origin },
      JSON.stringify({ data: '%%%', token: '123', callbackurl: '', func: 'get_cookie' }),
    );
    expect(JSON.parse(garbled.text)).toMatchObject({ code: HELPER_CODE.badRequest });
    expect((await post('/hb_etax_ex', 'format_disk', {})).code).toBe(HELPER_CODE.unknownFunc);
    expect((await post('/gsxt', 'Logout', {})).code).toBe(HELPER_CODE.unknownFunc);
  });

  it('computer_info and openrun answer HHZX_SYS_0000', async () => {
    const r = await post<{ version: string }>('/', 'computer_info', {});
    expect(r.code).toBe(HELPER_CODE.ok);
    expect(r.data.version).toBe(HELPER_VERSION);
  });

  it('sends the grant only back to the page origin', async () => {
    const e = ent('clean');
    const r = await post(
      '/hb_etax_ex',
      'login_etax',
      { grant: await grant(e.id), aeiId: e.id },
      {
        callbackurl: 'http://evil.example/api/helper/redeem',
      },
    );
    expect(r.code).toBe(HELPER_CODE.badRequest);
  });

  it('E90000 when the product cannot be reached to redeem the grant', async () => {
    const e = ent('clean');
    const r = await post(
      '/hb_etax_ex',
      'login_etax',
      { grant: await grant(e.id), aeiId: e.id },
      {
        from: 'http://127.0.0.1:1',
      },
    );
    expect(r.code).toBe(HELPER_CODE.unreachable);
    expect(r.msg).toBe(HELPER_MSG.e90000);
  });

  it('passes the product refusal of a used grant on', async () => {
    const e = ent('clean');
    const g = await grant(e.id);
    expect((await post<HelperLoginData>('/hb_etax_ex', 'login_etax', { grant: g, aeiId: e.id })).code).toBe(
      HELPER_CODE.ok,
    );
    const again = await post('/hb_etax_ex', 'login_etax', { grant: g, aeiId: e.id });
    expect(again.code).toBe(String(CODE.CONFLICT));
    expect(again.msg).toBe('登录凭证已使用，请重新登录');
  });
});

describe('login outcomes against the simulator', () => {
  it('1: logged in; get_cookie gives the hall of that taxpayer; ShenBaoQG answers from the session', async () => {
    const e = ent('clean');
    const r = await login(e.id);
    expect(r).toMatchObject({ code: HELPER_CODE.ok, data: { status: 1, qysh: e.qysh, qymc: e.qymc } });
    const c = await post<HelperCookieData>('/hb_etax_ex', 'get_cookie', { aeiId: e.id });
    expect(c.code).toBe(HELPER_CODE.ok);
    expect(c.data.hallUrl.startsWith(`${sim.url}/hall?session=`)).toBe(true);
    const hall = await fetch(c.data.hallUrl);
    expect(hall.status).toBe(200);
    expect(await hall.text()).toContain(e.qysh);
    const info = await post<{ qysh: string }>('/ShenBaoQG', 'nsrjcxx', { aeiId: e.id });
    expect(info.data.qysh).toBe(e.qysh);
    const audits = await t.ownerQuery<{ detail: { status: number } }>(
      'select detail from audit_log where action = $1 and target = $2',
      ['etax.login_result', `enterprise:${e.id}`],
    );
    expect(audits.some((a) => a.detail.status === 1)).toBe(true);
  });

  it('2: SMS needed (30001); send, a wrong code may be retried, the right one logs in', async () => {
    const e = ent('sms');
    const r = await login(e.id);
    expect(r.code).toBe(HELPER_CODE.ok);
    expect(r.data).toMatchObject({ status: 2, smsCode: '30001' });
    expect((await post('/hb_etax_ex', 'sendSms', { aeiId: e.id })).code).toBe(HELPER_CODE.ok);
    const code = sim.lastSms(e.qysh)?.code ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await post<HelperLoginData>('/hb_etax_ex', 'SmsLogin', {
      aeiId: e.id,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.data).toMatchObject({ status: 0, mismatch: false });
    const right = await post<HelperLoginData>('/hb_etax_ex', 'SmsLogin', { aeiId: e.id, code });
    expect(right.data).toMatchObject({ status: 1, qysh: e.qysh });
    expect((await post('/hb_etax_ex', 'get_cookie', { aeiId: e.id })).code).toBe(HELPER_CODE.ok);
    // Nothing pending any more: the SMS login has lapsed (the page offers 去验证).
    const lapsed = await post('/hb_etax_ex', 'SmsLogin', { aeiId: e.id, code });
    expect(lapsed.msg).toBe(BUREAU_MSG.smsLoginExpired);
  });

  it('0: 用户名与密码不匹配，请修改, and the product saves isVerifySet 4', async () => {
    const e = ent('mismatch');
    const r = await login(e.id);
    expect(r.code).toBe(HELPER_CODE.ok);
    expect(r.data).toEqual({ status: 0, msg: BUREAU_MSG.mismatch, mismatch: true });
    expect((await stored(t, 1, e.id))?.isVerifySet).toBe('4');
    const c = await post('/hb_etax_ex', 'get_cookie', { aeiId: e.id });
    expect(c.msg).toBe(HELPER_MSG.noSession);
  });

  it('busy: the bureau says too many people (after its retries) → the busy message', async () => {
    const e = ent('busy');
    const r = await login(e.id);
    expect(r.code).toBe(HELPER_CODE.busy);
    expect(r.msg).toBe(BUREAU_MSG.busy);
  });

  it('busy: a second login of the same enterprise while one runs is told to wait', async () => {
    const e = ent('clean');
    sim.faults.set({ slowMs: 400 }, e.qysh);
    try {
      const [a, b] = await Promise.all([login(e.id), login(e.id)]);
      const codes = [a.code, b.code].sort();
      expect(codes).toEqual([HELPER_CODE.ok, HELPER_CODE.busy].sort());
    } finally {
      sim.faults.clear(e.qysh);
    }
  });

  it('trusted_login gives the bureau page for the taxpayer', async () => {
    const e = ent('clean');
    const r = await post<{ url: string }>('/hb_etax_ex', 'trusted_login', { qysh: e.qysh, qymc: e.qymc });
    expect(r.data.url.startsWith(`${sim.url}/trusted-login?`)).toBe(true);
    expect(new URL(r.data.url).searchParams.get('qysh')).toBe(e.qysh);
  });
});

describe('pwdcheck, get_user and the business-credit login (/gsxt Login, /notice/report/home)', () => {
  it('pwdcheck: the stored password checked against the bureau without keeping a session', async () => {
    const clean = ent('clean');
    await post('/hb_etax_ex', 'logout', { aeiId: clean.id });
    const okay = await post<{ pass: boolean; msg: string }>('/', 'pwdcheck', {
      grant: await grant(clean.id),
      aeiId: clean.id,
    });
    expect(okay).toMatchObject({ code: HELPER_CODE.ok, data: { pass: true, msg: '密码正确' } });
    expect((await post('/hb_etax_ex', 'get_cookie', { aeiId: clean.id })).msg).toBe(HELPER_MSG.noSession);
    const sms = ent('sms');
    const needsSms = await post<{ pass: boolean }>('/', 'pwdcheck', { grant: await grant(sms.id), aeiId: sms.id });
    expect(needsSms.data).toEqual({ pass: true, msg: '密码正确（登录需短信验证）' });
    const bad = ent('mismatch');
    const wrong = await post<{ pass: boolean; msg: string }>('/', 'pwdcheck', {
      grant: await grant(bad.id),
      aeiId: bad.id,
    });
    expect(wrong.data).toEqual({ pass: false, msg: BUREAU_MSG.mismatch });
    expect((await post('/', 'pwdcheck', { aeiId: clean.id })).code).toBe(HELPER_CODE.badRequest);
  });

  it('get_user: who the held bureau session is; none held → 请先登录电子税务局', async () => {
    const e = ent('clean');
    expect((await login(e.id)).data).toMatchObject({ status: 1 });
    const u = await post<{ qysh: string; qymc: string; since: string }>('/hb_etax_ex', 'get_user', { aeiId: e.id });
    expect(u.code).toBe(HELPER_CODE.ok);
    expect(u.data).toMatchObject({ qysh: e.qysh, qymc: e.qymc });
    expect(Date.parse(u.data.since)).not.toBeNaN();
    const none = await post('/hb_etax_ex', 'get_user', { aeiId: ent('busy').id });
    expect(none.msg).toBe(HELPER_MSG.noSession);
  });

  it('computer_info names the machine', async () => {
    const r = await post<{ hostname: string; os: string; arch: string }>('/', 'computer_info', {});
    expect(r.data.hostname).not.toBe('');
    expect(r.data.os).toContain(process.platform);
  });

  it('/gsxt Login, then the annual-report home with that session', async () => {
    const e = ent('clean');
    const before = await post('/notice/report/home', 'home', { qysh: e.qysh });
    expect(before.msg).toBe('请先登录国家企业信用信息公示系统');
    expect((await post('/gsxt', 'Login', { qysh: e.qysh, password: 'x' })).msg).toBe('缺少lxrxm');
    expect((await post('/gsxt', 'Login', { qysh: e.qysh, lxrxm: '王芳' })).msg).toBe('请输入密码');
    const r = await post<{ status: number; qymc: string }>('/gsxt', 'Login', {
      qysh: e.qysh,
      qymc: e.qymc,
      lxrxm: '王芳',
      password: 'Gsxt#2026',
    });
    expect(r).toMatchObject({ code: HELPER_CODE.ok, data: { status: 1, qymc: e.qymc } });
    const home = await post<{ qysh: string; reports: { year: string; status: string }[]; deadline: string }>(
      '/notice/report/home',
      'home',
      { qysh: e.qysh },
    );
    expect(home.code).toBe(HELPER_CODE.ok);
    expect(home.data.qysh).toBe(e.qysh);
    expect(home.data.deadline).toMatch(/^\d{4}-06-30$/);
    expect(home.data.reports.length).toBeGreaterThan(0);
    for (const y of home.data.reports) expect(['未报送', '已公示']).toContain(y.status);
    // Another product origin does not share the session.
    const other = await post('/notice/report/home', 'home', { qysh: e.qysh }, { from: 'http://127.0.0.1:1' });
    expect(other.msg).toBe('请先登录国家企业信用信息公示系统');
  });

  it('/gsxt Login refused: the liaison password is wrong', async () => {
    const e = ent('mismatch');
    const r = await post<{ status: number; msg: string }>('/gsxt', 'Login', {
      qysh: e.qysh,
      lxrxm: '王芳',
      password: 'wrong',
    });
    expect(r.data).toMatchObject({ status: 0, msg: '联络员信息或密码错误' });
    expect((await post('/notice/report/home', 'home', { qysh: e.qysh })).msg).toBe('请先登录国家企业信用信息公示系统');
  });
});

describe('the upgrade path: the product names its latest build and the oldest version it accepts', () => {
  const build = Buffer.from('// 365基础服务 9.1.0\n');
  const sha = createHash('sha256').update(build).digest('hex');
  const manifest = (sha256: string) => ({
    version: '9.1.0',
    builtAt: '2026-11-26T00:00:00.000Z',
    builds: [
      { file: 'dzy-helper.cjs', title: 'bundle', platform: 'win32', kind: 'bundle', size: build.length, sha256 },
    ],
  });
  let dir: string;
  const previous = process.env.HELPER_DIST_DIR;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dzy-helper-up-'));
    writeFileSync(join(dir, 'dzy-helper.cjs'), build);
    process.env.HELPER_DIST_DIR = dir;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.HELPER_DIST_DIR;
    else process.env.HELPER_DIST_DIR = previous;
    rmSync(dir, { recursive: true, force: true });
  });
  const start = (version: string, self: SelfInstall | null, onUpgraded?: (v: string) => void) =>
    startHelper({
      origins: ['http://127.0.0.1:1', origin],
      bureau: httpBureauClient({ baseUrl: sim.url }),
      bureauUrl: sim.url,
      port: 0,
      version,
      self,
      ...(onUpgraded ? { onUpgraded } : {}),
    });
  const probeOf = async (h: HelperHandle) => {
    const res = await fetch(`${h.url}/?func=upversion`, { headers: { origin } });
    return (await res.json()) as HelperProbeReply;
  };

  it('older than the oldest accepted and not installed (npm run helper): probes answer 900', async () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest(sha)));
    const h = await start('1.0.0', null);
    try {
      expect((await probeOf(h)).code).toBe(HELPER_STATUS.ok);
      expect(await h.checkProduct()).toEqual({ kind: 'current', minVersion: HELPER_MIN_VERSION });
      const p = await probeOf(h);
      expect(p).toMatchObject({ code: HELPER_STATUS.tooOld, msg: HELPER_MSG.tooOld, minVersion: HELPER_MIN_VERSION });
    } finally {
      await h.close();
    }
  });

  it('installed and older than the latest: downloads, checks the sha256, replaces itself, 201 until restarted', async () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest(sha)));
    const self = join(dir, 'installed', 'dzy-helper.cjs');
    mkdirSync(join(dir, 'installed'));
    writeFileSync(self, '// 1.2.0');
    let restartedTo = '';
    const h = await start(HELPER_VERSION, { path: self, kind: 'bundle', platform: process.platform }, (v) => {
      restartedTo = v;
    });
    try {
      expect(await h.checkProduct()).toMatchObject({ kind: 'upgraded', version: '9.1.0' });
      expect(readFileSync(self)).toEqual(build);
      expect(restartedTo).toBe('9.1.0');
      expect((await probeOf(h)).code).toBe(HELPER_STATUS.upgrading);
      expect((await post('/', 'openrun', {})).code).toBe(HELPER_CODE.ok);
    } finally {
      await h.close();
    }
  });

  it('a build whose sha256 is not the one the product names is not installed', async () => {
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest('0'.repeat(64))));
    const self = join(dir, 'installed', 'dzy-helper.cjs');
    writeFileSync(self, '// 1.2.0');
    const h = await start(HELPER_VERSION, { path: self, kind: 'bundle', platform: process.platform }, () => {
      throw new Error('must not restart');
    });
    try {
      const r = await h.checkProduct();
      expect(r.kind).toBe('failed');
      expect(r.kind === 'failed' && r.msg).toContain('校验失败');
      expect(readFileSync(self, 'utf8')).toBe('// 1.2.0');
      expect((await probeOf(h)).code).toBe(HELPER_STATUS.ok);
    } finally {
      await h.close();
    }
  });

  it('the product unreachable: nothing changes', async () => {
    const h = await startHelper({
      origins: ['http://127.0.0.1:1'],
      bureau: httpBureauClient({ baseUrl: sim.url }),
      bureauUrl: sim.url,
      port: 0,
    });
    try {
      expect(await h.checkProduct()).toEqual({ kind: 'failed', msg: '无法连接代账云，未检查新版本' });
    } finally {
      await h.close();
    }
  });
});
