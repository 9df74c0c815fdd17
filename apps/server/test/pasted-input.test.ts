import { CODE, contractListCall, normalizeTaxNumber, recycleListCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, create, detail, list, newUscc } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/** Tax numbers and codes the way people paste them: spaces, lower case, full-width (input-method) characters. */
const FULL = (s: string) => s.replace(/[0-9A-Za-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const spaced = (s: string) => s.replace(/(.{4})/g, '$1 ').trim();

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
});
afterAll(() => t.close());

describe('input as people paste it', () => {
  it('normalizeTaxNumber: spaces out, full width to ASCII, upper case', () => {
    expect(normalizeTaxNumber(' ９１３３ 0106ma\u3000１２３４５６ｘ ')).toBe('91330106MA123456X');
    expect(normalizeTaxNumber('（不是税号）')).toBe('（不是税号）');
  });

  it('a tax number with spaces, in lower case and full width is accepted and kept in its one form', async () => {
    const uscc = newUscc();
    const pasted = FULL(spaced(uscc.toLowerCase()));
    const r = await create(t, admin, { qymc: '粘贴税号测试（杭州）有限公司', qysh: pasted });
    expect(r.code).toBe(CODE.OK);
    const kept = await detail(t, admin, r.data.id);
    expect(kept.qysh).toBe(uscc);
    // Company names keep their full-width brackets.
    expect(kept.qymc).toBe('粘贴税号测试（杭州）有限公司');
  });

  it('every "企业名称或税号" search finds the client by a pasted tax number', async () => {
    const uscc = newUscc();
    const r = await create(t, admin, { qysh: uscc });
    expect(r.code).toBe(CODE.OK);
    for (const typed of [spaced(uscc), uscc.toLowerCase(), FULL(uscc.slice(4)), ` ${spaced(uscc.slice(6))} `]) {
      const found = await list(t, admin, { keyword: typed });
      expect(
        found.list.map((c) => c.id),
        typed,
      ).toEqual([r.data.id]);
    }
    // The contract list's enterprise search and the recycle bin use the same rule.
    const contracts = await t.call<{ total: number }>(
      contractListCall.path,
      { keyword: spaced(uscc), pageNo: 1, pageSize: 20 },
      admin,
    );
    expect(contracts.code).toBe(CODE.OK);
    const bin = await t.call<{ total: number }>(
      recycleListCall.path,
      { keyword: spaced(uscc), pageNo: 1, pageSize: 20 },
      admin,
    );
    expect(bin.code).toBe(CODE.OK);
    expect(bin.data.total).toBe(0);
  });
});
