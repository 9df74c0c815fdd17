import { CODE, loginCall, MSG, saveUserCall, sendSmsCall } from '@dzy/shared';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Reply, TestApp } from './harness.js';

/** The session cookie (`dzy_session=...`) a reply sets, or null. */
export function sessionCookieOf(res: LightMyRequestResponse): string | null {
  const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('dzy_session='));
  return cookie ? (cookie.split(';')[0] ?? null) : null;
}

/** The token inside a session cookie, for sending as `Authorization: Bearer`. */
export const tokenOf = (cookie: string) => cookie.slice('dzy_session='.length);

/** A call made with full control of the request; answers the envelope, the HTTP status and the cookie set. */
export async function rawCall(
  t: TestApp,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply & { cookie: string | null; res: LightMyRequestResponse }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  const json = res.json() as { code: number; msg: string; data: unknown };
  return { status: res.statusCode, ...json, cookie: sessionCookieOf(res), res };
}

/** Password sign-in as the client sends it. */
export const passwordLogin = (t: TestApp, account: string, password: string) =>
  rawCall(t, loginCall.path, { type: '1', account, password });

/** The newest SMS code sent to `phone`, read from the development outbox as a person would read their phone. */
export async function latestSmsCode(t: TestApp, phone: string): Promise<string> {
  const messages = await outboxFor(t, phone);
  const code = messages[0]?.content.match(/验证码为(\d{6})/)?.[1];
  if (!code) throw new Error(`no SMS code in the outbox for ${phone}`);
  return code;
}

/** The texts sent to `phone`, newest first. */
export async function outboxFor(t: TestApp, phone: string): Promise<{ phone: string; content: string }[]> {
  // The phone's inbox: what the platform stored as sent (the outbox page itself needs an operator).
  return t.ownerQuery<{ phone: string; content: string }>(
    'select phone, content from sms_outbox where phone = $1 order by id desc',
    [phone],
  );
}

/** Asks for a code and returns it from the outbox. */
export async function smsCodeFor(t: TestApp, phone: string, dictLabel: 'login' | 'reset' = 'login'): Promise<string> {
  const sent = await t.call(sendSmsCall.path, { phone, dictLabel });
  if (sent.code !== CODE.OK) throw new Error(`send SMS to ${phone} failed: ${sent.msg}`);
  return latestSmsCode(t, phone);
}

/**
 * Signs a new phone up the way the client does: SMS code sign-in answers 406 with a ticket, saveUser
 * registers with it. Returns the new user's session cookie. Such a user belongs to no organisation.
 */
export async function registerBySms(t: TestApp, phone: string): Promise<string> {
  const code = await smsCodeFor(t, phone);
  const first = await t.call<{ registerTicket: string }>(loginCall.path, { type: '2', account: phone, code });
  if (first.code !== CODE.EMPTY) throw new Error(`expected 406 for a new phone, got ${first.code} ${first.msg}`);
  const saved = await rawCall(t, saveUserCall.path, {
    phone,
    isAgency: '1',
    registerTicket: first.data.registerTicket,
  });
  if (saved.code !== CODE.OK || !saved.cookie) throw new Error(`saveUser failed: ${saved.msg}`);
  return saved.cookie;
}

/** A refusal of bad input: code 400 and a message that starts with the field's Chinese name. */
export function expectBadInput(r: Reply, fieldZh: string, detail?: string) {
  expect(r.status).toBe(400);
  expect(r.code).toBe(CODE.BAD_REQUEST);
  expect(r.msg.startsWith(`${fieldZh}：`), r.msg).toBe(true);
  if (detail !== undefined) expect(r.msg).toBe(`${fieldZh}：${detail}`);
}

/** A refusal of a field the call does not know, naming it. */
export function expectUnknownField(r: Reply, field: string) {
  expect(r.status).toBe(400);
  expect(r.code).toBe(CODE.BAD_REQUEST);
  expect(r.msg).toBe(`请求包含未知字段：${field}`);
}

/** What every signed-in call answers without a valid session. */
export function expectSignedOut(r: Reply) {
  expect(r.status).toBe(403);
  expect(r.code).toBe(CODE.SESSION_EXPIRED);
  expect(r.msg).toBe(MSG.sessionExpired);
}

/**
 * A permission refusal: code 460. Never HTTP 403, which the client (foundation.md §4) takes for an
 * expired session and answers by logging the user out.
 */
export function expectNoPermission(r: Reply) {
  expect(r.code).toBe(CODE.NO_PERMISSION);
  expect(r.msg).toBe(MSG.noPermission);
  expect(r.status).not.toBe(403);
}

/**
 * Waits until what the calls so far started has run: no job running and none due (a queued job whose time
 * has come). A job waiting for a retry or a later day is not due. A condition, not a fixed pause (issue 27).
 */
export async function untilJobsSettled(t: TestApp, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from jobs where state = 'running' or (state = 'queued' and run_after <= now())`,
    );
    if (row?.n === 0) return;
    if (Date.now() > end) throw new Error(`${row?.n} jobs still running or due after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
