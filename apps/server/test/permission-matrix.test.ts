import {
  ALL_PERMS,
  CODE,
  DEFAULT_STAFF_PERMS,
  GRANTABLE_PERMS,
  hasPerm,
  type RoleItem,
  roleListCall,
  type SessionInfo,
  saveMemberRolesCall,
  sessionCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../src/app.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Every call the server serves × every seeded role: refused with 460 exactly when hasPerm(perms, access)
 * says the role lacks the call's permission. The permission check comes before the body check, so an
 * empty body is enough to tell. Where an empty body would be valid (the handler would run and might
 * change things, e.g. leave the agency), a body with an unknown field is sent instead: strict bodies
 * refuse it after the permission check, so nothing runs.
 */
const calls = serverModules().flatMap((m) => m.calls.map((c) => ({ module: m.name, def: c.def })));
const probeBody = (def: (typeof calls)[number]['def']) =>
  def.body.safeParse({}).success ? { permissionMatrixProbe: true } : {};

let t: TestApp;
const cookies: Record<string, string> = {};
const sorted = (perms: readonly string[]) => [...perms].sort();

const ROLES = [
  { name: '管理员', phone: '13800000000', perms: [ALL_PERMS] },
  { name: '普通员工', phone: '13800000002', perms: sorted(DEFAULT_STAFF_PERMS) },
  { name: '部门主管', phone: '13800000001', perms: sorted(GRANTABLE_PERMS) },
] as const;

beforeAll(async () => {
  t = await startTestApp();
  for (const r of ROLES) cookies[r.name] = await t.login(r.phone);
  // 部门主管 as an administrator gives it: 李晓梅 holds only that role.
  const admin = cookies.管理员 ?? '';
  const roles = (await t.call<{ list: RoleItem[] }>(roleListCall.path, {}, admin)).data.list;
  const head = roles.find((r) => r.name === '部门主管');
  const session = (await t.call<SessionInfo>(sessionCall.path, {}, cookies.部门主管)).data;
  const assigned = await t.call(
    saveMemberRolesCall.path,
    { userId: session.token.id, roleIds: [head?.id], stationIds: [] },
    admin,
  );
  expect(assigned.code).toBe(CODE.OK);
});
afterAll(() => t.close());

describe('permission matrix: every call × every seeded role', () => {
  it('serves a good number of calls, each with a declared rule', () => {
    expect(calls.length).toBeGreaterThan(40);
    for (const { def } of calls) expect(def.access, def.path).toBeTruthy();
  });

  for (const role of ROLES) {
    it(`${role.name}: refused (460) exactly where hasPerm says so`, async () => {
      const cookie = cookies[role.name] ?? '';
      const session = (await t.call<SessionInfo>(sessionCall.path, {}, cookie)).data;
      expect(sorted(session.perms)).toEqual(role.perms);

      const mismatches: string[] = [];
      let allowed = 0;
      for (const { module, def } of calls) {
        const access = def.access as string;
        const expectAllowed = access === 'public' || access === 'signedIn' || hasPerm(role.perms, access);
        const r = await t.call(def.path, probeBody(def), cookie);
        const refused = r.code === CODE.NO_PERMISSION;
        if (expectAllowed === refused) {
          mismatches.push(
            `${module} ${def.path} (${access}): expected ${expectAllowed ? 'allowed' : '460'}, got ${r.code} ${r.msg}`,
          );
        }
        if (!refused) allowed++;
        // Nothing sent may end the session (logout has an empty body: it is sent the probe instead).
        expect(r.code, def.path).not.toBe(CODE.SESSION_EXPIRED);
      }
      expect(mismatches).toEqual([]);
      expect(allowed).toBe(
        calls.filter((c) => ['public', 'signedIn'].includes(c.def.access) || hasPerm(role.perms, c.def.access)).length,
      );
    });
  }

  it('the three roles really differ where the registry says', () => {
    const edit = (perms: readonly string[]) => hasPerm(perms, 'org:dept:edit');
    expect(ROLES.map((r) => edit(r.perms))).toEqual([true, false, true]);
    expect(ROLES.map((r) => hasPerm(r.perms, 'role:edit'))).toEqual([true, false, false]);
  });

  it('signed out: every call but the public ones answers 403, and none 460', async () => {
    const wrong: string[] = [];
    for (const { def } of calls) {
      const r = await t.call(def.path, probeBody(def));
      const want =
        def.access === 'public'
          ? r.code !== CODE.SESSION_EXPIRED && r.code !== CODE.NO_PERMISSION
          : r.code === CODE.SESSION_EXPIRED;
      if (!want) wrong.push(`${def.path} (${def.access}): ${r.code}`);
    }
    expect(wrong).toEqual([]);
  });
});
