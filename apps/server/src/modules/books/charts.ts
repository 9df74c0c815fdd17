import type { AccountCategory, AccountingStandard, BalanceDirection, BookVatKind } from '../../db/schema/books.js';

/**
 * The preset charts of accounts (科目表) a new book starts with (issue 16). 小企业会计准则 (2013): its
 * appendix's first-level accounts 1001 库存现金 … 5801 所得税费用 with the usual second- and third-level
 * accounts agencies keep (应交税费, 应付职工薪酬, 期间费用, 利润分配). 企业会计准则: the common
 * first-level accounts of the general standard (2018+ names) with the same sub-accounts.
 *
 * A row is [code, name] or [code, name, direction] when the direction is not the category's usual one
 * (contra accounts such as 累计折旧, and income accounts under 损益). Parents are found by code prefix.
 */
export type ChartRow = readonly [code: string, name: string, direction?: BalanceDirection];

export interface PresetAccount {
  code: string;
  name: string;
  level: number;
  parentCode: string | null;
  category: AccountCategory;
  direction: BalanceDirection;
}

const D = 'debit' as const;
const C = 'credit' as const;

/** Sub-accounts shared by both standards, keyed by the first-level name (codes follow the parent's). */
const PAYROLL: readonly (readonly [string, string])[] = [
  ['01', '职工工资'],
  ['02', '奖金、津贴和补贴'],
  ['03', '职工福利费'],
  ['04', '社会保险费'],
  ['05', '住房公积金'],
  ['06', '工会经费'],
  ['07', '职工教育经费'],
];
/** 应交税费: 01 应交增值税 (a general taxpayer's has the third level), 02 未交增值税, 03–09 the others. */
const TAXES: readonly (readonly [string, string])[] = [
  ['01', '应交增值税'],
  ['02', '未交增值税'],
  ['03', '应交城市维护建设税'],
  ['04', '应交教育费附加'],
  ['05', '应交地方教育附加'],
  ['06', '应交企业所得税'],
  ['07', '应交个人所得税'],
  ['08', '应交印花税'],
  ['09', '应交房产税'],
  ['10', '应交城镇土地使用税'],
];
/** 应交增值税's third level (一般纳税人 only). */
const VAT_GENERAL: readonly (readonly [string, string])[] = [
  ['01', '进项税额'],
  ['02', '销项税额'],
  ['03', '进项税额转出'],
  ['04', '已交税金'],
  ['05', '转出未交增值税'],
  ['06', '减免税款'],
  ['07', '转出多交增值税'],
];
const ADMIN_EXPENSES: readonly (readonly [string, string])[] = [
  ['01', '工资薪金'],
  ['02', '办公费'],
  ['03', '差旅费'],
  ['04', '业务招待费'],
  ['05', '折旧费'],
  ['06', '房租'],
  ['07', '水电费'],
  ['08', '通讯费'],
  ['09', '交通费'],
  ['10', '社会保险费'],
  ['11', '住房公积金'],
  ['12', '福利费'],
  ['13', '咨询服务费'],
  ['14', '无形资产摊销'],
  // 会小企02 line 15 其中：开办费 and line 17 研究费用 (会企02 line 6 研发费用) read these by name.
  ['15', '开办费'],
  ['16', '研究费用'],
  ['99', '其他'],
];
const SELLING_EXPENSES: readonly (readonly [string, string])[] = [
  ['01', '工资薪金'],
  ['02', '广告费'],
  ['03', '业务宣传费'],
  ['04', '运输费'],
  ['05', '装卸费'],
  // 会小企02 line 12 其中：商品维修费.
  ['06', '商品维修费'],
  ['99', '其他'],
];
const FINANCE_EXPENSES: readonly (readonly [string, string])[] = [
  ['01', '利息'],
  ['02', '手续费'],
  ['03', '汇兑损益'],
];
/**
 * 税金及附加 (5403 / 6403) by tax, so that 会小企02's 其中 lines 4–10 (消费税, 营业税, 城市维护建设税, 资源税, 土地增值税,
 * 城镇土地使用税、房产税、车船税、印花税, 教育费附加、矿产资源补偿费、排污费) are read from them (issue 28 point 8;
 * statement-lines.ts matches a line to the sub-accounts by name). Source of the lines: 小企业会计准则 (财会〔2011〕17号)
 * 附录《小企业会计准则——会计科目、主要账务处理和财务报表》(三) 利润表 会小企02 (text as published at
 * https://www.dongao.com/fgk/xqykjzz/20180130848148_24.shtml); the line is named 税金及附加 since 财会〔2016〕22号.
 * 营业税 (abolished 2016-05-01) has no sub-account. 99 其他 takes what an older book had booked on 5403 itself
 * (migration 0046). The product's 计提附加税 posts to 02, 09 and 10 (book-close/close.service.ts).
 */
const TAX_EXPENSES: readonly (readonly [string, string])[] = [
  ['01', '消费税'],
  ['02', '城市维护建设税'],
  ['03', '资源税'],
  ['04', '土地增值税'],
  ['05', '城镇土地使用税'],
  ['06', '房产税'],
  ['07', '车船税'],
  ['08', '印花税'],
  ['09', '教育费附加'],
  ['10', '地方教育附加'],
  ['99', '其他'],
];
/**
 * 营业外支出 (5711, 小企业会计准则 only): 会小企02 lines 25–29, named as 小企业会计准则 第七十条 lists them ("坏账损失、
 * 无法收回的长期债券投资损失、无法收回的长期股权投资损失、自然灾害等不可抗力因素造成的损失、税收滞纳金"); 99 其他 for the
 * rest of 第七十条 (罚款、捐赠支出 …) and what an older book had on 5711 itself.
 */
const NON_OPERATING_EXPENSES: readonly (readonly [string, string])[] = [
  ['01', '坏账损失'],
  ['02', '无法收回的长期债券投资损失'],
  ['03', '无法收回的长期股权投资损失'],
  ['04', '自然灾害等不可抗力因素造成的损失'],
  ['05', '税收滞纳金'],
  ['99', '其他'],
];
/** 营业外收入 (5301, 小企业会计准则 only): 会小企02 line 23 其中：政府补助. */
const NON_OPERATING_INCOME: readonly (readonly [string, string])[] = [
  ['01', '政府补助'],
  ['99', '其他'],
];
const PROFIT_DISTRIBUTION: readonly (readonly [string, string])[] = [
  ['01', '提取法定盈余公积'],
  ['02', '提取任意盈余公积'],
  ['03', '应付利润'],
  ['04', '未分配利润'],
];

const SMALL_2013: readonly ChartRow[] = [
  ['1001', '库存现金'],
  ['1002', '银行存款'],
  ['1012', '其他货币资金'],
  ['1101', '短期投资'],
  ['1121', '应收票据'],
  ['1122', '应收账款'],
  ['1123', '预付账款'],
  ['1131', '应收股利'],
  ['1132', '应收利息'],
  ['1221', '其他应收款'],
  ['1401', '材料采购'],
  ['1402', '在途物资'],
  ['1403', '原材料'],
  ['1404', '材料成本差异'],
  ['1405', '库存商品'],
  ['1407', '商品进销差价', C],
  ['1408', '委托加工物资'],
  ['1411', '周转材料'],
  ['1421', '消耗性生物资产'],
  ['1501', '长期债券投资'],
  ['1511', '长期股权投资'],
  ['1601', '固定资产'],
  ['1602', '累计折旧', C],
  ['1604', '在建工程'],
  ['1605', '工程物资'],
  ['1606', '固定资产清理'],
  ['1621', '生产性生物资产'],
  ['1622', '生产性生物资产累计折旧', C],
  ['1701', '无形资产'],
  ['1702', '累计摊销', C],
  ['1801', '长期待摊费用'],
  ['1901', '待处理财产损溢'],
  ['2001', '短期借款'],
  ['2201', '应付票据'],
  ['2202', '应付账款'],
  ['2203', '预收账款'],
  ['2211', '应付职工薪酬'],
  ['2221', '应交税费'],
  ['2231', '应付利息'],
  ['2232', '应付利润'],
  ['2241', '其他应付款'],
  ['2401', '递延收益'],
  ['2501', '长期借款'],
  ['2701', '长期应付款'],
  ['3001', '实收资本'],
  ['3002', '资本公积'],
  ['3101', '盈余公积'],
  ['3103', '本年利润'],
  ['3104', '利润分配'],
  ['4001', '生产成本'],
  ['4101', '制造费用'],
  ['4301', '研发支出'],
  ['4401', '工程施工'],
  ['4403', '机械作业'],
  ['5001', '主营业务收入', C],
  ['5051', '其他业务收入', C],
  ['5111', '投资收益', C],
  ['5301', '营业外收入', C],
  ['5401', '主营业务成本'],
  ['5402', '其他业务成本'],
  ['5403', '税金及附加'],
  ['5601', '销售费用'],
  ['5602', '管理费用'],
  ['5603', '财务费用'],
  ['5711', '营业外支出'],
  ['5801', '所得税费用'],
];

const GENERAL: readonly ChartRow[] = [
  ['1001', '库存现金'],
  ['1002', '银行存款'],
  ['1012', '其他货币资金'],
  ['1101', '交易性金融资产'],
  ['1121', '应收票据'],
  ['1122', '应收账款'],
  ['1123', '预付账款'],
  ['1131', '应收股利'],
  ['1132', '应收利息'],
  ['1221', '其他应收款'],
  ['1231', '坏账准备', C],
  ['1401', '材料采购'],
  ['1402', '在途物资'],
  ['1403', '原材料'],
  ['1404', '材料成本差异'],
  ['1405', '库存商品'],
  ['1406', '发出商品'],
  ['1408', '委托加工物资'],
  ['1411', '周转材料'],
  ['1471', '存货跌价准备', C],
  ['1501', '债权投资'],
  ['1511', '长期股权投资'],
  ['1521', '投资性房地产'],
  ['1531', '长期应收款'],
  ['1601', '固定资产'],
  ['1602', '累计折旧', C],
  ['1603', '固定资产减值准备', C],
  ['1604', '在建工程'],
  ['1605', '工程物资'],
  ['1606', '固定资产清理'],
  ['1701', '无形资产'],
  ['1702', '累计摊销', C],
  ['1703', '无形资产减值准备', C],
  ['1711', '商誉'],
  ['1801', '长期待摊费用'],
  ['1811', '递延所得税资产'],
  ['1901', '待处理财产损溢'],
  ['2001', '短期借款'],
  ['2101', '交易性金融负债'],
  ['2201', '应付票据'],
  ['2202', '应付账款'],
  ['2203', '预收账款'],
  ['2204', '合同负债'],
  ['2211', '应付职工薪酬'],
  ['2221', '应交税费'],
  ['2231', '应付利息'],
  ['2232', '应付股利'],
  ['2241', '其他应付款'],
  ['2401', '递延收益'],
  ['2501', '长期借款'],
  ['2502', '应付债券'],
  ['2701', '长期应付款'],
  ['2801', '预计负债'],
  ['2901', '递延所得税负债'],
  ['4001', '实收资本'],
  ['4002', '资本公积'],
  ['4003', '其他综合收益'],
  ['4101', '盈余公积'],
  ['4103', '本年利润'],
  ['4104', '利润分配'],
  ['4201', '库存股', D],
  ['5001', '生产成本'],
  ['5101', '制造费用'],
  ['5201', '劳务成本'],
  ['5301', '研发支出'],
  ['6001', '主营业务收入', C],
  ['6051', '其他业务收入', C],
  ['6101', '公允价值变动损益', C],
  ['6111', '投资收益', C],
  ['6115', '资产处置损益', C],
  ['6117', '其他收益', C],
  ['6301', '营业外收入', C],
  ['6401', '主营业务成本'],
  ['6402', '其他业务成本'],
  ['6403', '税金及附加'],
  ['6601', '销售费用'],
  ['6602', '管理费用'],
  ['6603', '财务费用'],
  ['6701', '资产减值损失'],
  ['6702', '信用减值损失'],
  ['6711', '营业外支出'],
  ['6801', '所得税费用'],
  ['6901', '以前年度损益调整'],
];

/** The first digit's category per standard (小企业: 3 权益 4 成本 5 损益; 企业: 4 权益 5 成本 6 损益). */
function categoryOf(standard: AccountingStandard, code: string): AccountCategory {
  const d = code[0];
  if (d === '1') return 'asset';
  if (d === '2') return 'liability';
  if (standard === 'small2013') return d === '3' ? 'equity' : d === '4' ? 'cost' : 'profit';
  return d === '3' ? 'common' : d === '4' ? 'equity' : d === '5' ? 'cost' : 'profit';
}

const USUAL: Record<AccountCategory, BalanceDirection> = {
  asset: D,
  liability: C,
  common: D,
  equity: C,
  cost: D,
  profit: D,
};

/** The first-level codes of the shared sub-accounts, per standard. */
const SUBS: Record<AccountingStandard, Record<string, readonly (readonly [string, string])[]>> = {
  small2013: {
    '2211': PAYROLL,
    '2221': TAXES,
    '3104': PROFIT_DISTRIBUTION,
    '5301': NON_OPERATING_INCOME,
    '5403': TAX_EXPENSES,
    '5601': SELLING_EXPENSES,
    '5602': ADMIN_EXPENSES,
    '5603': FINANCE_EXPENSES,
    '5711': NON_OPERATING_EXPENSES,
  },
  general: {
    '2211': PAYROLL,
    '2221': TAXES,
    '4104': PROFIT_DISTRIBUTION,
    '6403': TAX_EXPENSES,
    '6601': SELLING_EXPENSES,
    '6602': ADMIN_EXPENSES,
    '6603': FINANCE_EXPENSES,
  },
};

/** The whole preset chart of a book: first level, then sub-accounts, parents before children. */
export function presetChart(standard: AccountingStandard, vatKind: BookVatKind): PresetAccount[] {
  const rows = standard === 'small2013' ? SMALL_2013 : GENERAL;
  const out: PresetAccount[] = [];
  for (const [code, name, dir] of rows) {
    const category = categoryOf(standard, code);
    const direction = dir ?? USUAL[category];
    out.push({ code, name, level: 1, parentCode: null, category, direction });
    for (const [suffix, subName] of SUBS[standard][code] ?? []) {
      const sub = `${code}${suffix}`;
      out.push({ code: sub, name: subName, level: 2, parentCode: code, category, direction });
      if (sub === '222101' && vatKind === 'general') {
        for (const [s3, n3] of VAT_GENERAL)
          out.push({ code: `${sub}${s3}`, name: n3, level: 3, parentCode: sub, category, direction });
      }
    }
  }
  return out;
}

/**
 * Codes other modules post to (the rules, the period-end transfers), per standard and VAT kind: a small-scale
 * book's 应交增值税 is one leaf (no input credit: its input VAT is part of the cost).
 */
export function chartCodes(standard: AccountingStandard, vatKind: BookVatKind) {
  const s = standard === 'small2013';
  return {
    cash: '1001',
    bank: '1002',
    receivable: '1122',
    payable: '2202',
    inventory: '1405',
    payroll: '221101',
    vatOutput: vatKind === 'general' ? '22210102' : '222101',
    vatInput: vatKind === 'general' ? '22210101' : null,
    vatUnpaid: '222102',
    cityTax: '222103',
    eduSurcharge: '222104',
    localEduSurcharge: '222105',
    incomeTaxPayable: '222106',
    iitPayable: '222107',
    revenue: s ? '5001' : '6001',
    otherRevenue: s ? '5051' : '6051',
    cost: s ? '5401' : '6401',
    taxesAndSurcharges: s ? '5403' : '6403',
    sellingExpenses: s ? '5601' : '6601',
    adminExpenses: s ? '5602' : '6602',
    adminWages: s ? '560201' : '660201',
    adminOffice: s ? '560202' : '660202',
    financeExpenses: s ? '5603' : '6603',
    incomeTax: s ? '5801' : '6801',
    currentYearProfit: s ? '3103' : '4103',
    undistributedProfit: s ? '310404' : '410404',
  };
}

/**
 * The names 计提附加税 finds 税金及附加's sub-accounts by (the words the 利润表's 其中 lines read, statement-lines.ts),
 * so a book whose chart was edited still posts where line 6 / line 10 look. `not`: words the name must not have
 * (地方教育附加 is not 教育费附加).
 */
export const TAX_EXPENSE_NAMES = {
  cjs: { code: '02', names: ['城市维护建设税', '城建税'], not: [] },
  edu: { code: '09', names: ['教育费附加'], not: ['地方'] },
  localEdu: { code: '10', names: ['地方教育附加', '地方教育费附加'], not: [] },
} as const satisfies Record<string, { code: string; names: readonly string[]; not: readonly string[] }>;
