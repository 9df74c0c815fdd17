import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverModules } from '../src/app.js';
import { assertAccessDeclared, type Deps, type Served } from '../src/plugins/calls.js';

/**
 * Who can reach what. A change here is a change of access: it must show in review, so the table is
 * written out by hand rather than generated.
 */
const EXPECTED_CALLS = [
  // auth
  ['POST /api/userext/v1.0/common/user/login', 'public'],
  ['POST /api/user/verify/sendSmsVerificationCodeMsg', 'public'],
  ['POST /api/user/v1.0/userinfo/saveUser', 'public'],
  ['POST /api/userext/v1.0/common/user/forgetPassword', 'public'],
  ['POST /api/userext/v1.0/common/user/logout', 'signedIn'],
  ['POST /api/userext/v1.0/common/user/session', 'signedIn'],
  ['POST /api/user/v1.0/userinfo/getUser', 'signedIn'],
  // account
  ['POST /api/user/v1.0/userinfo/getProfile', 'signedIn'],
  ['POST /api/user/v1.0/userinfo/updateProfile', 'signedIn'],
  ['POST /api/user/v1.0/userinfo/changePassword', 'signedIn'],
  ['POST /api/user/v1.0/userinfo/sendChangePhoneCode', 'signedIn'],
  ['POST /api/user/v1.0/userinfo/changePhone', 'signedIn'],
  // menu
  ['POST /api/user/menu/getRouters', 'signedIn'],
  // dashboard
  ['POST /api/user/getQyBookCountInfo', 'dashboard:counts:view'],
  // org
  ['POST /api/user/v1.0/common/user/getOrgList', 'signedIn'],
  ['POST /api/user/v1.0/common/user/updateSessionUserInfo', 'signedIn'],
  ['POST /api/user/kjgc/kjgcDljgYy/judgeSwitchingButton', 'signedIn'],
  ['POST /api/user/agency/agencyUserRelation', 'signedIn'],
  ['POST /api/user/v1.0/area/getCompartmentInfo', 'signedIn'],
  ['POST /api/user/agency/selectPersonalAgencyInfo', 'signedIn'],
  ['POST /api/user/agency/agencyApply', 'signedIn'],
  ['POST /api/user/agency/getAgencyInfo', 'agency:info:view'],
  ['POST /api/user/agency/updateAgencyInfo', 'agency:info:edit'],
  ['POST /api/user/whiteorder/existsByTypeAndBusiVal', 'signedIn'],
  // platform operators only: agency administrators' *:*:* is refused by the handlers' operator check
  ['POST /api/platform/agencyApply/list', 'platform:apply:review'],
  ['POST /api/platform/agencyApply/approve', 'platform:apply:review'],
  ['POST /api/platform/agencyApply/reject', 'platform:apply:review'],
  ['POST /api/platform/whiteorder/list', 'platform:apply:review'],
  ['POST /api/platform/whiteorder/save', 'platform:apply:review'],
  ['POST /api/platform/whiteorder/delete', 'platform:apply:review'],
  // role
  ['POST /api/user/agencyRole/selectAgencyRoleListByUserAgency', 'role:list:view'],
  ['POST /api/user/agencyRole/saveOrUpdateRole', 'role:edit'],
  ['POST /api/user/agencyRole/deleteAgencyRole', 'role:edit'],
  ['POST /api/user/v1.0/gnqxTreeQuery', 'role:list:view'],
  ['POST /api/user/v1.0/saveGnqx', 'role:edit'],
  ['POST /api/user/v1.0/saveYhGw', 'role:edit'],
  ['POST /api/user/agencyRole/selectMemberRoleList', 'role:list:view'],
  // station
  ['POST /api/user/station/list', 'station:list:view'],
  ['POST /api/user/station/save', 'station:edit'],
  ['POST /api/user/station/delete', 'station:edit'],
  ['POST /api/user/relation/getUsersByStationId', 'station:list:view'],
  ['POST /api/user/station/saveMembers', 'station:edit'],
  ['POST /api/user/station/candidates', 'station:edit'],
  // department
  ['POST /api/user/agency/org/tree', 'org:dept:view'],
  ['POST /api/user/agency/org/saveOrgAndDirectorInfo', 'org:dept:edit'],
  ['POST /api/user/agency/org/getOrgInfo', 'org:dept:view'],
  ['POST /api/user/agency/org/deleteOrg', 'org:dept:edit'],
  ['POST /api/user/agency/org/getOrgStaffs', 'org:dept:view'],
  ['POST /api/user/agency/org/getUnassigned', 'org:dept:view'],
  ['POST /api/user/agency/org/getAgencyStaffs', 'org:dept:view'],
  ['POST /api/user/agency/org/changePersonOrg', 'staff:dept:change'],
  // staff
  ['POST /api/user/agency/saveAgencyInvite', 'staff:invite'],
  ['POST /api/user/agency/getAgencyInviteLogList', 'staff:list:view'],
  ['POST /api/user/agency/cancelAgInviteLog', 'staff:invite'],
  ['POST /api/user/agency/deleteAgInviteLog', 'staff:invite'],
  ['POST /api/user/agency/getInviteInfo', 'signedIn'],
  ['POST /api/user/agency/acceptInvite', 'signedIn'],
  ['POST /api/user/agency/getAgencyInviteUserListV3', 'staff:list:view'],
  ['POST /api/user/agency/getStaffOptions', 'staff:list:view'],
  ['POST /api/user/agency/updateAgUserConnectionIsAdminV3', 'staff:admin:transfer'],
  ['POST /api/user/agency/saveUserQuitSetting', 'signedIn'],
  ['POST /api/user/agency/quitCheck', 'signedIn'],
  ['POST /api/user/agency/personalQuitAgency', 'signedIn'],
  ['POST /api/user/agency/handoverInfoCheck', 'staff:handover'],
  ['POST /api/user/agency/getHandoverStaff', 'staff:handover'],
  ['POST /api/user/agency/workHandover', 'staff:handover'],
  ['POST /api/user/agency/deleteAgUserConnectionIsConn', 'staff:remove'],
  // message (platform calls: operators only, by the operator permission and the handlers' operator check)
  ['POST /api/user/msg/selectMsgSend', 'signedIn'],
  ['POST /api/user/msg/updateMsgSend', 'signedIn'],
  ['POST /api/user/msg/selectMsgList', 'signedIn'],
  ['POST /api/user/agency/selectUserMsgSetting', 'signedIn'],
  ['POST /api/user/agency/updateUserMsgSetting', 'signedIn'],
  ['POST /api/user/message/selectAnnouncementList', 'signedIn'],
  ['POST /api/user/message/publishAnnouncement', 'platform:apply:review'],
  ['POST /api/user/message/listAnnouncementAdmin', 'platform:apply:review'],
  ['POST /api/user/message/deleteAnnouncement', 'platform:apply:review'],
  ['POST /api/user/message/sendSystemMsg', 'platform:apply:review'],
  ['POST /api/user/agency/getFwsHotlineSetting', 'signedIn'],
  ['POST /api/user/agency/saveFwsHotlineSetting', 'agency:info:edit'],
  ['POST /api/esLog/api/webcall/createSession', 'platform:apply:review'],
  ['POST /api/esLog/api/webcall/getLogByLast', 'signedIn'],
  ['POST /api/esLog/api/webcall/updateSessionStatus', 'signedIn'],
  ['POST /api/esLog/api/webcall/getEntList', 'signedIn'],
  ['POST /api/esLog/api/webcall/insertLog', 'signedIn'],
  // customer
  ['POST /api/userext/agency/queryAgencyUserEnterpriseV3', 'customer:list:view'],
  ['POST /api/user/agency/selectAgencyEnterpriseInfo', 'customer:list:view'],
  ['POST /api/user/agency/saveAgencyEnterprise', 'customer:add'],
  ['POST /api/user/agency/updateAgencyEnterpriseDataV3', 'customer:edit'],
  ['POST /api/user/agency/revealEnterpriseCredential', 'customer:credential:reveal'],
  ['POST /api/user/agency/getContactList', 'customer:list:view'],
  ['POST /api/user/agency/allocateAgencyEnterprise', 'customer:assign'],
  ['POST /api/user/agency/updateAgencyUEOperationStatus', 'customer:service:toggle'],
  ['POST /api/user/agency/deleteAgencyEnterprise', 'customer:delete'],
  ['POST /api/user/agency/queryRecycleEnterprise', 'customer:recycle:view'],
  ['POST /api/user/agency/restoreAgencyEnterprise', 'customer:restore'],
  ['POST /api/user/agency/purgeAgencyEnterprise', 'customer:purge'],
  ['POST /api/user/agency/getAllocateUsers', 'customer:list:view'],
  ['POST /api/user/label/list', 'customer:list:view'],
  ['POST /api/user/label/save', 'customer:edit'],
  ['POST /api/user/label/delete', 'customer:edit'],
  ['POST /api/user/grade/list', 'customer:list:view'],
  ['POST /api/user/grade/save', 'customer:edit'],
  ['POST /api/user/grade/delete', 'customer:edit'],
  ['POST /api/user/agency/selectNoQyshEnterpriseList', 'signedIn'],
  ['POST /api/user/agency/updateAgencyEnterpriseQysh', 'customer:edit'],
  ['POST /api/equity/agency/equity/getMenuAgencyByTenantid', 'signedIn'],
  ['POST /api/equity/agency/equity/checkEnterpriseEquity', 'customer:list:view'],
  ['POST /api/equity/qy/ggtszt/agency', 'signedIn'],
  ['POST /api/user/userLastQuery/getMemory', 'signedIn'],
  ['POST /api/user/userLastQuery/updateMemory', 'signedIn'],
  ['POST /api/esLog/api/enterprise/insertLog', 'signedIn'],
  ['POST /api/user/agency/selectChooserEnterprise', 'signedIn'],
  ['POST /api/user/agency/deleteEnterpriseAttachment', 'customer:edit'],
  ['POST /api/user/agency/importAgencyEnterpriseProgress', 'customer:import'],
  ['POST /api/user/note/save', 'customer:list:view'],
  ['POST /api/user/note/delete', 'customer:list:view'],
  ['POST /api/user/note/concern', 'customer:list:view'],
  ['POST /api/user/note/cancelConcern', 'customer:list:view'],
  ['POST /api/user/note/selectList', 'customer:list:view'],
];

/**
 * Routes outside the call registry, with who may reach them. Their handlers check this themselves
 * (system.test.ts checks the signed-in ones refuse a caller without a session).
 */
const EXPECTED_PLAIN_ROUTES = [
  ['GET /api/files/avatar/:name', 'signedIn'],
  ['GET /api/files/attachment/:id', "customer:list:view, the enterprise in the caller's data scope"],
  ['GET /api/user/agency/enterpriseTemplateExport', 'customer:import'],
  ['GET /api/user/agency/pwdTemplateExport', 'customer:import'],
  ['GET /api/user/agency/exportImportFailList', "customer:import, the caller's own import"],
  ['GET /api/user/agency/exportPwdFailList', "customer:import, the caller's own import"],
  ['POST /api/user/agency/exportAgencyEnterprise', "customer:export, in the caller's data scope"],
  ['GET /api/health', 'public'],
  ['GET /api/openapi.json', 'public'],
  ['GET /api/dev/outbox', 'public, development only'],
  ['POST /api/user/v1.0/userinfo/uploadIconInfo', 'signedIn'],
  ['GET /api/ws', 'signedIn (session cookie checked on upgrade and every 5 s)'],
  ['POST /api/user/agency/importAgencyEnterprise', 'customer:import'],
  ['POST /api/user/agency/importPassword', 'customer:import'],
  ['POST /api/user/agency/uploadEnterpriseAttachment', 'customer:edit'],
];

/** The plain routes modules register, recorded on a bare Fastify (no database, nothing served). */
async function plainRoutes(): Promise<string[]> {
  const app = Fastify();
  const seen: string[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') seen.push(`${method} ${r.url}`);
  });
  for (const m of serverModules()) m.routes?.(app, {} as Deps);
  await app.ready();
  await app.close();
  return seen;
}

describe('the access table', () => {
  it('every call, with who may make it', () => {
    const table = serverModules().flatMap((m) => m.calls.map(({ def }) => [`POST /api/${def.path}`, def.access]));
    expect(table).toEqual(EXPECTED_CALLS);
  });

  it('the plain routes besides the calls', async () => {
    expect(await plainRoutes()).toEqual(EXPECTED_PLAIN_ROUTES.map(([route]) => route));
  });
});

describe('assertAccessDeclared', () => {
  const call = (path: string, access: unknown): Served => ({
    def: { path, summary: '测试', access: access as never, body: z.strictObject({}), data: z.null() },
    run: async () => null,
  });

  it('accepts the calls the server serves', () => {
    expect(() => assertAccessDeclared(serverModules().flatMap((m) => m.calls))).not.toThrow();
  });

  it('accepts public, signedIn and a permission from the registry', () => {
    expect(() =>
      assertAccessDeclared([call('a', 'public'), call('b', 'signedIn'), call('c', 'dashboard:counts:view')]),
    ).not.toThrow();
  });

  it('refuses a call without an access rule', () => {
    expect(() => assertAccessDeclared([call('test/noAccess', undefined)])).toThrow(
      'call without access rule: test/noAccess',
    );
    expect(() => assertAccessDeclared([call('test/emptyAccess', '')])).toThrow(/without access rule/);
  });

  it('refuses a permission the registry does not know', () => {
    expect(() => assertAccessDeclared([call('test/typo', 'dashboard:count:view')])).toThrow(
      'call test/typo needs unknown permission dashboard:count:view',
    );
    // The wildcard is something a holder has, never something a call needs.
    expect(() => assertAccessDeclared([call('test/wildcard', '*:*:*')])).toThrow(/unknown permission/);
  });

  it('refuses the same path served twice', () => {
    expect(() => assertAccessDeclared([call('test/twice', 'public'), call('test/twice', 'signedIn')])).toThrow(
      'call served twice: test/twice',
    );
  });
});
