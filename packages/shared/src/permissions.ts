/**
 * The menu and permission registry (foundation.md §3, §6; business.md §6), RuoYi's vocabulary typed:
 * 'M' directory, 'C' page, 'F' button. Ids are the spec's where it names them.
 * A permission key is `module:thing:action`; `*:*:*` alone means everything.
 */
export type MenuType = 'M' | 'C' | 'F';

export interface MenuDef {
  id: number;
  parentId: number;
  type: MenuType;
  title: string;
  /** Route path of a page ('C'), or the path prefix of a directory ('M'). */
  path?: string;
  /** Permission a page or button needs; a page without one is open to every signed-in user. */
  perm?: string;
  /** Icon name for the navigation (antd icon component name). */
  icon?: string;
  /** Only administrators (and, where said, factory users) hold it; no role can grant it. */
  adminOnly?: boolean;
  /** Only platform operators hold it. */
  operatorOnly?: boolean;
  /** Shown in the top bar's more-menu instead of the navigation (foundation.md §2). */
  more?: boolean;
  /** Province codes (sssf) the entry is limited to, or hidden in (foundation.md §6 region rules). */
  onlyRegions?: readonly string[];
  hiddenRegions?: readonly string[];
}

export const MENUS = [
  { id: 1, parentId: 0, type: 'C', title: '门户', path: '/dashboard', icon: 'HomeOutlined' },
  { id: 101, parentId: 1, type: 'F', title: '查看机构统计', perm: 'dashboard:counts:view' },
  { id: 2, parentId: 0, type: 'M', title: '客户', path: '/customer', icon: 'TeamOutlined' },
  { id: 21, parentId: 2, type: 'M', title: '客户管理', path: '/customer/khgl' },
  { id: 211, parentId: 21, type: 'C', title: '我的客户', path: '/customer/khgl/wdkh', perm: 'customer:list:view' },
  { id: 2111, parentId: 211, type: 'F', title: '新增客户', perm: 'customer:add' },
  { id: 2112, parentId: 211, type: 'F', title: '编辑客户', perm: 'customer:edit' },
  { id: 2113, parentId: 211, type: 'F', title: '删除客户', perm: 'customer:delete' },
  { id: 2114, parentId: 211, type: 'F', title: '分配客户', perm: 'customer:assign' },
  { id: 2115, parentId: 211, type: 'F', title: '停止/恢复服务', perm: 'customer:service:toggle' },
  { id: 2116, parentId: 211, type: 'F', title: '导入客户', perm: 'customer:import' },
  { id: 2117, parentId: 211, type: 'F', title: '导出客户', perm: 'customer:export' },
  { id: 2118, parentId: 211, type: 'F', title: '查看账号密码', perm: 'customer:credential:reveal' },
  { id: 212, parentId: 21, type: 'C', title: '回收站', path: '/customer/khgl/hsz', perm: 'customer:recycle:view' },
  { id: 2121, parentId: 212, type: 'F', title: '恢复客户', perm: 'customer:restore' },
  { id: 2122, parentId: 212, type: 'F', title: '彻底删除', perm: 'customer:purge', adminOnly: true },
  { id: 2119, parentId: 211, type: 'F', title: '登录电子税务局', perm: 'customer:etax:login' },
  { id: 2120, parentId: 211, type: 'F', title: '等级管理', perm: 'customer:grade:edit' },
  // 商务管理 (issue 17): opportunities, their public pool, work orders and their templates, the data list.
  { id: 22, parentId: 2, type: 'M', title: '商务管理', path: '/customer/swgl' },
  { id: 221, parentId: 22, type: 'C', title: '商机列表', path: '/customer/swgl/sjgl', perm: 'opportunity:list:view' },
  { id: 2211, parentId: 221, type: 'F', title: '新增商机', perm: 'opportunity:add' },
  { id: 2212, parentId: 221, type: 'F', title: '跟进商机', perm: 'opportunity:followup' },
  { id: 2213, parentId: 221, type: 'F', title: '转移商机', perm: 'opportunity:transfer' },
  { id: 2214, parentId: 221, type: 'F', title: '释放到公海', perm: 'opportunity:release' },
  { id: 2215, parentId: 221, type: 'F', title: '商机转客户', perm: 'opportunity:convert' },
  { id: 2216, parentId: 221, type: 'F', title: '删除商机', perm: 'opportunity:delete' },
  { id: 2217, parentId: 221, type: 'F', title: '商机设置', perm: 'opportunity:setting:edit' },
  { id: 222, parentId: 22, type: 'C', title: '公海', path: '/customer/swgl/gh', perm: 'opportunity:pool:view' },
  { id: 2221, parentId: 222, type: 'F', title: '领取商机', perm: 'opportunity:pool:claim' },
  { id: 2222, parentId: 222, type: 'F', title: '删除公海商机', perm: 'opportunity:pool:delete' },
  {
    id: 231,
    parentId: 22,
    type: 'C',
    title: '工单列表',
    path: '/customer/swgl/workorder',
    perm: 'workorder:list:view',
  },
  { id: 2311, parentId: 231, type: 'F', title: '新增工单', perm: 'workorder:add' },
  { id: 2312, parentId: 231, type: 'F', title: '处理工单步骤', perm: 'workorder:step' },
  { id: 2313, parentId: 231, type: 'F', title: '删除工单', perm: 'workorder:delete' },
  { id: 2314, parentId: 231, type: 'F', title: '导入工单', perm: 'workorder:import' },
  { id: 232, parentId: 22, type: 'C', title: '工单模板', path: '/customer/swgl/gdmb', perm: 'workorder:template:view' },
  { id: 2321, parentId: 232, type: 'F', title: '编辑工单模板', perm: 'workorder:template:edit' },
  { id: 2322, parentId: 232, type: 'F', title: '导入工单模板', perm: 'workorder:template:import' },
  { id: 2323, parentId: 232, type: 'F', title: '删除工单模板', perm: 'workorder:template:delete' },
  { id: 233, parentId: 22, type: 'C', title: '数据列表', path: '/customer/swgl/sjlb', perm: 'customer:data:view' },
  { id: 2331, parentId: 233, type: 'F', title: '导出数据列表', perm: 'customer:data:export' },
  { id: 3, parentId: 0, type: 'M', title: '合同', path: '/contract', icon: 'FileTextOutlined' },
  { id: 31, parentId: 3, type: 'M', title: '合同管理', path: '/contract/htgl' },
  { id: 311, parentId: 31, type: 'C', title: '合同列表', path: '/contract/htgl/htlb', perm: 'contract:list:view' },
  { id: 3111, parentId: 311, type: 'F', title: '新增合同', perm: 'contract:add' },
  { id: 3112, parentId: 311, type: 'F', title: '编辑合同', perm: 'contract:edit' },
  { id: 3113, parentId: 311, type: 'F', title: '续签合同', perm: 'contract:renew' },
  { id: 3114, parentId: 311, type: 'F', title: '终止合同', perm: 'contract:end' },
  { id: 3115, parentId: 311, type: 'F', title: '删除合同', perm: 'contract:delete' },
  { id: 3116, parentId: 311, type: 'F', title: '恢复合同', perm: 'contract:recover' },
  { id: 32, parentId: 3, type: 'M', title: '合同设置', path: '/contract/htsz' },
  { id: 321, parentId: 32, type: 'C', title: '服务项目', path: '/contract/htsz/fwxm', perm: 'contract:service:view' },
  { id: 3211, parentId: 321, type: 'F', title: '编辑服务项目', perm: 'contract:service:edit' },
  { id: 3212, parentId: 321, type: 'F', title: '导入服务项目', perm: 'contract:service:import' },
  { id: 322, parentId: 32, type: 'C', title: '合同模板', path: '/contract/htsz/htmb', perm: 'contract:template:view' },
  { id: 239, parentId: 322, type: 'F', title: '新增合同模板', perm: 'contract:template:add' },
  { id: 240, parentId: 322, type: 'F', title: '批量导入合同模板', perm: 'contract:template:import' },
  { id: 241, parentId: 322, type: 'F', title: '编辑合同模板', perm: 'contract:template:edit' },
  { id: 242, parentId: 322, type: 'F', title: '删除合同模板', perm: 'contract:template:delete' },
  {
    id: 323,
    parentId: 32,
    type: 'C',
    title: '合同提醒设置',
    path: '/contract/htsz/txsz',
    perm: 'contract:setting:edit',
    adminOnly: true,
  },
  {
    id: 324,
    parentId: 32,
    type: 'C',
    title: '特殊权限',
    path: '/contract/htsz/tsqx',
    perm: 'contract:special:edit',
    adminOnly: true,
  },
  { id: 5, parentId: 0, type: 'M', title: '收费', path: '/contractFee', icon: 'AccountBookOutlined' },
  { id: 51, parentId: 5, type: 'M', title: '收费管理', path: '/contractFee/sfgl' },
  { id: 511, parentId: 51, type: 'C', title: '收费列表', path: '/contractFee/sfgl/sflb', perm: 'fee:list:view' },
  { id: 5111, parentId: 511, type: 'F', title: '登记收款', perm: 'fee:charge:add' },
  { id: 5112, parentId: 511, type: 'F', title: '撤销收款', perm: 'fee:charge:delete' },
  { id: 5113, parentId: 511, type: 'F', title: '导出收费', perm: 'fee:export' },
  { id: 6, parentId: 0, type: 'M', title: '申报', path: '/declare', icon: 'AuditOutlined' },
  { id: 601, parentId: 6, type: 'C', title: '报税检查', path: '/declare/bssz', perm: 'declare:check:view' },
  { id: 6011, parentId: 601, type: 'F', title: '开始检查', perm: 'declare:check:run' },
  { id: 602, parentId: 6, type: 'C', title: '税务数据', path: '/declare/sjcx', perm: 'declare:data:view' },
  { id: 603, parentId: 6, type: 'C', title: '申报清册', path: '/declare/sbqc', perm: 'declare:roster:view' },
  { id: 6031, parentId: 603, type: 'F', title: '同步申报状态', perm: 'declare:roster:sync' },
  { id: 6032, parentId: 603, type: 'F', title: '导出申报清册', perm: 'declare:roster:export' },
  { id: 604, parentId: 6, type: 'C', title: '申报概览', path: '/declare/sbgl', perm: 'declare:overview:view' },
  { id: 605, parentId: 6, type: 'C', title: '征期日历', path: '/declare/zqrl', perm: 'declare:calendar:view' },
  { id: 606, parentId: 6, type: 'C', title: '漏报检查', path: '/declare/lbsjc', perm: 'declare:lbsjc:view' },
  { id: 6061, parentId: 606, type: 'F', title: '开始漏报检查', perm: 'declare:lbsjc:run' },
  { id: 607, parentId: 6, type: 'C', title: '申报设置', path: '/declare/sbsz', perm: 'declare:setting:view' },
  { id: 6071, parentId: 607, type: 'F', title: '编辑申报设置', perm: 'declare:setting:edit' },
  { id: 608, parentId: 6, type: 'C', title: '申报计划', path: '/declare/sbjh', perm: 'declare:filing:view' },
  { id: 6081, parentId: 608, type: 'F', title: '生成申报计划', perm: 'declare:filing:plan' },
  { id: 6082, parentId: 608, type: 'F', title: '确认申报', perm: 'declare:filing:submit' },
  { id: 6083, parentId: 608, type: 'F', title: '缴款', perm: 'declare:filing:pay' },
  { id: 6084, parentId: 608, type: 'F', title: '发送客户确认', perm: 'declare:filing:confirm' },
  // 账务 (issue 16): books per client, vouchers, ledgers, statements, period close, batch print.
  { id: 4, parentId: 0, type: 'M', title: '账务', path: '/account', icon: 'BookOutlined' },
  { id: 41, parentId: 4, type: 'C', title: '账套管理', path: '/account/books', perm: 'account:book:view' },
  { id: 411, parentId: 41, type: 'F', title: '新建账套', perm: 'account:book:setup' },
  { id: 412, parentId: 41, type: 'F', title: '科目与期初', perm: 'account:book:edit' },
  { id: 42, parentId: 4, type: 'C', title: '凭证', path: '/account/vouchers', perm: 'account:voucher:view' },
  { id: 421, parentId: 42, type: 'F', title: '录入凭证', perm: 'account:voucher:edit' },
  { id: 422, parentId: 42, type: 'F', title: '审核凭证', perm: 'account:voucher:review' },
  { id: 423, parentId: 42, type: 'F', title: '删除凭证', perm: 'account:voucher:delete' },
  { id: 424, parentId: 42, type: 'F', title: '导入凭证', perm: 'account:voucher:import' },
  { id: 43, parentId: 4, type: 'C', title: '账簿', path: '/account/ledgers', perm: 'account:ledger:view' },
  { id: 44, parentId: 4, type: 'C', title: '财务报表', path: '/account/statements', perm: 'account:statement:view' },
  { id: 45, parentId: 4, type: 'C', title: '期末结账', path: '/account/close', perm: 'account:close:view' },
  { id: 451, parentId: 45, type: 'F', title: '结账', perm: 'account:close:run' },
  { id: 452, parentId: 45, type: 'F', title: '反结账', perm: 'account:close:reverse' },
  { id: 453, parentId: 45, type: 'F', title: '批量结账', perm: 'account:close:batch' },
  { id: 46, parentId: 4, type: 'C', title: '批量打印', path: '/account/print', perm: 'account:print:view' },
  { id: 47, parentId: 4, type: 'C', title: '记账设置', path: '/account/settings', perm: 'account:setting:view' },
  { id: 471, parentId: 47, type: 'F', title: '编辑记账规则', perm: 'account:setting:edit' },
  // 发票 (issue 15): the more menu's entry 303 opens it too (foundation.md §2; its region rule stays there).
  { id: 303, parentId: 0, type: 'M', title: '发票', path: '/moreModuleCloudInvoice', icon: 'FileTextOutlined' },
  {
    id: 3031,
    parentId: 303,
    type: 'C',
    title: '销项发票',
    path: '/moreModuleCloudInvoice/xxfp',
    perm: 'invoice:output:view',
  },
  { id: 30311, parentId: 3031, type: 'F', title: '开具发票', perm: 'invoice:output:issue' },
  { id: 30312, parentId: 3031, type: 'F', title: '红冲发票', perm: 'invoice:output:red' },
  { id: 30313, parentId: 3031, type: 'F', title: '批量开票', perm: 'invoice:output:batch' },
  {
    id: 3032,
    parentId: 303,
    type: 'C',
    title: '进项发票',
    path: '/moreModuleCloudInvoice/jxfp',
    perm: 'invoice:input:view',
  },
  { id: 30321, parentId: 3032, type: 'F', title: '勾选确认', perm: 'invoice:input:confirm' },
  {
    id: 3033,
    parentId: 303,
    type: 'C',
    title: '发票池',
    path: '/moreModuleCloudInvoice/fpc',
    perm: 'invoice:pool:view',
  },
  { id: 30331, parentId: 3033, type: 'F', title: '采集发票', perm: 'invoice:pool:collect' },
  {
    id: 3034,
    parentId: 303,
    type: 'C',
    title: '发票统计',
    path: '/moreModuleCloudInvoice/fptj',
    perm: 'invoice:stats:view',
  },
  // 财税课堂 (issue 17 point 5): the operator's videos, lectures and news, open to every signed-in user.
  { id: 7, parentId: 0, type: 'C', title: '财税课堂', path: '/classroom', icon: 'PlayCircleOutlined' },
  { id: 10, parentId: 0, type: 'M', title: '设置', path: '/nested', icon: 'SettingOutlined' },
  { id: 223, parentId: 10, type: 'C', title: '个人设置', path: '/nested/menu1/baseInfo' },
  { id: 224, parentId: 10, type: 'C', title: '修改密码', path: '/nested/menu1/changePassword' },
  {
    id: 225,
    parentId: 10,
    type: 'C',
    title: '代理机构信息',
    path: '/nested/manage/agency-info',
    perm: 'agency:info:view',
    adminOnly: true,
  },
  { id: 2251, parentId: 225, type: 'F', title: '编辑机构信息', perm: 'agency:info:edit', adminOnly: true },
  // Issue 18 point 5: who must sign in with two factors, audit retention, resetting a member's 2FA.
  { id: 2252, parentId: 225, type: 'F', title: '安全设置', perm: 'agency:security:edit', adminOnly: true },
  { id: 226, parentId: 10, type: 'C', title: '员工管理', path: '/nested/manage/staff', perm: 'staff:list:view' },
  { id: 2261, parentId: 226, type: 'F', title: '邀请员工', perm: 'staff:invite' },
  { id: 2262, parentId: 226, type: 'F', title: '移除员工', perm: 'staff:remove' },
  { id: 2263, parentId: 226, type: 'F', title: '工作交接', perm: 'staff:handover' },
  { id: 2264, parentId: 226, type: 'F', title: '转让管理员', perm: 'staff:admin:transfer', adminOnly: true },
  { id: 2265, parentId: 226, type: 'F', title: '调整部门', perm: 'staff:dept:change' },
  { id: 2266, parentId: 226, type: 'F', title: '号码显示设置', perm: 'staff:phone:setting', adminOnly: true },
  { id: 227, parentId: 10, type: 'C', title: '部门管理', path: '/nested/manage/department', perm: 'org:dept:view' },
  { id: 2271, parentId: 227, type: 'F', title: '编辑部门', perm: 'org:dept:edit' },
  { id: 228, parentId: 10, type: 'C', title: '角色权限', path: '/nested/manage/role', perm: 'role:list:view' },
  { id: 2281, parentId: 228, type: 'F', title: '编辑角色', perm: 'role:edit', adminOnly: true },
  { id: 229, parentId: 10, type: 'C', title: '岗位管理', path: '/nested/manage/station', perm: 'station:list:view' },
  { id: 2291, parentId: 229, type: 'F', title: '编辑岗位', perm: 'station:edit' },
  // 会计工厂管理 (foundation.md §2 /nested/kjgcgl/kjgcxx; issue 18 point 1): the agency's factories and the
  // clients handed over, or for a factory its agencies. Shown only with the dljghdkjgcmenu white list.
  {
    id: 2300,
    parentId: 10,
    type: 'C',
    title: '会计工厂管理',
    path: '/nested/kjgcgl/kjgcxx',
    perm: 'kjgc:manage',
    adminOnly: true,
  },
  // Issue 18 point 6: the agency's audit log (granted by the administrator, not held by 普通员工).
  { id: 230, parentId: 10, type: 'C', title: '操作日志', path: '/nested/manage/audit-log', perm: 'agency:audit:view' },
  // API keys and webhooks (issue 18 point 4): the administrator's alone; a key can never hold them.
  {
    id: 1801,
    parentId: 10,
    type: 'C',
    title: 'API 密钥',
    path: '/nested/manage/api-keys',
    perm: 'agency:apikey:manage',
    adminOnly: true,
  },
  {
    id: 1802,
    parentId: 10,
    type: 'C',
    title: 'Webhook',
    path: '/nested/manage/webhooks',
    perm: 'agency:webhook:manage',
    adminOnly: true,
  },
  { id: 900, parentId: 0, type: 'M', title: '平台运营', path: '/platform', icon: 'CloudServerOutlined' },
  {
    id: 901,
    parentId: 900,
    type: 'C',
    title: '入驻审核',
    path: '/platform/applications',
    perm: 'platform:apply:review',
    operatorOnly: true,
  },
  {
    id: 902,
    parentId: 900,
    type: 'C',
    title: '课堂内容',
    path: '/platform/content',
    perm: 'platform:content:edit',
    operatorOnly: true,
  },
  {
    id: 931,
    parentId: 900,
    type: 'C',
    title: '服务商品牌',
    path: '/platform/brand',
    perm: 'platform:brand:edit',
    operatorOnly: true,
  },
  {
    id: 932,
    parentId: 900,
    type: 'C',
    title: '机构权益',
    path: '/platform/benefit',
    perm: 'platform:benefit:edit',
    operatorOnly: true,
  },
  {
    id: 909,
    parentId: 900,
    type: 'C',
    title: '平台日志',
    path: '/platform/audit-log',
    perm: 'platform:audit:view',
    operatorOnly: true,
  },
  {
    id: 903,
    parentId: 900,
    type: 'C',
    title: '字典与客服',
    path: '/platform/dicts',
    perm: 'platform:dict:edit',
    operatorOnly: true,
  },
] as const satisfies readonly MenuDef[];

export type PermKey = Extract<(typeof MENUS)[number], { perm: string }>['perm'];
export const ALL_PERMS = '*:*:*';

const flag = (m: MenuDef, key: 'adminOnly' | 'operatorOnly') => (m as MenuDef)[key] === true;

/** Permissions a role may grant: everything but administrator-only and operator-only ones. */
export const GRANTABLE_PERMS: readonly PermKey[] = (MENUS as readonly MenuDef[]).flatMap((m) =>
  m.perm && !flag(m, 'adminOnly') && !flag(m, 'operatorOnly') ? [m.perm as PermKey] : [],
);

/**
 * Destructive, bulk and credential permissions: an administrator grants them (a role of their own, or
 * the default one); the default role 普通员工 does not hold them.
 */
export const ADMIN_GRANTED_PERMS: readonly PermKey[] = [
  'customer:delete',
  'customer:assign',
  'customer:service:toggle',
  'customer:import',
  'customer:credential:reveal',
  'customer:grade:edit',
  'contract:end',
  'contract:delete',
  'contract:service:import',
  'contract:template:import',
  'contract:template:delete',
  'fee:charge:delete',
  'invoice:output:red',
  'invoice:output:batch',
  'account:voucher:import',
  'account:close:reverse',
  'account:close:batch',
  'opportunity:delete',
  'opportunity:setting:edit',
  'opportunity:pool:delete',
  'workorder:delete',
  'workorder:import',
  'workorder:template:edit',
  'workorder:template:import',
  'workorder:template:delete',
  'agency:audit:view',
];

/**
 * What the default role 普通员工 of a new agency holds: everyday work only, that is everything grantable
 * but the administration pages and ADMIN_GRANTED_PERMS.
 */
export const DEFAULT_STAFF_PERMS: readonly PermKey[] = GRANTABLE_PERMS.filter(
  (p) => !/^(staff|org|role|station):/.test(p) && !ADMIN_GRANTED_PERMS.includes(p),
);

/** Held by platform operators. */
export const OPERATOR_PERMS: readonly PermKey[] = (MENUS as readonly MenuDef[]).flatMap((m) =>
  m.perm && flag(m, 'operatorOnly') ? [m.perm as PermKey] : [],
);

/**
 * The spec's permission-code-to-level map (foundation.md §6, business.md §3). Its meaning is not shown
 * in the spec; kept as given for the modules that use those codes.
 */
export const PERM_CODE_LEVEL: Readonly<Record<number, number>> = {
  171: 2,
  172: 3,
  410: 0,
  411: 0,
  412: 0,
  413: 0,
  420: 3,
  421: 3,
  422: 3,
  423: 3,
  522: 3,
  523: 2,
  290: 3,
  390: 3,
};

const OPERATOR_ONLY = new Set<string>(OPERATOR_PERMS);

/**
 * A permission is held when the list has `*:*:*` or any of the required ids (foundation.md §5).
 * Platform-operator permissions are the exception: an agency's `*:*:*` does not reach them.
 */
export function hasPerm(held: readonly string[], required: string | readonly string[]): boolean {
  const need = typeof required === 'string' ? [required] : required;
  if (need.length === 0) throw new Error('请设置操作权限标签值');
  const all = held.includes(ALL_PERMS);
  return need.some((p) => held.includes(p) || (all && !OPERATOR_ONLY.has(p)));
}
