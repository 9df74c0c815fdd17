import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  AVATAR_MAX_BYTES,
  AVATAR_MSG,
  AVATAR_UPLOAD_PATH,
  CODE,
  changePhoneCall,
  getProfileCall,
  PHONE_SAME_MSG,
  PHONE_TAKEN_MSG,
  sendChangePhoneCodeCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed/demo.js';
import { startTestApp, type TestApp } from './harness.js';
import {
  expectBadInput,
  expectSignedOut,
  expectUnknownField,
  latestSmsCode,
  outboxFor,
  passwordLogin,
} from './helpers.js';
import { ADMIN, auditOf, LI, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let li: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  li = await t.login(LI);
});
afterAll(() => t.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([30, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(22),
]);

/** A multipart/form-data body with one file part. */
function multipart(file: Buffer, filename: string, field = 'file', type = 'image/png') {
  const boundary = `----dzy${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(file: Buffer, filename: string, cookie?: string, field = 'file') {
  const body = multipart(file, filename, field);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${AVATAR_UPLOAD_PATH}`,
    headers: { 'content-type': body.contentType, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: { headimg: string } | null }) };
}

const headimgOf = async (cookie: string) =>
  (await t.call<{ headimg: string }>(getProfileCall.path, {}, cookie)).data.headimg;
const avatarFile = (url: string) => join(t.config.dataDir, 'uploads', 'avatars', url.split('/').pop() ?? '');

describe('uploadIconInfo (avatar)', () => {
  it('stores a PNG under a random name, sets headimg, and serves it back to a signed-in user', async () => {
    const r = await upload(PNG, 'me.png', admin);
    expect(r.code).toBe(CODE.OK);
    const url = r.data?.headimg ?? '';
    expect(url).toMatch(/^\/api\/files\/avatar\/[0-9a-f]{32}\.png$/);
    expect(await headimgOf(admin)).toBe(url);
    expect(existsSync(avatarFile(url))).toBe(true);
    const got = await t.app.inject({ method: 'GET', url, headers: { cookie: li } });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    const anon = await t.app.inject({ method: 'GET', url });
    expect(anon.json()).toMatchObject({ code: CODE.SESSION_EXPIRED });
    expect((await auditOf(t, 1, 'account.avatar_upload')).length).toBe(1);
  });

  it('accepts JPEG and WebP by content, whatever the name, and removes the replaced file', async () => {
    const first = await upload(JPEG, 'photo.bin', li);
    expect(first.code).toBe(CODE.OK);
    expect(first.data?.headimg).toMatch(/\.jpg$/);
    const second = await upload(WEBP, 'photo.webp', li);
    expect(second.code).toBe(CODE.OK);
    expect(second.data?.headimg).toMatch(/\.webp$/);
    expect(existsSync(avatarFile(first.data?.headimg ?? ''))).toBe(false);
    expect(existsSync(avatarFile(second.data?.headimg ?? ''))).toBe(true);
  });

  it('refuses a text file named .png, and keeps the avatar', async () => {
    const before = await headimgOf(admin);
    const r = await upload(Buffer.from('这不是图片，只是一段文字。'), 'fake.png', admin);
    expect(r.status).toBe(400);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(AVATAR_MSG.badType);
    expect(await headimgOf(admin)).toBe(before);
  });

  it('refuses an image over 2 MB (a 3 MB PNG), and keeps the avatar', async () => {
    const before = await headimgOf(admin);
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024 - PNG.length)]);
    const r = await upload(big, 'big.png', admin);
    expect(r.code).toBe(CODE.TOO_LARGE);
    expect(r.msg).toBe('头像图片不能超过2MB');
    expect(await headimgOf(admin)).toBe(before);
    // Exactly 2 MB is still accepted.
    const edge = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES - PNG.length)]);
    expect((await upload(edge, 'edge.png', admin)).code).toBe(CODE.OK);
  });

  it('refuses no session, a wrong field, a JSON body, and an empty file', async () => {
    expectSignedOut(await upload(PNG, 'me.png'));
    const wrongField = await upload(PNG, 'me.png', admin, 'avatar');
    expect(wrongField).toMatchObject({ code: CODE.BAD_REQUEST, msg: AVATAR_MSG.missing });
    const json = await t.call(AVATAR_UPLOAD_PATH, { file: 'x' }, admin);
    expect(json).toMatchObject({ code: CODE.BAD_REQUEST, msg: AVATAR_MSG.missing });
    expect((await upload(Buffer.alloc(0), 'empty.png', admin)).msg).toBe(AVATAR_MSG.badType);
  });

  it('serves only names it made, from the avatar folder', async () => {
    for (const name of ['..%2F..%2Fsecret.key', '..%2Fsecret.key', 'secret.key', `${'0'.repeat(32)}.png`, 'a.svg']) {
      const r = await t.app.inject({ method: 'GET', url: `/api/files/avatar/${name}`, headers: { cookie: admin } });
      expect(r.statusCode, name).toBe(404);
    }
    const traversal = await t.app.inject({
      method: 'GET',
      url: '/api/files/avatar/../../secret.key',
      headers: { cookie: admin },
    });
    expect(traversal.statusCode).toBe(404);
  });

  it('leaves JSON-only calls JSON-only: multipart is not accepted elsewhere', async () => {
    const body = multipart(PNG, 'me.png');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${getProfileCall.path}`,
      headers: { 'content-type': body.contentType, cookie: admin },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: CODE.BAD_REQUEST });
  });
});

describe('sendChangePhoneCode and changePhone', () => {
  const NEW = '13800000019';
  const send = (phone: unknown, cookie = li) => t.call(sendChangePhoneCodeCall.path, { phone }, cookie);

  it('refuses a phone used by another account, the current phone, bad input and no session', async () => {
    const taken = await send(ZHANG);
    expect(taken).toMatchObject({ code: CODE.CONFLICT, msg: PHONE_TAKEN_MSG });
    expect(await outboxFor(t, ZHANG)).toHaveLength(0);
    expect(await send(LI)).toMatchObject({ code: CODE.BAD_REQUEST, msg: PHONE_SAME_MSG });
    expectBadInput(await send('12345'), '手机号', '请输入正确的手机号');
    expectUnknownField(await t.call(sendChangePhoneCodeCall.path, { phone: NEW, dictLabel: 'login' }, li), 'dictLabel');
    expectSignedOut(await t.call(sendChangePhoneCodeCall.path, { phone: NEW }));
  });

  it('texts a code to the new phone, once a minute', async () => {
    const r = await send(NEW);
    expect(r).toMatchObject({ code: CODE.OK, data: { resendAfter: 60 } });
    expect((await outboxFor(t, NEW))[0]?.content).toContain('更换手机号验证码');
    expect((await send(NEW)).code).toBe(CODE.TOO_MANY);
  });

  it('refuses a wrong code, bad input and no session, and keeps the phone', async () => {
    const wrong = await t.call(changePhoneCall.path, { phone: NEW, code: '000000' }, li);
    expect(wrong).toMatchObject({ code: CODE.BAD_REQUEST, msg: '验证码错误或已失效，请重新获取' });
    expectBadInput(await t.call(changePhoneCall.path, { phone: NEW, code: '12' }, li), '验证码', '请输入正确的验证码');
    expectBadInput(await t.call(changePhoneCall.path, { phone: '1', code: '123456' }, li), '手机号');
    expectSignedOut(await t.call(changePhoneCall.path, { phone: NEW, code: '123456' }));
    const taken = await t.call(changePhoneCall.path, { phone: ZHANG, code: '123456' }, li);
    expect(taken).toMatchObject({ code: CODE.CONFLICT, msg: PHONE_TAKEN_MSG });
    expect((await t.call<{ phone: string }>(getProfileCall.path, {}, li)).data.phone).toBe(LI);
  });

  it('changes the phone with the right code: the new phone signs in, the old one is told', async () => {
    const code = await latestSmsCode(t, NEW);
    const r = await t.call<{ phone: string }>(changePhoneCall.path, { phone: NEW, code }, li);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.phone).toBe(NEW);
    expect((await passwordLogin(t, NEW, DEMO_PASSWORD)).code).toBe(CODE.OK);
    expect((await passwordLogin(t, LI, DEMO_PASSWORD)).code).toBe(CODE.BAD_REQUEST);
    expect((await outboxFor(t, LI))[0]?.content).toContain('138****0019');
    const [rec] = await auditOf(t, 1, 'account.phone_change');
    expect(rec?.detail).toEqual({ from: '138****0001', to: '138****0019' });
    // The code is spent.
    const again = await t.call(changePhoneCall.path, { phone: NEW, code }, admin);
    expect(again.code).toBe(CODE.CONFLICT);
  });
});
