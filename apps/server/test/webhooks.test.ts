import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  APIKEY_MSG,
  CODE,
  type Webhook,
  type WebhookDelivery,
  webhookCreateCall,
  webhookDeliveriesCall,
  webhookEnableCall,
  webhookListCall,
  webhookPingCall,
  webhookReplayCall,
  webhookUpdateCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { inScope } from '../src/db/client.js';
import { emitWebhook } from '../src/modules/apikey/webhook.js';
import {
  addressAllowed,
  BLOCKED_CODE,
  guardedLookup,
  webhookUrlProblem,
} from '../src/modules/apikey/webhook-target.js';
import { ADMIN, create, LI, OTHER_ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission } from './helpers.js';

/**
 * The receiving side as an integrator would write it (docs/api.md): recompute the HMAC of
 * `timestamp + '.' + raw body` with the endpoint's secret and compare in constant time.
 */
function verify(secret: string, headers: IncomingHttpHeaders, raw: string): boolean {
  const ts = String(headers['x-dzy-timestamp'] ?? '');
  const given = Buffer.from(String(headers['x-dzy-signature'] ?? ''));
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`);
  return given.length === want.length && timingSafeEqual(given, want);
}

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

let t: TestApp;
let admin: string;
let li: string;
let other: string;
let receiver: Server;
let url: string;
const received: Received[] = [];
/** Status codes the receiver answers test events (ping) with, in order; 200 once they run out and to other events. */
const answers: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, raw });
      res.statusCode = req.headers['x-dzy-event'] === 'ping' ? (answers.shift() ?? 200) : 200;
      res.end(res.statusCode === 200 ? 'ok' : 'boom');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  t = await startTestApp();
  [admin, li, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(OTHER_ADMIN)]);
}, 300_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const ok = <T>(r: { code: number; msg: string; data: T }) => {
  if (r.code !== CODE.OK) throw new Error(`${r.code} ${r.msg}`);
  return r.data;
};

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const deliveryRow = async (id: number) =>
  (
    await t.ownerQuery<{ state: string; attempts: number; response_code: number | null; next_retry_at: Date | null }>(
      'select state, attempts, response_code, next_retry_at from webhook_deliveries where id = $1',
      [id],
    )
  )[0];

describe('webhooks', { timeout: 240_000 }, () => {
  let hook: { id: number; secret: string };

  it('registers an endpoint whose secret is shown once and stored encrypted', async () => {
    hook = ok(
      await t.call<{ id: number; secret: string }>(
        webhookCreateCall.path,
        { url, events: ['client.created', 'client.changed'], remark: '测试接收' },
        admin,
      ),
    );
    expect(hook.secret).toMatch(/^whsec_/);
    const [row] = await t.ownerQuery<{ secret: string }>('select secret from webhook_endpoints where id = $1', [
      hook.id,
    ]);
    expect(row?.secret).not.toContain(hook.secret);
    const list = ok(await t.call<Webhook[]>(webhookListCall.path, {}, admin));
    expect(list.find((w) => w.id === hook.id)).toMatchObject({
      url,
      enabled: true,
      events: ['client.created', 'client.changed'],
    });
    expect(JSON.stringify(list)).not.toContain(hook.secret);
  });

  it('a new client is delivered, signed: the receiver verifies the HMAC and detects tampering', async () => {
    const before = received.length;
    const made = await create(t, admin);
    expect(made.code).toBe(CODE.OK);
    const got = await until('client.created delivery', async () =>
      received.slice(before).find((r) => r.headers['x-dzy-event'] === 'client.created'),
    );
    const body = JSON.parse(got.raw) as { event: string; eventId: string; data: { id: number } };
    expect(body.event).toBe('client.created');
    expect(body.data.id).toBe((made.data as { id: number }).id);
    expect(verify(hook.secret, got.headers, got.raw)).toBe(true);
    // A body changed on the way, a replayed signature with another timestamp, or the wrong secret: refused.
    expect(verify(hook.secret, got.headers, got.raw.replace('client.created', 'client.changed'))).toBe(false);
    expect(verify(hook.secret, { ...got.headers, 'x-dzy-timestamp': '1' }, got.raw)).toBe(false);
    expect(verify('whsec_wrong', got.headers, got.raw)).toBe(false);
    // The log shows it delivered.
    const log = ok(
      await t.call<{ list: WebhookDelivery[]; total: number }>(
        webhookDeliveriesCall.path,
        { webhookId: hook.id },
        admin,
      ),
    );
    await until('delivery state success', async () => (await deliveryRow(log.list[0]?.id ?? 0))?.state === 'success');
  });

  it('a change that is rolled back sends nothing (the outbox is written in its transaction)', async () => {
    const count = async (marker: number) =>
      (
        await t.ownerQuery<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries where (payload->'data'->>'id')::int = $1`,
          [marker],
        )
      )[0]?.n;
    await expect(
      inScope(t.db.app, { agencyId: 1, userId: 1, kjgcId: null }, async (tx) => {
        await emitWebhook(tx, 1, 'client.changed', { id: 990001 });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await count(990001)).toBe(0);
    await inScope(t.db.app, { agencyId: 1, userId: 1, kjgcId: null }, (tx) =>
      emitWebhook(tx, 1, 'client.changed', { id: 990002 }),
    );
    expect(await count(990002)).toBe(1);
    // Another agency's change is not told to this agency's endpoint.
    await inScope(t.db.app, { agencyId: 2, userId: 4, kjgcId: null }, (tx) =>
      emitWebhook(tx, 2, 'client.changed', { id: 990003 }),
    );
    expect(await count(990003)).toBe(0);
  });

  it('retries with backoff after a 500, then succeeds; the log pages the tries', async () => {
    answers.push(500);
    const { deliveryId } = ok(await t.call<{ deliveryId: number }>(webhookPingCall.path, { id: hook.id }, admin));
    const retrying = await until('a retry scheduled', async () => {
      const d = await deliveryRow(deliveryId);
      return d?.state === 'retrying' ? d : null;
    });
    expect(retrying.attempts).toBe(1);
    expect(retrying.response_code).toBe(500);
    const wait = (new Date(retrying.next_retry_at ?? 0).getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(30);
    expect(wait).toBeLessThanOrEqual(61);
    const failedLog = ok(
      await t.call<{ list: WebhookDelivery[] }>(
        webhookDeliveriesCall.path,
        { webhookId: hook.id, state: 'retrying' },
        admin,
      ),
    );
    expect(failedLog.list.map((d) => d.id)).toEqual([deliveryId]);
    expect(failedLog.list[0]?.error).toContain('HTTP 500');
    // The minute passes: the second try's job comes due.
    await t.ownerQuery(`update jobs set run_after = now() where queue = 'webhook.deliver' and key = '${deliveryId}:2'`);
    const done = await until('the retry delivered', async () => {
      const d = await deliveryRow(deliveryId);
      return d?.state === 'success' ? d : null;
    });
    expect(done.attempts).toBe(2);
    expect(done.response_code).toBe(200);
    const pings = received.filter((r) => r.headers['x-dzy-delivery'] === String(deliveryId));
    expect(pings).toHaveLength(2);
    for (const p of pings) expect(verify(hook.secret, p.headers, p.raw)).toBe(true);
    // Paging: one row a page, the cursor leads to the next.
    const p1 = ok(
      await t.call<{ list: WebhookDelivery[]; total: number; cursor: { next: string | null } }>(
        webhookDeliveriesCall.path,
        { webhookId: hook.id, pageSize: 1 },
        admin,
      ),
    );
    expect(p1.total).toBeGreaterThanOrEqual(3);
    expect(p1.cursor.next).not.toBeNull();
    const p2 = ok(
      await t.call<{ list: WebhookDelivery[] }>(
        webhookDeliveriesCall.path,
        { webhookId: hook.id, pageSize: 1, pageNo: 2, cursor: p1.cursor.next },
        admin,
      ),
    );
    expect(p2.list[0]?.id).toBeLessThan(p1.list[0]?.id ?? 0);
  });

  it('gives up after six tries and marks the delivery failed', async () => {
    answers.push(500, 500);
    const { deliveryId } = ok(await t.call<{ deliveryId: number }>(webhookPingCall.path, { id: hook.id }, admin));
    await until('first try failed', async () => (await deliveryRow(deliveryId))?.state === 'retrying');
    // Five tries behind it: the next is the last.
    await t.ownerQuery(`update webhook_deliveries set attempts = 5 where id = ${deliveryId}`);
    await t.ownerQuery(`update jobs set run_after = now() where queue = 'webhook.deliver' and key = '${deliveryId}:2'`);
    const d = await until('delivery failed', async () => {
      const r = await deliveryRow(deliveryId);
      return r?.state === 'failed' ? r : null;
    });
    expect(d.attempts).toBe(6);
    expect(d.next_retry_at).toBeNull();
    const jobs = await t.ownerQuery(`select 1 from jobs where queue = 'webhook.deliver' and key = '${deliveryId}:7'`);
    expect(jobs).toHaveLength(0);
  });

  it('replays one delivery with the same event', async () => {
    const log = ok(
      await t.call<{ list: WebhookDelivery[] }>(
        webhookDeliveriesCall.path,
        { webhookId: hook.id, state: 'failed' },
        admin,
      ),
    );
    const original = log.list[0];
    if (!original) throw new Error('no failed delivery');
    const before = received.length;
    const { deliveryId } = ok(await t.call<{ deliveryId: number }>(webhookReplayCall.path, { id: original.id }, admin));
    expect(deliveryId).not.toBe(original.id);
    await until('replay delivered', async () => (await deliveryRow(deliveryId))?.state === 'success');
    const got = received.slice(before).find((r) => r.headers['x-dzy-delivery'] === String(deliveryId));
    const [orig] = await t.ownerQuery<{ payload: { eventId: string } }>(
      'select payload from webhook_deliveries where id = $1',
      [original.id],
    );
    expect(JSON.parse(got?.raw ?? '{}').eventId).toBe(orig?.payload.eventId);
    const replays = ok(
      await t.call<{ list: WebhookDelivery[] }>(webhookDeliveriesCall.path, { webhookId: hook.id }, admin),
    );
    expect(replays.list.find((d) => d.id === deliveryId)?.replayOf).toBe(original.id);
  });

  it('a disabled endpoint gets nothing; ping and replay are refused until it is enabled', async () => {
    ok(await t.call(webhookEnableCall.path, { id: hook.id, enabled: false }, admin));
    const before = await t.ownerQuery<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where endpoint_id = $1',
      [hook.id],
    );
    expect((await create(t, admin)).code).toBe(CODE.OK);
    const ping = await t.call(webhookPingCall.path, { id: hook.id }, admin);
    expect(ping.msg).toBe(APIKEY_MSG.webhookDisabled);
    const after = await t.ownerQuery<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where endpoint_id = $1',
      [hook.id],
    );
    expect(after[0]?.n).toBe(before[0]?.n);
    ok(await t.call(webhookEnableCall.path, { id: hook.id, enabled: true }, admin));
    ok(await t.call(webhookUpdateCall.path, { id: hook.id, url, events: ['contract.signed'], remark: '' }, admin));
    const list = ok(await t.call<Webhook[]>(webhookListCall.path, {}, admin));
    expect(list.find((w) => w.id === hook.id)?.events).toEqual(['contract.signed']);
  });

  it("another agency's administrator and staff without the permission are refused; nothing changes", async () => {
    const foreignList = ok(await t.call<Webhook[]>(webhookListCall.path, {}, other));
    expect(foreignList.find((w) => w.id === hook.id)).toBeUndefined();
    for (const [path, body] of [
      [webhookEnableCall.path, { id: hook.id, enabled: false }],
      [webhookPingCall.path, { id: hook.id }],
      [webhookDeliveriesCall.path, { webhookId: hook.id }],
      [webhookUpdateCall.path, { id: hook.id, url: 'http://evil.example/', events: ['client.created'] }],
    ] as const) {
      const r = await t.call(path, body, other);
      expect(r.code).toBe(CODE.NOT_FOUND);
      expect(r.msg).toBe(APIKEY_MSG.webhookNotFound);
    }
    const [d] = await t.ownerQuery<{ id: number }>('select id from webhook_deliveries where endpoint_id = $1 limit 1', [
      hook.id,
    ]);
    const replay = await t.call(webhookReplayCall.path, { id: d?.id }, other);
    expect(replay.msg).toBe(APIKEY_MSG.deliveryNotFound);
    const [row] = await t.ownerQuery<{ enabled: boolean; url: string }>(
      'select enabled, url from webhook_endpoints where id = $1',
      [hook.id],
    );
    expect(row).toEqual({ enabled: true, url });
    expectNoPermission(await t.call(webhookListCall.path, {}, li));
    expectNoPermission(await t.call(webhookCreateCall.path, { url, events: ['client.created'] }, li));
    expectNoPermission(await t.call(webhookReplayCall.path, { id: d?.id }, li));
  });

  it('refuses bad input with a Chinese message', async () => {
    expectBadInput(
      await t.call(webhookCreateCall.path, { url: 'ftp://x', events: ['client.created'] }, admin),
      '链接',
      APIKEY_MSG.urlBad,
    );
    expectBadInput(await t.call(webhookCreateCall.path, { url, events: [] }, admin), '事件', APIKEY_MSG.eventsRequired);
  });
});

describe('webhook targets: no private, loopback, link-local or metadata addresses (SSRF)', { timeout: 120_000 }, () => {
  const refused = [
    'http://10.1.2.3/hook',
    'http://172.20.0.5/hook',
    'http://192.168.1.10:8080/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://0.0.0.0:8080/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://127.0.0.1:8080/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://[::1]/',
  ];

  it('refuses each such address when loopback is not allowed, and accepts a public one', async () => {
    for (const u of refused) expect(await webhookUrlProblem(u, false), u).toBe(APIKEY_MSG.urlPrivate);
    expect(await webhookUrlProblem('https://8.8.8.8/hook', false)).toBeNull();
    expect(await webhookUrlProblem('http://[2606:4700:4700::1111]/hook', false)).toBeNull();
    expect(await webhookUrlProblem('ftp://8.8.8.8/', false)).toBe(APIKEY_MSG.urlBad);
  });

  it('resolves a host name: refused when any answer is private, or when it does not resolve', async () => {
    const dns = (answers: Record<string, string[]>) => async (host: string) => {
      const a = answers[host];
      if (!a) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return a;
    };
    const resolve = dns({
      'hooks.example.com': ['93.184.215.14'],
      'rebind.example.com': ['93.184.215.14', '10.0.0.7'],
    });
    expect(await webhookUrlProblem('https://hooks.example.com/x', false, resolve)).toBeNull();
    expect(await webhookUrlProblem('https://rebind.example.com/x', false, resolve)).toBe(APIKEY_MSG.urlPrivate);
    expect(await webhookUrlProblem('https://nowhere.example.com/x', false, resolve)).toBe(APIKEY_MSG.urlUnresolved);
  });

  it('loopback only is allowed by the setting (tests, development); private and metadata never', async () => {
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', true)).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', '192.168.0.1', '100.100.100.200', 'fd00::1'])
      expect(addressAllowed(ip, true), ip).toBe(false);
    const env = {
      SECRET_KEY: 'a'.repeat(64),
      DATA_DIR: '/tmp/h5-webhook-config',
      PUBLIC_URL: 'https://dzy.example.cn',
    };
    expect(loadConfig({ ...env, NODE_ENV: 'production' }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ ...env }).webhookAllowLoopback).toBe(false);
    expect(loadConfig({ ...env, NODE_ENV: 'test' }).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ ...env, NODE_ENV: 'production', WEBHOOK_ALLOW_LOOPBACK: '1' }).webhookAllowLoopback).toBe(true);
    expect(loadConfig({ ...env, NODE_ENV: 'development', WEBHOOK_ALLOW_LOOPBACK: '0' }).webhookAllowLoopback).toBe(
      false,
    );
  });

  it('the connection checks its own DNS answer (a name that now resolves to loopback is not connected to)', async () => {
    const look = (allow: boolean) =>
      new Promise<{ code?: string; address?: string }>((done) =>
        guardedLookup(allow)('localhost', { family: 4 }, (err, address) =>
          done(err ? { code: (err as NodeJS.ErrnoException).code } : { address: String(address) }),
        ),
      );
    expect(await look(false)).toEqual({ code: BLOCKED_CODE });
    expect(await look(true)).toEqual({ address: '127.0.0.1' });
  });

  it('the API refuses such a URL at save with the field and a Chinese message; the stored URL is unchanged', async () => {
    for (const bad of ['http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/hook', 'http://[fd00::1]/'])
      expectBadInput(
        await t.call(webhookCreateCall.path, { url: bad, events: ['client.created'] }, admin),
        '链接',
        APIKEY_MSG.urlPrivate,
      );
    const made = ok(
      await t.call<{ id: number }>(webhookCreateCall.path, { url, events: ['client.created'], remark: 'SSRF' }, admin),
    );
    expectBadInput(
      await t.call(
        webhookUpdateCall.path,
        { id: made.id, url: 'http://192.168.0.1/hook', events: ['client.created'] },
        admin,
      ),
      '链接',
      APIKEY_MSG.urlPrivate,
    );
    const [row] = await t.ownerQuery<{ url: string }>('select url from webhook_endpoints where id = $1', [made.id]);
    expect(row?.url).toBe(url);
  });

  it('refuses at delivery too: a target that became private is never connected to', async () => {
    const made = ok(
      await t.call<{ id: number }>(webhookCreateCall.path, { url, events: ['client.created'], remark: '' }, admin),
    );
    // As if its name now resolved inside the network (written behind the API's back).
    await t.ownerQuery("update webhook_endpoints set url = 'http://169.254.169.254/latest/meta-data/' where id = $1", [
      made.id,
    ]);
    const { deliveryId } = ok(await t.call<{ deliveryId: number }>(webhookPingCall.path, { id: made.id }, admin));
    const d = await until('the try refused', async () => {
      const [r] = await t.ownerQuery<{ state: string; error: string; response_code: number | null }>(
        'select state, error, response_code from webhook_deliveries where id = $1',
        [deliveryId],
      );
      return r && r.state !== 'pending' ? r : null;
    });
    expect(d).toEqual({ state: 'retrying', error: APIKEY_MSG.deliveryBlocked, response_code: null });
  });
});
