import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('ownerQuery sees every tenant, on either engine', async () => {
  const rows = await t.ownerQuery<{ agency_id: number; n: number }>(
    'select agency_id, count(*)::int as n from enterprises where agency_id <= $1 group by agency_id order by agency_id',
    [2],
  );
  expect(rows).toEqual([
    { agency_id: 1, n: 60 },
    { agency_id: 2, n: 20 },
  ]);
});
