import { CODE, customerListCall, logoutCall, MSG } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { ADMIN } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let opened = 0;

beforeAll(async () => {
  t = await startTestApp();
  // Count the transactions the server opens (the pool or the embedded engine: every one goes through here).
  const db = t.db.app as Db;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: never, config?: never) => {
    opened += 1;
    return transaction(fn, config);
  }) as Db['transaction'];
});
afterAll(() => t.close());

describe('one transaction per call', () => {
  it('a signed-in call reads its session inside its own transaction: one BEGIN, one COMMIT', async () => {
    const cookie = await t.login(ADMIN);
    opened = 0;
    const r = await t.call(customerListCall.path, { pageNo: 1, pageSize: 20 }, cookie);
    expect(r.code).toBe(CODE.OK);
    expect(opened).toBe(1);
    opened = 0;
    const refused = await t.call(customerListCall.path, { pageNo: 0 }, cookie);
    expect(refused.code).toBe(CODE.BAD_REQUEST);
    expect(opened).toBe(1);
  });

  it('a revoked session is refused at the very next call', async () => {
    const cookie = await t.login(ADMIN);
    const other = await t.login(ADMIN);
    expect((await t.call(logoutCall.path, {}, cookie)).code).toBe(CODE.OK);
    const r = await t.call(customerListCall.path, { pageNo: 1, pageSize: 20 }, cookie);
    expect(r.status).toBe(403);
    expect(r.msg).toBe(MSG.sessionExpired);
    // Only that session ended.
    expect((await t.call(customerListCall.path, { pageNo: 1, pageSize: 20 }, other)).code).toBe(CODE.OK);
  });
});
