import { CODE, createChatSessionCall, logoutCall, PUSH_CLOSE, sendSystemMsgCall } from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { OPERATOR } from './message-helpers.js';
import { PushClient } from './push-client.js';
import { ADMIN, ID, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

let t: TestApp;
let base: string;
let operator: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  operator = await t.login(OPERATOR);
});
afterAll(() => t.close());

const remind = (phone: string, content: string) =>
  t.call<{ count: number }>(sendSystemMsgCall.path, { phone, content }, operator);

describe('opening the push channel', () => {
  it('is refused without a session, with a bad cookie, and from another site', async () => {
    await expect(PushClient.open(base)).rejects.toThrow('refused 403');
    await expect(PushClient.open(base, 'dzy_session=forged')).rejects.toThrow('refused 403');
    const cookie = await t.login(ZHANG);
    await expect(PushClient.open(base, cookie, { origin: 'https://evil.example' })).rejects.toThrow('refused 403');
    // A browser that hides the Origin still says the page is of another site: the same rule as calls.
    await expect(PushClient.open(base, cookie, { 'sec-fetch-site': 'cross-site' })).rejects.toThrow('refused 403');
    // The product's own pages may.
    const ok = await PushClient.open(base, cookie, { origin: base });
    ok.close();
  });

  it('shakes hands, then binds only the session’s own user', async () => {
    const cookie = await t.login(ZHANG);
    const c = await PushClient.open(base, cookie);
    const early = await c.command('bind', { userId: ID.zhang });
    expect(early).toMatchObject({ cmd: 'error', data: { msg: '请先握手' } });
    const hs = await c.command('handshake', { deviceId: 'd1', osName: 'Windows', osVersion: '10', clientVersion: '1' });
    expect(hs).toMatchObject({ cmd: 'ok', data: { cmd: 'handshake', userId: ID.zhang, heartbeat: 5000 } });
    const other = await c.command('bind', { userId: String(ID.li), tags: '' });
    expect(other).toMatchObject({ cmd: 'error', data: { cmd: 'bind', msg: '只能绑定当前登录用户' } });
    const both = await c.command('bind', { userId: `${ID.zhang},${ID.li}` });
    expect(both.cmd).toBe('error');
    // Refused binds subscribe to nothing: 李晓梅's reminder does not arrive here.
    await remind(LI, '给李晓梅的提醒');
    const own = await c.command('bind', { userId: ID.zhang, tags: ['web'] });
    expect(own).toMatchObject({ cmd: 'ok', data: { cmd: 'bind' } });
    expect((await c.command('heartbeat', {})).cmd).toBe('ok');
    c.send('nonsense', {});
    expect((await c.next((f) => f.cmd === 'error' && f.data.msg === '未知命令')).cmd).toBe('error');
    c.ws.send('not json');
    expect((await c.next((f) => f.data.msg === '命令不是有效的 JSON')).cmd).toBe('error');
    expect(c.pushes()).toHaveLength(0);
    c.close();
  });
});

describe('pushes', () => {
  it('a new message reaches its user within a second, and never another user', async () => {
    const zhang = await PushClient.ready(base, await t.login(ZHANG), ID.zhang);
    const li = await PushClient.ready(base, await t.login(LI), ID.li);
    const other = await PushClient.ready(base, await t.login(OTHER_ADMIN), ID.otherAdmin);
    const started = Date.now();
    const arrived = zhang.nextPush('news', 1000);
    expect((await remind(ZHANG, '只给张伟')).code).toBe(CODE.OK);
    const frame = await arrived;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(frame.data.data).toMatchObject({ content: '【系统提醒】只给张伟', msgStyleBig: 2, msgStyleSmall: 'system' });
    expect(frame.data.id).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(li.pushes()).toHaveLength(0);
    expect(other.pushes()).toHaveLength(0);
    for (const c of [zhang, li, other]) c.close();
  });

  it('reaches every open page of the user', async () => {
    const cookie = await t.login(ZHANG);
    const a = await PushClient.ready(base, cookie, ID.zhang, 'tab-a');
    const b = await PushClient.ready(base, await t.login(ZHANG), ID.zhang, 'tab-b');
    const both = Promise.all([a.nextPush('news'), b.nextPush('news')]);
    await remind(ZHANG, '两个页面都收到');
    await both;
    a.close();
    b.close();
  });

  it('chat sessions ask for an ack and come again until acknowledged', async () => {
    const c = await PushClient.ready(base, await t.login(ADMIN), ID.admin);
    await t.call(createChatSessionCall.path, { phone: ADMIN, url: 'https://service.example.com/c/9' }, operator);
    const first = await c.nextPush('chat');
    expect(first.data).toMatchObject({ ack: true, data: { status: 1, url: 'https://service.example.com/c/9' } });
    const again = await c.next((f) => f.cmd === 'push' && f.data.id === first.data.id, 7000);
    expect(again.data.type).toBe('chat');
    const acked = await c.command('ack', { id: first.data.id });
    expect(acked).toMatchObject({ cmd: 'ok', data: { cmd: 'ack', id: first.data.id } });
    const before = c.pushes('chat').length;
    await new Promise((r) => setTimeout(r, 5600));
    expect(c.pushes('chat')).toHaveLength(before);
    c.close();
  });
});

describe('kick and session end', () => {
  it('a newer socket of the same user and device kicks the older one', async () => {
    const cookie = await t.login(ZHANG);
    const older = await PushClient.ready(base, cookie, ID.zhang, 'same-device');
    const kicked = older.next((f) => f.cmd === 'kick');
    const newer = await PushClient.ready(base, cookie, ID.zhang, 'same-device');
    expect((await kicked).data).toMatchObject({ userId: ID.zhang, deviceId: 'same-device' });
    expect(await older.whenClosed()).toBe(PUSH_CLOSE.kicked);
    // The newer one still gets pushes; another device of the same user is left alone.
    const other = await PushClient.ready(base, cookie, ID.zhang, 'another-device');
    const arrives = newer.nextPush('news');
    await remind(ZHANG, '新连接仍可收到');
    await arrives;
    expect(other.closeCode).toBeNull();
    newer.close();
    other.close();
  });

  it('signing out closes the socket at the next heartbeat', async () => {
    const cookie = await t.login(LI);
    const c = await PushClient.ready(base, cookie, ID.li);
    const ended = c.next((f) => f.cmd === 'error' && f.data.code === 403, 8000);
    const beat = setInterval(() => c.send('heartbeat', {}), 1000);
    expect((await t.call(logoutCall.path, {}, cookie)).code).toBe(CODE.OK);
    await ended;
    expect(await c.whenClosed()).toBe(PUSH_CLOSE.sessionEnded);
    clearInterval(beat);
  });

  it('an expired session closes the socket too, even while the client keeps beating', async () => {
    const cookie = await t.login(OTHER_ADMIN);
    const c = await PushClient.ready(base, cookie, ID.otherAdmin);
    const beat = setInterval(() => c.send('heartbeat', {}), 1000);
    await t.db.app
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, ID.otherAdmin));
    expect(await c.whenClosed(8000)).toBe(PUSH_CLOSE.sessionEnded);
    clearInterval(beat);
  });
});
