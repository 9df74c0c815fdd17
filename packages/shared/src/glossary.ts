/**
 * The product's domain vocabulary (spec README: "keep one glossary"). Field names stay on the wire;
 * this table explains each and names it in Chinese for validation messages. docs/glossary.md is
 * generated from it (`npm run glossary`).
 */
export interface GlossaryEntry {
  zh: string;
  meaning: string;
}

export const GLOSSARY = {
  account: { zh: '账号', meaning: 'Sign-in account: a phone number or an account name.' },
  password: { zh: '密码', meaning: 'Sign-in password (8-20, upper, lower, digit and special characters).' },
  phone: { zh: '手机号', meaning: 'Mobile number, 11 digits starting 1 then 3-9.' },
  code: { zh: '验证码', meaning: 'Six-digit SMS verification code.' },
  type: { zh: '类型', meaning: 'Kind of a request; for sign-in 1 password, 2 SMS code.' },
  ptbm: { zh: '平台编码', meaning: 'Platform code the client identifies itself with.' },
  dictLabel: { zh: '短信用途', meaning: 'What an SMS code is for: login, reset, changePhone.' },
  fwsid: { zh: '服务商ID', meaning: 'Service-provider id; selects an agency-branded login page.' },
  isAgency: { zh: '是否代理机构用户', meaning: "'1' when the user signs up as agency staff." },
  dataSource: { zh: '数据来源', meaning: 'Where a sign-up came from.' },
  registerTicket: { zh: '注册凭证', meaning: 'Short-lived proof that a phone passed SMS verification, for saveUser.' },
  id: { zh: 'ID', meaning: 'Row identifier.' },
  agencyId: { zh: '代理机构ID', meaning: 'Id of the agency (tenant). Taken from the session; a sent one must match.' },
  userId: { zh: '用户ID', meaning: 'Id of a user.' },
  orgId: { zh: '组织ID', meaning: 'Id of the organisation the session acts in.' },
  orgType: { zh: '组织类型', meaning: 'dls 代理机构 agency, kd 会计工厂代理机构 factory-agency, kjgc 会计工厂 accounting factory.' },
  orgName: { zh: '组织名称', meaning: 'Name of an organisation.' },
  orgTax: { zh: '组织税号', meaning: 'Tax number of an organisation.' },
  kjgcDlsId: { zh: '会计工厂所属代理机构ID', meaning: 'The agency an accounting factory (kjgc) is bound to; it acts with this id.' },
  isAdmin: { zh: '是否管理员', meaning: "'1' administrator of the agency, otherwise accountant." },
  role: { zh: '角色', meaning: '0 部门员工 department employee, 1 代理所管理员 administrator, 2 部门负责人 department head.' },
  hymc: { zh: '姓名', meaning: 'Member name (会员名称) of a user.' },
  zw: { zh: '职位', meaning: 'Position of a user.' },
  headimg: { zh: '头像', meaning: 'Avatar image URL.' },
  hasPassword: { zh: '已设置密码', meaning: 'Whether the user has a password (SMS-registered users may not).' },
  qysh: { zh: '企业税号', meaning: 'Enterprise tax number: unified social credit code (18) or older 15-20 character number.' },
  qybm: { zh: '企业编码', meaning: 'Enterprise code; stands in for qysh where that is missing.' },
  qymc: { zh: '企业名称', meaning: 'Enterprise name.' },
  qyxz: { zh: '企业性质', meaning: "Taxpayer kind: '0' 一般纳税人 general, '1' 小规模 small-scale (default)." },
  sssf: { zh: '所属省份', meaning: 'Province code (6 digits, e.g. 130000); first 2 digits are the region code.' },
  ssds: { zh: '所属地市', meaning: 'City code.' },
  ssqx: { zh: '所属区县', meaning: 'District code.' },
  sssfmc: { zh: '所属省份名称', meaning: 'Province name.' },
  ssdsmc: { zh: '所属地市名称', meaning: 'City name.' },
  ssqxmc: { zh: '所属区县名称', meaning: 'District name.' },
  aeiId: { zh: '代理企业ID', meaning: 'Agency-enterprise id: a client enterprise in an agency book.' },
  allocate_user: { zh: '负责人', meaning: 'Staff member a client enterprise is assigned to.' },
  qyxzsl: { zh: '授权客户数', meaning: 'Customers the agency is licensed for; unlimited shown as ∞.' },
  jzxzsl: { zh: '授权账套数', meaning: 'Ledgers the agency is licensed for; unlimited shown as ∞.' },
  curQyCount: { zh: '当前客户数', meaning: 'Client enterprises in the book now.' },
  curYearMonthJzCount: { zh: '本月记账数', meaning: 'Ledgers kept this month.' },
  staffCount: { zh: '员工数', meaning: 'Staff members of the agency.' },
  newToken: { zh: '新令牌', meaning: 'Session token; here kept in an HttpOnly cookie, never in the body.' },
  oldPassword: { zh: '原密码', meaning: 'Current password, asked before setting a new one.' },
  menutype: { zh: '菜单类型', meaning: "M directory, C page, F button ('F' = button in the spec)." },
} as const satisfies Record<string, GlossaryEntry>;

/** Chinese name of a field for messages; the field name itself when the glossary lacks it. */
export function fieldLabel(field: string): string {
  return (GLOSSARY as Record<string, GlossaryEntry>)[field]?.zh ?? field;
}
