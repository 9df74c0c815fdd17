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
  ['POST /api/userext/v1.0/common/user/session', 'public'],
  ['POST /api/user/v1.0/userinfo/getUser', 'signedIn'],
  // auth-checks
  ['POST /api/user/v1.0/userinfo/getUserV3', 'signedIn'],
  ['POST /api/user/agency/checkPersonHasMenuAuth', 'signedIn'],
  ['POST /api/user/agency/checkPersonHasMenuAuthV2', 'signedIn'],
  ['POST /api/user/verify/checkSmsVerificationCodeMsg', 'public'],
  // two-factor sign-in (issue 18 point 5): the second step and forced enrolment are public with a signed ticket
  ['POST /api/userext/v1.0/common/user/twoFactorVerify', 'public'],
  ['POST /api/userext/v1.0/common/user/twoFactorEnrolStart', 'public'],
  ['POST /api/userext/v1.0/common/user/twoFactorEnrolConfirm', 'public'],
  ['POST /api/user/twoFactor/status', 'signedIn'],
  ['POST /api/user/twoFactor/disable', 'signedIn'],
  ['POST /api/user/twoFactor/reset', 'agency:security:edit'],
  ['POST /api/user/agency/security/get', 'agency:security:edit'],
  ['POST /api/user/agency/security/save', 'agency:security:edit'],
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
  // accounting factories (issue 18 point 1): each handler checks the side (agency or factory) and the white list
  ['POST /api/user/kjgc/kjgcSqXx/saveKjgcApplyInfo', 'signedIn'],
  ['POST /api/user/kjgc/getUserKjgcRelation', 'signedIn'],
  ['POST /api/user/kjgc/getTgDLSAndTgKH', 'signedIn'],
  ['POST /api/user/kjgc/kjgcEntInfo/getEntList', 'signedIn'],
  ['POST /api/user/kjgc/kjgcDljg/getAgencyInfoList', 'signedIn'],
  ['POST /api/user/kjgc/kjgcDljg/applyBind', 'kjgc:manage'],
  ['POST /api/user/kjgc/kjgcDljg/decide', 'kjgc:manage'],
  ['POST /api/user/kjgc/kjgcDljg/unbind', 'kjgc:manage'],
  ['POST /api/user/kjgc/kjgcEntInfo/handover', 'kjgc:manage'],
  ['POST /api/user/kjgc/kjgcEntInfo/takeBack', 'kjgc:manage'],
  ['POST /api/user/kjgc/kjgcDljg/switchAgency', 'kjgc:manage'],
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
  ['POST /api/user/agency/saveAgencyInviteList', 'staff:invite'],
  ['POST /api/user/agency/copyCommand', 'staff:invite'],
  ['POST /api/user/agency/getPhoneSettingInfo', 'staff:list:view'],
  ['POST /api/user/agency/savePhoneSetting', 'staff:phone:setting'],
  ['POST /api/user/agency/deletePersonal', 'signedIn'],
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
  ['POST /api/user/message/alertMessageInfo', 'signedIn'],
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
  ['POST /api/user/agency/sendRevealCredentialCode', 'customer:credential:reveal'],
  ['POST /api/user/agency/getEnterpriseCredentialRevealLog', 'customer:credential:reveal'],
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
  ['POST /api/user/grade/save', 'customer:grade:edit'],
  ['POST /api/user/grade/delete', 'customer:grade:edit'],
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
  ['POST /api/user/agency/queryEnterpriseBureauDiff', 'customer:list:view'],
  ['POST /api/user/agency/saveEnterpriseProfile', 'customer:edit'],
  ['POST /api/user/agency/updateAgencyEnterpriseInfoQymcFroYjz', 'customer:edit'],
  ['POST /api/user/agency/updateJglxManageV143', 'customer:edit'],
  ['POST /api/user/agency/updateJglxManageV131', 'customer:edit'],
  ['POST /api/user/agency/updDefKpType', 'customer:edit'],
  ['POST /api/user/agency/updateAgencyEnterpriseKpfsTypeListV3', 'customer:edit'],
  ['POST /api/user/agency/updateAgencyEnterpriseKpfsType', 'customer:edit'],
  ['POST /api/user/agency/queryAgencyUserFpbxV3', 'customer:list:view'],
  ['POST /api/user/note/staging', 'customer:list:view'],
  ['POST /api/user/note/getstaging', 'customer:list:view'],
  ['POST /api/userext/agency/clearAgencyCache', 'customer:list:view'],
  ['POST /api/user/print/getPrintSetting', 'customer:list:view'],
  ['POST /api/user/print/savePrintSetting', 'customer:edit'],
  // contract templates and service items (saveOrUpdateTemplate checks 239 add / 241 edit by the id;
  // updateTemplateStatic is for administrators only; the choosers are read by the contract form too)
  ['POST /api/user/contract/service/getContractServiceItemByAgencyOrStatic', 'signedIn'],
  ['POST /api/user/contract/service/saveOrUpdateServiceItem', 'contract:service:edit'],
  ['POST /api/user/contract/service/updateServiceItemStatic', 'contract:service:edit'],
  ['POST /api/user/contract/temp/selectTemplatePage', 'contract:template:view'],
  ['POST /api/user/contract/temp/selectTemplateList', 'signedIn'],
  ['POST /api/user/contract/temp/selectTemplateById', 'signedIn'],
  ['POST /api/user/contractV2/temp/selectTemplateById', 'signedIn'],
  ['POST /api/user/contract/temp/saveOrUpdateTemplate', 'contract:template:view'],
  ['POST /api/user/contract/temp/updateTemplateStatic', 'contract:template:view'],
  ['POST /api/user/contract/temp/updateTemplateVerifySet', 'contract:template:edit'],
  ['POST /api/user/contract/temp/deleteTemplate', 'contract:template:delete'],
  // contracts (save needs 3111 add, an edit also 3112; updateContractStatus checks 3114 end or 3115 delete by
  // type; the status call checks the enterprise's data scope; settings and special-permission saves are
  // also refused to non-administrators by the handlers)
  ['POST /api/user/contract/createContractNoNew', 'contract:add'],
  ['POST /api/user/contractV2/saveContractInfoV3', 'contract:add'],
  ['POST /api/user/contractV2/getContractInfoNew', 'contract:list:view'],
  ['POST /api/user/contract/getContractListNew', 'contract:list:view'],
  ['POST /api/user/contract/getContractListByAgencyEnterpriseId', 'contract:list:view'],
  ['POST /api/user/contract/getContractInfoByAgencyAndQyshNew', 'contract:list:view'],
  ['POST /api/user/contract/getContractEnterpriseList', 'contract:list:view'],
  ['POST /api/user/contract/getContractUsers', 'contract:list:view'],
  ['POST /api/user/contract/extensionContractNew', 'contract:renew'],
  ['POST /api/user/contract/updateContractStatus', 'contract:list:view'],
  ['POST /api/user/contract/recoverContract', 'contract:recover'],
  ['POST /api/user/contract/batchSubmitContract', 'contract:edit'],
  ['POST /api/user/contract/batchEndContract', 'contract:end'],
  ['POST /api/user/contract/batchDeleteContract', 'contract:delete'],
  ['POST /api/user/contract/getContractContractStatusByAeiId', 'signedIn'],
  ['POST /api/user/contract/getContractReminderSetting', 'contract:setting:edit'],
  ['POST /api/user/contract/saveContractReminderSetting', 'contract:setting:edit'],
  ['POST /api/user/specialPermission/getSpecialPermission', 'contract:special:edit'],
  ['POST /api/user/specialPermission/getSpecialPermissionByUserId', 'signedIn'],
  ['POST /api/user/specialPermissionHtsz/getSpecialPermissionByUserIdHtsz', 'signedIn'],
  ['POST /api/user/specialPermissionKhsz/getSpecialPermissionByUserIdKhsz', 'signedIn'],
  ['POST /api/user/specialPermissionHtsf/getSpecialPermissionByUserIdHtsf', 'signedIn'],
  ['POST /api/user/specialPermission/saveSpecialPermission', 'contract:special:edit'],
  ['POST /api/user/specialPermissionHtsz/saveSpecialPermissionHtsz', 'contract:special:edit'],
  ['POST /api/user/specialPermissionKhsz/saveSpecialPermissionKhsz', 'contract:special:edit'],
  ['POST /api/user/specialPermissionHtsf/saveSpecialPermissionHtsf', 'contract:special:edit'],
  // contract fees (收费列表; records of others' contracts follow the data scope and the htsf special permission)
  ['POST /api/user/contractFee/selectReceivableList', 'fee:list:view'],
  ['POST /api/user/contractFee/selectChargeList', 'fee:list:view'],
  ['POST /api/user/contractFee/saveCharge', 'fee:charge:add'],
  ['POST /api/user/contractFee/revokeCharge', 'fee:charge:delete'],
  ['POST /api/user/contractFee/selectContractSchedule', 'fee:list:view'],
  ['POST /api/user/contractFee/getFeeOwners', 'fee:list:view'],
  // work orders and their templates (issue 17; orders of clients in the data scope or with a step assigned in it;
  // steps are handled by their assignee or the client's manager; deleting needs the client in the caller's scope)
  ['POST /api/user/workorder/selectWorkOrderTemplateList', 'signedIn'],
  ['POST /api/user/workorder/selectWorkOrderTemplateById', 'signedIn'],
  ['POST /api/user/workorder/addWorkOrderTemplate', 'workorder:template:edit'],
  ['POST /api/user/workorder/updateWorkOrderTemplate', 'workorder:template:edit'],
  ['POST /api/user/workorder/updateWorkOrderTemplateStatus', 'workorder:template:edit'],
  ['POST /api/user/workorder/deleteWorkOrderTemplate', 'workorder:template:delete'],
  ['POST /api/user/workorder/getWorkOrderTemplateService', 'signedIn'],
  ['POST /api/user/workorder/selectWorkOrderList', 'workorder:list:view'],
  ['POST /api/user/workorder/getOrderNum', 'workorder:add'],
  ['POST /api/user/workorder/addWorkOrder', 'workorder:add'],
  ['POST /api/user/workorder/getWorkOrderService', 'workorder:list:view'],
  ['POST /api/user/workorder/selectWorkOrderById', 'workorder:list:view'],
  ['POST /api/user/workorder/checkWorkOrderStepById', 'workorder:step'],
  ['POST /api/user/workorder/updateWorkOrderStep', 'workorder:step'],
  ['POST /api/user/workorder/deleteWorkOrder', 'workorder:delete'],
  // opportunities (商机; owned ones within the data scope, the pool to holders of opportunity:pool:view; detail,
  // follow-up and transfer lists check the same per id; converting also needs customer:add)
  ['POST /api/user/busiOpp/getBusiOppSetting', 'signedIn'],
  ['POST /api/user/busiOpp/saveBusiOppSetting', 'opportunity:setting:edit'],
  ['POST /api/user/busiOpp/saveBusiOpp', 'opportunity:add'],
  ['POST /api/user/busiOpp/selectBusiOppById', 'signedIn'],
  ['POST /api/user/busiOpp/selectBusiOppList', 'opportunity:list:view'],
  ['POST /api/user/busiOpp/selectPoolList', 'opportunity:pool:view'],
  ['POST /api/user/busiOpp/getBusiOppUsers', 'opportunity:list:view'],
  ['POST /api/user/busiOpp/selectFollowupList', 'signedIn'],
  ['POST /api/user/busiOpp/saveFollowup', 'opportunity:followup'],
  ['POST /api/user/busiOpp/deleteFollowup', 'opportunity:followup'],
  ['POST /api/user/busiOpp/updateBusiOppStage', 'opportunity:followup'],
  ['POST /api/user/busiOpp/changeBusiOppFollowupBy', 'opportunity:transfer'],
  ['POST /api/user/busiOpp/releaseBusiOpp', 'opportunity:release'],
  ['POST /api/user/busiOpp/claimBusiOpp', 'opportunity:pool:claim'],
  ['POST /api/user/busiOpp/deletePoolBusiOpp', 'opportunity:pool:delete'],
  ['POST /api/user/busiOpp/deleteBusiOpp', 'opportunity:delete'],
  ['POST /api/user/busiOpp/selectTransferList', 'signedIn'],
  ['POST /api/user/busiOpp/convertBusiOpp', 'opportunity:convert'],
  // declare: batch inspection (报税检查)
  ['POST /api/user/lbs/check', 'declare:check:run'],
  ['POST /api/user/lbs/getRate', 'declare:check:view'],
  ['POST /api/user/lbs/getCheckCount', 'declare:check:view'],
  ['POST /api/user/lbs/stopCheck', 'declare:check:run'],
  ['POST /api/user/lbs/getLastCheckInfo', 'declare:check:view'],
  ['POST /api/user/lbs/getCheckList', 'declare:check:view'],
  ['POST /api/user/lbs/getCheckResultList', 'declare:check:view'],
  ['POST /api/user/lbs/getFailCheckList', 'declare:check:view'],
  ['POST /api/user/lbs/checkQyshCount', 'declare:check:view'],
  // declare: tax data (税务数据 /declare/sjcx; stored or live per tab, within the data scope)
  ['POST /api/user/ycs/sjcx/getNsrjcxx', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getFzrxx', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getYsbList', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getWsbList', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getJkxxList', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getQsxxList', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getDwsbfList', 'declare:data:view'],
  ['POST /api/user/ycs/sjcx/getNsxyList', 'declare:data:view'],
  ['POST /api/aisino/declared/sbSyncData', 'declare:roster:sync'],
  ['POST /api/aisino/declared/getSbStatus', 'declare:roster:view'],
  ['POST /api/aisino/declared/stopSbSync', 'declare:roster:sync'],
  ['POST /api/userext/ycs/Sbqc/batchShenBaoListV2', 'declare:roster:view'],
  ['POST /api/aisino/declared/overviewOfTaxReturnsCount', 'declare:roster:view'],
  ['POST /api/aisino/declared/overviewOfTaxReturnsV3', 'declare:overview:view'],
  ['POST /api/userext/ycs/Sbqc/DeclareScheduleV3', 'declare:overview:view'],
  // declare: filing in batch (申报计划 /declare/sbjh)
  ['POST /api/user/ycs/Sbqc/saveSbqc', 'declare:filing:plan'],
  ['POST /api/user/ycs/Sbqc/getBatchMsgByRedisKey', 'declare:filing:view'],
  ['POST /api/user/ycs/Sbqc/getYcsGsZcxzWqsjJSON', 'declare:filing:view'],
  ['POST /api/user/ycs/Sbqc/deleteYcsGsZcxzWqsjJSON', 'declare:filing:plan'],
  ['POST /api/userext/ycs/Sbqc/batchShenBaoExtraList', 'declare:filing:view'],
  ['POST /api/userext/ycs/Sbqc/batchShenBaoList', 'declare:filing:view'],
  ['POST /api/user/ycs/Sbqc/updateSbqcItem', 'declare:filing:plan'],
  ['POST /api/user/ycs/Sbqc/confirmSbqc', 'declare:filing:submit'],
  ['POST /api/user/ycs/Sbqc/retrySbqc', 'declare:filing:submit'],
  ['POST /api/user/ycs/Sbqc/payBatch', 'declare:filing:pay'],
  ['POST /api/user/gssb/updateGssb', 'declare:filing:plan'],
  ['POST /api/aisino/declared/getShenbaoZqrl', 'declare:calendar:view'],
  ['POST /api/aisino/declared/getShenbaoZqrlDay', 'declare:calendar:view'],
  ['POST /api/user/ycs/Lbsjc/checkUnDeclared', 'declare:lbsjc:run'],
  ['POST /api/user/ycs/Lbsjc/checkUnPaid', 'declare:lbsjc:run'],
  ['POST /api/jcResult/checkSbqk', 'declare:lbsjc:view'],
  ['POST /api/user/ycs/selectJcLog', 'declare:lbsjc:view'],
  ['POST /api/wddb/dealLbsjc', 'declare:lbsjc:view'],
  ['POST /api/wddb/determineGs', 'declare:lbsjc:view'],
  ['POST /api/user/ycs/Lbsjc/getWsbDictData', 'declare:lbsjc:view'],
  ['POST /api/user/ycs/Lbsjc/getWjkDictData', 'declare:lbsjc:view'],
  ['POST /api/user/ycs/Lbsjc/access', 'signedIn'],
  ['POST /api/user/ycs/SbqcSzSetting/selectYcsSbqcSzSetting', 'declare:setting:view'],
  ['POST /api/user/ycs/SbqcSzSetting/saveYcsSbqcSzSetting', 'declare:setting:edit'],
  ['POST /api/user/ycs/SbqcSzSetting/saveConfirmSetting', 'declare:setting:edit'],
  ['POST /api/user/ycs/SbqcSzSetting/optAgencyEnterpriseInfoIgnoreSz', 'declare:setting:edit'],
  ['POST /api/user/ycs/bs/xxbq/selectXxbq', 'declare:setting:view'],
  ['POST /api/user/ycs/bs/xxbq/addXxbq', 'declare:setting:edit'],
  ['POST /api/user/ycs/bs/selectLog', 'declare:setting:view'],
  // filing-confirm (open/sbqr/*: the signed link is the authority; the tenant comes from it only)
  ['POST /api/user/ycs/Sbqc/sendSbqr', 'declare:filing:confirm'],
  ['POST /api/open/sbqr/get', 'public'],
  ['POST /api/open/sbqr/answer', 'public'],
  // etax (helper/redeem and helper/result: the one-time grant is the authority)
  ['POST /api/user/etax/helperGrant', 'customer:etax:login'],
  ['POST /api/helper/redeem', 'public'],
  ['POST /api/helper/result', 'public'],
  // bureau-checks (可信登录密码校验: also needs the client's province on kxdlmmjy)
  ['POST /api/user/jszt/checkPassword', 'customer:edit'],
  ['POST /api/user/newTaxBureau/getWhitelistByQysh', 'customer:list:view'],
  // helper-dist (the helper asks without a session; the builds are the same for everyone)
  ['POST /api/helper/version', 'public'],
  // invoice pool, input invoices, statistics (issue 15)
  ['POST /api/user/invoicepool/sendTaskToFpPool', 'invoice:pool:collect'],
  ['POST /api/user/invoicepool/getFpPoolStatusByTaskIds', 'invoice:pool:view'],
  ['POST /api/user/invoicepool/getLatestFpPoolTask', 'invoice:pool:view'],
  ['POST /api/invoice-pool/statistic/queryFpXxfp', 'invoice:pool:view'],
  ['POST /api/invoice-pool/statistic/queryFpJxfp', 'invoice:pool:view'],
  ['POST /api/invoice-pool/statistic/searchJXxData', 'invoice:stats:view'],
  ['POST /api/invoice-pool/statistic/searchJxppData', 'invoice:stats:view'],
  ['POST /api/invoice-pool/statistic/queryStatisticFpXxfpByFppz', 'invoice:stats:view'],
  ['POST /api/userext/fp/jxfpzp/selectFpJxfpZpList', 'invoice:input:view'],
  ['POST /api/userext/fp/jxfpzp/selectFpJxfpZpDetailList', 'invoice:input:view'],
  ['POST /api/user/fp/jxfpzp/insertOrUpdateBatchFpJxfpZp', 'invoice:input:confirm'],
  ['POST /api/aisino/invoice/inputConfirmV3', 'invoice:input:confirm'],
  ['POST /api/user/invoicepool/selectFpPoolCustomers', 'signedIn'],
  // output invoices 销项发票 (issue 15)
  ['POST /api/userext/fp/xxfp/selectFpkjListV2', 'invoice:output:view'],
  ['POST /api/user/fp/xxfp/selectFpkjDetailList', 'invoice:output:view'],
  ['POST /api/user/fp/xxfp/billingSummary', 'invoice:output:view'],
  ['POST /api/user/fp/xxfp/previewFpxxfp', 'invoice:output:issue'],
  ['POST /api/user/fp/xxfp/insertOrUpdateBatchFpxxfp', 'invoice:output:issue'],
  ['POST /api/aisino/invoice/invoiceOpenerV3', 'invoice:output:red'],
  ['POST /api/user/fp/xxfpkped/selectFpxxfpKpedList', 'invoice:output:view'],
  ['POST /api/user/fp/xxfpkped/insertOrUpdateBatchFpxxfpKped', 'invoice:output:issue'],
  ['POST /api/user/fp/xxfp/batchRate', 'invoice:output:batch'],
  // books and vouchers (issue 16)
  ['POST /api/user/setUp/setUp', 'account:book:setup'],
  ['POST /api/busi/sb/selectBookIdByQyshAndAgencyId', 'account:book:view'],
  ['POST /api/user/setUp/getYjzBookInfo', 'account:book:view'],
  ['POST /api/books/clients', 'account:book:view'],
  ['POST /api/books/accounts', 'account:book:view'],
  ['POST /api/books/account/add', 'account:book:edit'],
  ['POST /api/books/account/update', 'account:book:edit'],
  ['POST /api/books/aux/list', 'account:book:view'],
  ['POST /api/books/aux/save', 'account:book:edit'],
  ['POST /api/books/openings', 'account:book:view'],
  ['POST /api/books/openings/save', 'account:book:edit'],
  ['POST /api/books/vouchers', 'account:voucher:view'],
  ['POST /api/books/voucher/get', 'account:voucher:view'],
  ['POST /api/books/voucher/nextNumber', 'account:voucher:view'],
  ['POST /api/books/voucher/save', 'account:voucher:edit'],
  ['POST /api/books/voucher/delete', 'account:voucher:delete'],
  ['POST /api/books/voucher/review', 'account:voucher:review'],
  ['POST /api/books/voucher/copy', 'account:voucher:edit'],
  ['POST /api/books/templates', 'account:voucher:view'],
  ['POST /api/books/template/save', 'account:voucher:edit'],
  ['POST /api/books/template/delete', 'account:voucher:edit'],
  ['POST /api/books/template/apply', 'account:voucher:view'],
  ['POST /api/books/voucher/importProgress', 'account:voucher:import'],
  // period close, batch close, documents to vouchers (issue 16)
  ['POST /api/busi/qmJz/list', 'account:close:view'],
  ['POST /api/busi/qmJz/state', 'account:close:view'],
  ['POST /api/busi/qmJz/transfer', 'account:close:run'],
  ['POST /api/busi/qmJz/close', 'account:close:run'],
  ['POST /api/busi/qmJz/reopen', 'account:close:reverse'],
  ['POST /api/busi/qmJz', 'account:close:batch'],
  ['POST /api/busi/qmJz/rate', 'account:close:view'],
  ['POST /api/busi/qmJz/report', 'account:close:view'],
  ['POST /api/busi/pzScd/list', 'account:voucher:view'],
  ['POST /api/busi/pzScd/accept', 'account:voucher:edit'],
  ['POST /api/busi/pzRule/get', 'account:setting:view'],
  ['POST /api/busi/pzRule/save', 'account:setting:edit'],
  // ledgers and statements (issue 16)
  ['POST /api/account/report/books', 'signedIn'],
  ['POST /api/account/ledger/balances', 'account:ledger:view'],
  ['POST /api/account/ledger/general', 'account:ledger:view'],
  ['POST /api/account/ledger/detail', 'account:ledger:view'],
  ['POST /api/account/ledger/columns', 'account:ledger:view'],
  ['POST /api/account/statement/get', 'account:statement:view'],
  // batch print (issue 16)
  ['POST /api/account/print/start', 'account:print:view'],
  ['POST /api/account/print/runs', 'account:print:view'],
  ['POST /api/account/print/rate', 'account:print:view'],
  ['POST /api/account/print/clients', 'account:print:view'],
  // data list (issue 17)
  ['POST /api/user/agency/dataList', 'customer:data:view'],
  // 财税课堂 content (issue 17)
  ['POST /api/content/filterVideoList', 'signedIn'],
  ['POST /api/content/videoList', 'signedIn'],
  ['POST /api/content/videoInfo', 'signedIn'],
  ['POST /api/content/addWatchNow', 'signedIn'],
  ['POST /api/content/addWatchOld', 'signedIn'],
  ['POST /api/content/adminList', 'platform:content:edit'],
  ['POST /api/content/save', 'platform:content:edit'],
  ['POST /api/content/delete', 'platform:content:edit'],
  ['POST /api/content/saveOrder', 'platform:content:edit'],
  // service-provider branding, account status and third-party sign-in (issue 19 points 4-6)
  ['POST /api/user/agency/getZtByFwsid', 'public'],
  ['POST /api/user/urlAndJsConfig/getUrlAndJsConfigData', 'public'],
  ['POST /api/brand/list', 'platform:brand:edit'],
  ['POST /api/brand/save', 'platform:brand:edit'],
  ['POST /api/brand/delete', 'platform:brand:edit'],
  ['POST /api/brand/assignAgency', 'platform:brand:edit'],
  ['POST /api/user/entSetting/getZhzt', 'signedIn'],
  ['POST /api/user/entSetting/settingSaveZhzt', 'signedIn'],
  ['POST /api/user/entSetting/settingSaveZhztByAgencyId', 'platform:benefit:edit'],
  ['POST /api/user/entSetting/setting365SaveZhzt', 'platform:benefit:edit'],
  ['POST /api/user/entSetting/agencyList', 'platform:benefit:edit'],
  ['POST /api/user/entSetting/grantList', 'platform:benefit:edit'],
  ['POST /api/user/third/login/render', 'public'],
  ['POST /api/user/third/login/updateUserChanne', 'public'],
  ['POST /api/user/third/login/getBindThirdparty', 'signedIn'],
  ['POST /api/user/third/login/unbindThirdparty', 'signedIn'],
  // dictionaries and customer service (issue 19 points 7, 8): the platform calls are the operator's
  ['POST /api/user/dict/getDictData', 'signedIn'],
  ['POST /api/user/sysDict/getList', 'signedIn'],
  ['POST /api/user/sysDictDataTyyygl/data', 'signedIn'],
  ['POST /api/platform/dict/list', 'platform:dict:edit'],
  ['POST /api/platform/dict/save', 'platform:dict:edit'],
  ['POST /api/platform/dict/delete', 'platform:dict:edit'],
  ['POST /api/user/whiteList/check', 'signedIn'],
  ['POST /api/user/whiteList/save', 'signedIn'],
  ['POST /api/user/whiteList/aqUrl', 'signedIn'],
  ['POST /api/platform/aqUrl/list', 'platform:dict:edit'],
  ['POST /api/platform/aqUrl/save', 'platform:dict:edit'],
  ['POST /api/platform/aqUrl/delete', 'platform:dict:edit'],
  // audit log viewer (issue 18 point 6): the agency's log is admin-granted, platform events the operator's
  ['POST /api/user/audit/list', 'agency:audit:view'],
  ['POST /api/user/audit/options', 'agency:audit:view'],
  ['POST /api/platform/audit/list', 'platform:audit:view'],
  // API keys and webhooks (issue 18 point 4): administrator-only permissions, never held by a key
  ['POST /api/user/apikey/selectApiKeyList', 'agency:apikey:manage'],
  ['POST /api/user/apikey/addApiKey', 'agency:apikey:manage'],
  ['POST /api/user/apikey/revokeApiKey', 'agency:apikey:manage'],
  ['POST /api/user/webhook/selectWebhookList', 'agency:webhook:manage'],
  ['POST /api/user/webhook/addWebhook', 'agency:webhook:manage'],
  ['POST /api/user/webhook/updateWebhook', 'agency:webhook:manage'],
  ['POST /api/user/webhook/updateWebhookStatus', 'agency:webhook:manage'],
  ['POST /api/user/webhook/pingWebhook', 'agency:webhook:manage'],
  ['POST /api/user/webhook/selectDeliveryList', 'agency:webhook:manage'],
  ['POST /api/user/webhook/replayDelivery', 'agency:webhook:manage'],
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
  ['POST /api/user/agency/exportNeedUpdateAgencyEnterpriseInfo', "customer:export, in the caller's data scope"],
  ['GET /api/user/agency/exportNeedUpdateAgencyEnterpriseInfo', "customer:export, in the caller's data scope"],
  ['GET /api/user/agency/shuiJuPwdTemplateExport', 'customer:import'],
  ['GET /api/user/agency/exportShuiJuPassFailData', "customer:import, the caller's own import"],
  ['GET /api/user/contract/temp/exportContractTemplateErrorData', "contract:template:import, the caller's agency"],
  ['GET /api/user/contract/service/exportServiceItemErrorData', "contract:service:import, the caller's agency"],
  ['GET /api/static/htmb_temp.xlsx', 'contract:template:import'],
  ['GET /api/static/fwxm_temp.xlsx', 'contract:service:import'],
  ['POST /api/user/contractFee/exportFeeList', "fee:export, in the caller's data scope"],
  ['GET /api/user/workorder/exportWorkOrderTemplateErrorData', "workorder:(template:)import, the caller's agency"],
  ['GET /api/files/workorder-attachment/:id', 'workorder:list:view, the work order visible to the caller'],
  ['GET /api/static/gdmb_temp.xlsx', 'workorder:template:import'],
  ['GET /api/static/gd_temp.xlsx', 'workorder:import'],
  ['POST /api/userext/ycs/Sbqc/batchShenBaoListV2Export', "declare:roster:export, in the caller's data scope"],
  ['POST /api/user/ycs/Sbqc/DeclareScheduleV3Export', "declare:overview:view, in the caller's data scope"],
  [
    'GET /api/user/ycs/Sbqc/sbjtyl',
    "declare:filing:view or declare:roster:view, the enterprise in the caller's data scope",
  ],
  [
    'POST /api/user/ycs/Sbqc/sbjtyl',
    "declare:filing:view or declare:roster:view, the enterprise in the caller's data scope",
  ],
  [
    'GET /api/user/ycs/Sbqc/downloadSbjtFiles',
    "declare:filing:view or declare:roster:view, the enterprise in the caller's data scope",
  ],
  [
    'POST /api/user/ycs/Sbqc/downloadSbjtFiles',
    "declare:filing:view or declare:roster:view, the enterprise in the caller's data scope",
  ],
  ['GET /api/helper/download/:file', 'public, only the files the helper manifest names'],
  ['POST /api/user/fp/xxfp/xqExport', "invoice:output:view, the client in the caller's data scope"],
  [
    'GET /api/user/fp/xxfp/doInvoicePrintV2/:id',
    "invoice:output:view, the invoice's client in the caller's data scope",
  ],
  ['GET /api/user/fp/xxfp/batchTemplate', 'invoice:output:batch'],
  ['GET /api/user/fp/xxfp/batchFail/:runId', "invoice:output:batch, the caller's agency's run"],
  ['GET /api/books/voucher/importTemplate', 'account:voucher:import'],
  ['GET /api/books/voucher/importFailList', "account:voucher:import, a failure list of the caller's agency by its key"],
  ['POST /api/account/ledger/export', "account:ledger:view, the book's client in the caller's data scope"],
  ['POST /api/account/statement/export', "account:statement:view, the book's client in the caller's data scope"],
  ['GET /api/account/print/download', "account:print:view, a finished print run of the caller's agency and data scope"],
  ['POST /api/user/agency/exportDataList', "customer:data:export, in the caller's data scope"],
  ['GET /api/content/file/:name', 'signedIn, a file of a published item (the operator: any)'],
  ['GET /api/files/brand/:name', 'public (a provider logo, shown on the sign-in page)'],
  ['GET /api/user/third/login/callback/:provider', "public, the signed state and this browser's nonce cookie"],
  ['GET /api/files/audit/export', "agency:audit:view, the caller's agency, at most 10,000 rows"],
  ['GET /api/health', 'public'],
  ['GET /api/openapi.json', 'public'],
  ['GET /api/dev/outbox', 'platform operator, development only'],
  ['POST /api/user/v1.0/userinfo/uploadIconInfo', 'signedIn'],
  ['GET /api/ws', 'signedIn (session cookie checked on upgrade and every 5 s)'],
  ['POST /api/user/agency/importAgencyEnterprise', 'customer:import'],
  ['POST /api/user/agency/importPassword', 'customer:import'],
  ['POST /api/user/agency/uploadEnterpriseAttachment', 'customer:edit'],
  ['POST /api/user/agency/importShuiJuPassword', 'customer:import'],
  ['POST /api/user/contract/temp/import', 'contract:template:import'],
  ['POST /api/user/contract/service/import', 'contract:service:import'],
  ['POST /api/user/workorder/import', 'workorder:template:import or workorder:import by kind'],
  ['POST /api/user/workorder/uploadStepAttachment', "workorder:step, the step's assignee or the client's manager"],
  ['POST /api/user/fp/xxfp/batchImport', "invoice:output:batch, the client in the caller's data scope"],
  ['POST /api/books/voucher/import', "account:voucher:import, the book's client in the caller's data scope"],
  ['POST /api/content/upload', 'platform:content:edit (platform operator)'],
  ['POST /api/brand/uploadLogo', 'platform operator'],
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
