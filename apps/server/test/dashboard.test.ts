import { bookCountSchema, CODE, customerListCall, getQyBookCountInfoCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField, registerBySms } from './helpers.js';

const COUNTS = getQyBookCountInfoCall.path;
const AGENCY_1 = { qyxzsl: 200, jzxzsl: 150, curQyCount: 60, curYearMonthJzCount: 0, staffCount: 3 };
const WHOLE_1 = { ...AGENCY_1, scopeQyCount: 60, wholeAgency: true };
const AGENCY_2 = { qyxzsl: null, jzxzsl: null, curQyCount: 20, curYearMonthJzCount: 0, staffCount: 1 };
const WHOLE_2 = { ...AGENCY_2, scopeQyCount: 20, wholeAgency: true };

let t: TestApp;
let admin1: string;
let admin2: string;
beforeAll(async () => {
  t = await startTestApp();
  [admin1, admin2] = await Promise.all([t.login('13800000000'), t.login('13900000000')]);
});
afterAll(() => t.close());

describe('portal counts (getQyBookCountInfo)', () => {
  it("answers the administrator's agency: 60 customers of 200 licensed, 3 staff", async () => {
    const r = await t.call(COUNTS, {}, admin1);
    expect(r.code).toBe(CODE.OK);
    expect(bookCountSchema.parse(r.data)).toEqual(WHOLE_1);
    expect((await t.call(COUNTS, { agencyId: 1 }, admin1)).data).toEqual(WHOLE_1);
  });

  it('answers the other agency its own counts, unlimited licence as null', async () => {
    const r = await t.call(COUNTS, {}, admin2);
    expect(r.data).toEqual(WHOLE_2);
    expect((await t.call(COUNTS, { agencyId: 2 }, admin2)).data).toEqual(WHOLE_2);
  });

  it('lets an accountant of the agency see them (the default role holds dashboard:counts:view)', async () => {
    const accountant = await t.login('13800000002');
    const r = await t.call<{ scopeQyCount: number }>(COUNTS, { agencyId: 1 }, accountant);
    expect(r.code).toBe(CODE.OK);
    // The agency's quota figures, and the clients in their own scope: the number 我的客户 lists for them.
    const book = await t.call<{ total: number }>(customerListCall.path, { pageNo: 1, pageSize: 20 }, accountant);
    expect(book.data.total).toBeGreaterThan(0);
    expect(book.data.total).toBeLessThan(60);
    expect(r.data).toEqual({ ...AGENCY_1, scopeQyCount: book.data.total, wholeAgency: false });
  });

  it('a factory user acts for its bound agency', async () => {
    const factory = await t.login('13700000000');
    expect((await t.call(COUNTS, {}, factory)).data).toMatchObject(AGENCY_1);
    expect((await t.call(COUNTS, { agencyId: 1 }, factory)).data).toMatchObject(AGENCY_1);
    // Not for another agency.
    expect((await t.call(COUNTS, { agencyId: 2 }, factory)).code).toBe(CODE.NOT_FOUND);
  });

  it("refuses another agency's id as not found, telling nothing, and changes nothing", async () => {
    const cross = await t.call(COUNTS, { agencyId: 1 }, admin2);
    expect(cross.status).toBe(404);
    expect(cross.code).toBe(CODE.NOT_FOUND);
    expect(cross.data).toBeNull();
    const unknown = await t.call(COUNTS, { agencyId: 999 }, admin2);
    expect(unknown.msg).toBe(cross.msg);
    expect((await t.call(COUNTS, { agencyId: 2 }, admin1)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(COUNTS, {}, admin1)).data).toEqual(WHOLE_1);
    expect((await t.call(COUNTS, {}, admin2)).data).toEqual(WHOLE_2);
  });

  it('refuses a user without an organisation: no dashboard:counts:view', async () => {
    const newcomer = await registerBySms(t, '13811130001');
    expectNoPermission(await t.call(COUNTS, {}, newcomer));
    expectNoPermission(await t.call(COUNTS, { agencyId: 1 }, newcomer));
    // The refusal is not a sign-out: the session still works.
    expect((await t.call('userext/v1.0/common/user/session', {}, newcomer)).code).toBe(CODE.OK);
  });

  it('refuses the platform operator, who belongs to no agency', async () => {
    const operator = await t.login('13600000000');
    expectNoPermission(await t.call(COUNTS, {}, operator));
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(COUNTS, {}));
    expectSignedOut(await t.call(COUNTS, { agencyId: 1 }));
  });

  it('refuses bad input naming the field', async () => {
    expectBadInput(await t.call(COUNTS, { agencyId: 'x' }, admin1), '代理机构ID');
    expectBadInput(await t.call(COUNTS, { agencyId: '1' }, admin1), '代理机构ID');
    expectBadInput(await t.call(COUNTS, { agencyId: -1 }, admin1), '代理机构ID');
    expectBadInput(await t.call(COUNTS, { agencyId: 1.5 }, admin1), '代理机构ID');
    expectUnknownField(await t.call(COUNTS, { agencyId: 1, orgId: 2 }, admin1), 'orgId');
  });
});
