/**
 * The line formulas of the three statements of 小企业会计准则 (2013), in one table each (docs/decisions-16-report.md
 * "Statements"). A line is a heading, a sum of accounts (by first-level or deeper code prefix), or a formula over
 * earlier lines by 行次.
 *
 *   acc: the accounts, each code a prefix (its sub-accounts included); '-' before a code subtracts it.
 *   sum: [行次, sign] pairs over lines already computed.
 */

export interface LineDef {
  no: number;
  name: string;
  indent: 0 | 1 | 2;
  bold?: boolean;
  acc?: readonly string[];
  sum?: readonly (readonly [number, 1 | -1])[];
  side?: 'left' | 'right';
}

const plus = (...nos: number[]) => nos.map((n) => [n, 1] as const);

/** 会小企01表 资产负债表: 期末余额 and 年初余额 from the balances (debit-positive for assets, credit-positive for the right side). */
export const BALANCE_LINES: readonly LineDef[] = [
  { no: 0, name: '流动资产：', indent: 0, bold: true, side: 'left' },
  { no: 1, name: '货币资金', indent: 1, acc: ['1001', '1002', '1012'], side: 'left' },
  { no: 2, name: '短期投资', indent: 1, acc: ['1101'], side: 'left' },
  { no: 3, name: '应收票据', indent: 1, acc: ['1121'], side: 'left' },
  { no: 4, name: '应收账款', indent: 1, acc: ['1122'], side: 'left' },
  { no: 5, name: '预付账款', indent: 1, acc: ['1123'], side: 'left' },
  { no: 6, name: '应收股利', indent: 1, acc: ['1131'], side: 'left' },
  { no: 7, name: '应收利息', indent: 1, acc: ['1132'], side: 'left' },
  { no: 8, name: '其他应收款', indent: 1, acc: ['1221'], side: 'left' },
  {
    no: 9,
    name: '存货',
    indent: 1,
    acc: ['1401', '1402', '1403', '1404', '1405', '1407', '1408', '1411', '1421', '4001', '4101', '4401', '4403'],
    side: 'left',
  },
  { no: 10, name: '其中：原材料', indent: 2, acc: ['1403'], side: 'left' },
  { no: 11, name: '在产品', indent: 2, acc: ['4001'], side: 'left' },
  { no: 12, name: '库存商品', indent: 2, acc: ['1405'], side: 'left' },
  { no: 13, name: '周转材料', indent: 2, acc: ['1411'], side: 'left' },
  { no: 14, name: '其他流动资产', indent: 1, acc: ['1901'], side: 'left' },
  { no: 15, name: '流动资产合计', indent: 0, bold: true, sum: plus(1, 2, 3, 4, 5, 6, 7, 8, 9, 14), side: 'left' },
  { no: 0, name: '非流动资产：', indent: 0, bold: true, side: 'left' },
  { no: 16, name: '长期债券投资', indent: 1, acc: ['1501'], side: 'left' },
  { no: 17, name: '长期股权投资', indent: 1, acc: ['1511'], side: 'left' },
  { no: 18, name: '固定资产原价', indent: 1, acc: ['1601'], side: 'left' },
  { no: 19, name: '减：累计折旧', indent: 1, acc: ['-1602'], side: 'left' },
  {
    no: 20,
    name: '固定资产账面价值',
    indent: 1,
    sum: [
      [18, 1],
      [19, -1],
    ],
    side: 'left',
  },
  { no: 21, name: '在建工程', indent: 1, acc: ['1604'], side: 'left' },
  { no: 22, name: '工程物资', indent: 1, acc: ['1605'], side: 'left' },
  { no: 23, name: '固定资产清理', indent: 1, acc: ['1606'], side: 'left' },
  { no: 24, name: '生产性生物资产', indent: 1, acc: ['1621', '1622'], side: 'left' },
  { no: 25, name: '无形资产', indent: 1, acc: ['1701', '1702'], side: 'left' },
  { no: 26, name: '开发支出', indent: 1, acc: ['4301'], side: 'left' },
  { no: 27, name: '长期待摊费用', indent: 1, acc: ['1801'], side: 'left' },
  { no: 28, name: '其他非流动资产', indent: 1, acc: [], side: 'left' },
  {
    no: 29,
    name: '非流动资产合计',
    indent: 0,
    bold: true,
    sum: plus(16, 17, 20, 21, 22, 23, 24, 25, 26, 27, 28),
    side: 'left',
  },
  { no: 30, name: '资产总计', indent: 0, bold: true, sum: plus(15, 29), side: 'left' },

  { no: 0, name: '流动负债：', indent: 0, bold: true, side: 'right' },
  { no: 31, name: '短期借款', indent: 1, acc: ['2001'], side: 'right' },
  { no: 32, name: '应付票据', indent: 1, acc: ['2201'], side: 'right' },
  { no: 33, name: '应付账款', indent: 1, acc: ['2202'], side: 'right' },
  { no: 34, name: '预收账款', indent: 1, acc: ['2203'], side: 'right' },
  { no: 35, name: '应付职工薪酬', indent: 1, acc: ['2211'], side: 'right' },
  { no: 36, name: '应交税费', indent: 1, acc: ['2221'], side: 'right' },
  { no: 37, name: '应付利息', indent: 1, acc: ['2231'], side: 'right' },
  { no: 38, name: '应付利润', indent: 1, acc: ['2232'], side: 'right' },
  { no: 39, name: '其他应付款', indent: 1, acc: ['2241'], side: 'right' },
  { no: 40, name: '其他流动负债', indent: 1, acc: [], side: 'right' },
  {
    no: 41,
    name: '流动负债合计',
    indent: 0,
    bold: true,
    sum: plus(31, 32, 33, 34, 35, 36, 37, 38, 39, 40),
    side: 'right',
  },
  { no: 0, name: '非流动负债：', indent: 0, bold: true, side: 'right' },
  { no: 42, name: '长期借款', indent: 1, acc: ['2501'], side: 'right' },
  { no: 43, name: '长期应付款', indent: 1, acc: ['2701'], side: 'right' },
  { no: 44, name: '递延收益', indent: 1, acc: ['2401'], side: 'right' },
  { no: 45, name: '其他非流动负债', indent: 1, acc: [], side: 'right' },
  { no: 46, name: '非流动负债合计', indent: 0, bold: true, sum: plus(42, 43, 44, 45), side: 'right' },
  { no: 47, name: '负债合计', indent: 0, bold: true, sum: plus(41, 46), side: 'right' },
  { no: 0, name: '所有者权益（或股东权益）：', indent: 0, bold: true, side: 'right' },
  { no: 48, name: '实收资本（或股本）', indent: 1, acc: ['3001'], side: 'right' },
  { no: 49, name: '资本公积', indent: 1, acc: ['3002'], side: 'right' },
  { no: 50, name: '盈余公积', indent: 1, acc: ['3101'], side: 'right' },
  // Before 结转损益 the 损益 accounts still hold the year's profit: counted here (FALLBACK_LINE.profit).
  { no: 51, name: '未分配利润', indent: 1, acc: ['3103', '3104'], side: 'right' },
  { no: 52, name: '所有者权益（或股东权益）合计', indent: 0, bold: true, sum: plus(48, 49, 50, 51), side: 'right' },
  { no: 53, name: '负债和所有者权益（或股东权益）总计', indent: 0, bold: true, sum: plus(47, 52), side: 'right' },
];

/** Lines that take every account no other line names: assets → 其他流动资产, liabilities → 其他流动负债, equity → 未分配利润. */
export const FALLBACK_LINE = { asset: 14, cost: 9, common: 14, liability: 40, equity: 51, profit: 51 } as const;
export const TOTAL_ASSETS = 30;
export const TOTAL_RIGHT = 53;
export const TOTAL_LIABILITIES = 47;
export const TOTAL_EQUITY = 52;

/**
 * 会小企02表 利润表. A line's amount from the 损益 accounts' own side of the period: 收入 lines take the credit
 * amounts, 费用 lines the debit amounts (returns and reversals entered as 红字 on the same side), so the
 * 结转损益 voucher (debit income, credit expenses) never counts. `inc` marks income lines.
 * The 其中 lines take the sub-accounts whose names contain the words given in `names`; the preset chart has a
 * sub-account for each (books/charts.ts: 5403 税金及附加, 5301 营业外收入, 5711 营业外支出, 5601/5602 …) and the
 * 计提附加税 posts to them, so lines 6 and 10 show the accrued surtax (issue 28 point 8).
 * Lines and 行次 as 小企业会计准则 (财会〔2011〕17号) 附录 (三) 利润表 会小企02 gives them (text as published at
 * https://www.dongao.com/fgk/xqykjzz/20180130848148_24.shtml); line 3 is named 税金及附加 since 财会〔2016〕22号
 * (it was 营业税金及附加). Line 26 reads 无法收回的长期债券投资损失 as 准则第七十条 and the 1501 account name it (the
 * published table prints 长期债权投资损失: both words are matched).
 */
export interface IncomeLineDef extends LineDef {
  inc?: boolean;
  /** 其中 lines: sub-accounts of `acc` whose name contains one of these. */
  names?: readonly string[];
  /** Sub-accounts of `acc` left out (those another line takes, e.g. 研发费用 out of 管理费用). */
  except?: readonly string[];
  /** A loss shown negative (the debit side, negated). */
  neg?: boolean;
}

export const INCOME_LINES: readonly IncomeLineDef[] = [
  { no: 1, name: '一、营业收入', indent: 0, bold: true, acc: ['5001', '5051'], inc: true },
  { no: 2, name: '减：营业成本', indent: 1, acc: ['5401', '5402'] },
  { no: 3, name: '税金及附加', indent: 1, acc: ['5403'] },
  { no: 4, name: '其中：消费税', indent: 2, acc: ['5403'], names: ['消费税'] },
  { no: 5, name: '营业税', indent: 2, acc: ['5403'], names: ['营业税'] },
  { no: 6, name: '城市维护建设税', indent: 2, acc: ['5403'], names: ['城市维护建设税', '城建税'] },
  { no: 7, name: '资源税', indent: 2, acc: ['5403'], names: ['资源税'] },
  { no: 8, name: '土地增值税', indent: 2, acc: ['5403'], names: ['土地增值税'] },
  {
    no: 9,
    name: '城镇土地使用税、房产税、车船税、印花税',
    indent: 2,
    acc: ['5403'],
    names: ['土地使用税', '房产税', '车船税', '印花税'],
  },
  {
    no: 10,
    name: '教育费附加、矿产资源补偿费、排污费',
    indent: 2,
    acc: ['5403'],
    names: ['教育费附加', '教育附加', '矿产资源补偿费', '排污费'],
  },
  { no: 11, name: '销售费用', indent: 1, acc: ['5601'] },
  { no: 12, name: '其中：商品维修费', indent: 2, acc: ['5601'], names: ['维修费'] },
  { no: 13, name: '广告费和业务宣传费', indent: 2, acc: ['5601'], names: ['广告费', '业务宣传费'] },
  { no: 14, name: '管理费用', indent: 1, acc: ['5602'] },
  { no: 15, name: '其中：开办费', indent: 2, acc: ['5602'], names: ['开办费'] },
  { no: 16, name: '业务招待费', indent: 2, acc: ['5602'], names: ['业务招待费'] },
  { no: 17, name: '研究费用', indent: 2, acc: ['5602'], names: ['研究费用', '研发费用'] },
  { no: 18, name: '财务费用', indent: 1, acc: ['5603'] },
  { no: 19, name: '其中：利息费用（收入以“-”号填列）', indent: 2, acc: ['5603'], names: ['利息'] },
  { no: 20, name: '加：投资收益（损失以“-”号填列）', indent: 1, acc: ['5111'], inc: true },
  {
    no: 21,
    name: '二、营业利润（亏损以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [
      [1, 1],
      [2, -1],
      [3, -1],
      [11, -1],
      [14, -1],
      [18, -1],
      [20, 1],
    ],
  },
  { no: 22, name: '加：营业外收入', indent: 1, acc: ['5301'], inc: true },
  { no: 23, name: '其中：政府补助', indent: 2, acc: ['5301'], inc: true, names: ['政府补助'] },
  { no: 24, name: '减：营业外支出', indent: 1, acc: ['5711'] },
  { no: 25, name: '其中：坏账损失', indent: 2, acc: ['5711'], names: ['坏账损失'] },
  {
    no: 26,
    name: '无法收回的长期债券投资损失',
    indent: 2,
    acc: ['5711'],
    names: ['长期债券投资损失', '长期债权投资损失'],
  },
  { no: 27, name: '无法收回的长期股权投资损失', indent: 2, acc: ['5711'], names: ['长期股权投资损失'] },
  { no: 28, name: '自然灾害等不可抗力因素造成的损失', indent: 2, acc: ['5711'], names: ['自然灾害', '不可抗力'] },
  { no: 29, name: '税收滞纳金', indent: 2, acc: ['5711'], names: ['滞纳金'] },
  {
    no: 30,
    name: '三、利润总额（亏损总额以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [
      [21, 1],
      [22, 1],
      [24, -1],
    ],
  },
  { no: 31, name: '减：所得税费用', indent: 1, acc: ['5801'] },
  {
    no: 32,
    name: '四、净利润（净亏损以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [
      [30, 1],
      [31, -1],
    ],
  },
];

/** 会小企03表 现金流量表 (direct method). Lines 1–19 are filled from the cash lines' counterparts (CASH_ITEMS). */
export const CASHFLOW_LINES: readonly LineDef[] = [
  { no: 0, name: '一、经营活动产生的现金流量：', indent: 0, bold: true },
  { no: 1, name: '销售产成品、商品、提供劳务收到的现金', indent: 1 },
  { no: 2, name: '收到其他与经营活动有关的现金', indent: 1 },
  { no: 3, name: '购买原材料、商品、接受劳务支付的现金', indent: 1 },
  { no: 4, name: '支付的职工薪酬', indent: 1 },
  { no: 5, name: '支付的税费', indent: 1 },
  { no: 6, name: '支付其他与经营活动有关的现金', indent: 1 },
  {
    no: 7,
    name: '经营活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [1, 1],
      [2, 1],
      [3, -1],
      [4, -1],
      [5, -1],
      [6, -1],
    ],
  },
  { no: 0, name: '二、投资活动产生的现金流量：', indent: 0, bold: true },
  { no: 8, name: '收回短期投资、长期债券投资和长期股权投资收到的现金', indent: 1 },
  { no: 9, name: '取得投资收益收到的现金', indent: 1 },
  { no: 10, name: '处置固定资产、无形资产和其他非流动资产收回的现金净额', indent: 1 },
  { no: 11, name: '短期投资、长期债券投资和长期股权投资支付的现金', indent: 1 },
  { no: 12, name: '购建固定资产、无形资产和其他非流动资产支付的现金', indent: 1 },
  {
    no: 13,
    name: '投资活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [8, 1],
      [9, 1],
      [10, 1],
      [11, -1],
      [12, -1],
    ],
  },
  { no: 0, name: '三、筹资活动产生的现金流量：', indent: 0, bold: true },
  { no: 14, name: '取得借款收到的现金', indent: 1 },
  { no: 15, name: '吸收投资者投资收到的现金', indent: 1 },
  { no: 16, name: '偿还借款本金支付的现金', indent: 1 },
  { no: 17, name: '偿还借款利息支付的现金', indent: 1 },
  { no: 18, name: '分配利润支付的现金', indent: 1 },
  {
    no: 19,
    name: '筹资活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [14, 1],
      [15, 1],
      [16, -1],
      [17, -1],
      [18, -1],
    ],
  },
  {
    no: 20,
    name: '四、现金净增加额',
    indent: 0,
    bold: true,
    sum: [
      [7, 1],
      [13, 1],
      [19, 1],
    ],
  },
  { no: 21, name: '加：期初现金余额', indent: 1 },
  {
    no: 22,
    name: '五、期末现金余额',
    indent: 0,
    bold: true,
    sum: [
      [20, 1],
      [21, 1],
    ],
  },
];

/** The cash accounts (库存现金, 银行存款, 其他货币资金): 现金 of the cash-flow statement. */
export const CASH_CODES = ['1001', '1002', '1012'] as const;

/**
 * Where a counterpart account's cash goes: [line when cash comes in, line when it goes out], by the longest
 * matching code prefix. Cash in on an outflow-only item (e.g. a supplier's refund) reduces that outflow line;
 * cash out on an inflow item (a refund to a customer) reduces the inflow line — the same line, so each item
 * stays where an accountant looks for it. Accounts not listed: 其他经营活动 (2 / 6).
 */
export const CASH_ITEMS: readonly (readonly [string, number, number])[] = [
  ['5001', 1, 1],
  ['5051', 1, 1],
  ['1121', 1, 1],
  ['1122', 1, 1],
  ['2203', 1, 1],
  ['1123', 3, 3],
  ['1401', 3, 3],
  ['1402', 3, 3],
  ['1403', 3, 3],
  ['1405', 3, 3],
  ['1408', 3, 3],
  ['1411', 3, 3],
  ['1421', 3, 3],
  ['2201', 3, 3],
  ['2202', 3, 3],
  ['4001', 3, 3],
  ['4101', 3, 3],
  ['5401', 3, 3],
  ['5402', 3, 3],
  ['2211', 4, 4],
  ['2221', 5, 5],
  ['5403', 5, 5],
  ['5801', 5, 5],
  ['1101', 8, 11],
  ['1501', 8, 11],
  ['1511', 8, 11],
  ['1131', 9, 9],
  ['1132', 9, 9],
  ['5111', 9, 9],
  ['1601', 10, 12],
  ['1604', 10, 12],
  ['1605', 10, 12],
  ['1606', 10, 12],
  ['1621', 10, 12],
  ['1701', 10, 12],
  ['1801', 10, 12],
  ['4301', 10, 12],
  ['2001', 14, 16],
  ['2501', 14, 16],
  ['2701', 14, 16],
  ['2231', 17, 17],
  ['3001', 15, 18],
  ['3002', 15, 18],
  ['2232', 18, 18],
  ['3104', 18, 18],
];
/** Lines whose items are inflows (a positive amount adds; the others are outflows). */
export const CASH_INFLOW_LINES = new Set([1, 2, 8, 9, 10, 14, 15]);
/** 应交增值税 (销项/进项) moves with the goods or services it is on: it takes the voucher's main counterpart's item. */
export const VAT_PREFIX = '222101';

// --- 企业会计准则 (一般企业财务报表格式, 财会〔2019〕6号, 已执行新金融工具准则) ------------------------------------------------

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => [from + i, 1] as const);

/**
 * 会企01表 资产负债表. Contra accounts (坏账准备, 累计折旧, 减值准备, 累计摊销) are netted into their asset's line
 * (listed without '-': their credit balance subtracts by itself); '-' marks a line shown positive and subtracted
 * by its total (减：库存股). 其他应收款 includes 应收利息/应收股利, 固定资产 includes 固定资产清理, 在建工程 includes
 * 工程物资, and 其他应付款 includes 应付利息/应付股利, as the 2019 format asks.
 */
export const GENERAL_BALANCE_LINES: readonly LineDef[] = [
  { no: 0, name: '流动资产：', indent: 0, bold: true, side: 'left' },
  { no: 1, name: '货币资金', indent: 1, acc: ['1001', '1002', '1012'], side: 'left' },
  { no: 2, name: '交易性金融资产', indent: 1, acc: ['1101'], side: 'left' },
  { no: 3, name: '衍生金融资产', indent: 1, acc: [], side: 'left' },
  { no: 4, name: '应收票据', indent: 1, acc: ['1121'], side: 'left' },
  { no: 5, name: '应收账款', indent: 1, acc: ['1122', '1231'], side: 'left' },
  { no: 6, name: '应收款项融资', indent: 1, acc: [], side: 'left' },
  { no: 7, name: '预付款项', indent: 1, acc: ['1123'], side: 'left' },
  { no: 8, name: '其他应收款', indent: 1, acc: ['1221', '1131', '1132'], side: 'left' },
  {
    no: 9,
    name: '存货',
    indent: 1,
    acc: ['1401', '1402', '1403', '1404', '1405', '1406', '1408', '1411', '1471', '5001', '5101', '5201'],
    side: 'left',
  },
  { no: 10, name: '合同资产', indent: 1, acc: [], side: 'left' },
  { no: 11, name: '持有待售资产', indent: 1, acc: [], side: 'left' },
  { no: 12, name: '一年内到期的非流动资产', indent: 1, acc: [], side: 'left' },
  { no: 13, name: '其他流动资产', indent: 1, acc: ['1901'], side: 'left' },
  { no: 14, name: '流动资产合计', indent: 0, bold: true, sum: range(1, 13), side: 'left' },
  { no: 0, name: '非流动资产：', indent: 0, bold: true, side: 'left' },
  { no: 15, name: '债权投资', indent: 1, acc: ['1501'], side: 'left' },
  { no: 16, name: '其他债权投资', indent: 1, acc: [], side: 'left' },
  { no: 17, name: '长期应收款', indent: 1, acc: ['1531'], side: 'left' },
  { no: 18, name: '长期股权投资', indent: 1, acc: ['1511'], side: 'left' },
  { no: 19, name: '其他权益工具投资', indent: 1, acc: [], side: 'left' },
  { no: 20, name: '其他非流动金融资产', indent: 1, acc: [], side: 'left' },
  { no: 21, name: '投资性房地产', indent: 1, acc: ['1521'], side: 'left' },
  { no: 22, name: '固定资产', indent: 1, acc: ['1601', '1602', '1603', '1606'], side: 'left' },
  { no: 23, name: '在建工程', indent: 1, acc: ['1604', '1605'], side: 'left' },
  { no: 24, name: '生产性生物资产', indent: 1, acc: [], side: 'left' },
  { no: 25, name: '油气资产', indent: 1, acc: [], side: 'left' },
  { no: 26, name: '使用权资产', indent: 1, acc: [], side: 'left' },
  { no: 27, name: '无形资产', indent: 1, acc: ['1701', '1702', '1703'], side: 'left' },
  { no: 28, name: '开发支出', indent: 1, acc: ['5301'], side: 'left' },
  { no: 29, name: '商誉', indent: 1, acc: ['1711'], side: 'left' },
  { no: 30, name: '长期待摊费用', indent: 1, acc: ['1801'], side: 'left' },
  { no: 31, name: '递延所得税资产', indent: 1, acc: ['1811'], side: 'left' },
  { no: 32, name: '其他非流动资产', indent: 1, acc: [], side: 'left' },
  { no: 33, name: '非流动资产合计', indent: 0, bold: true, sum: range(15, 32), side: 'left' },
  { no: 34, name: '资产总计', indent: 0, bold: true, sum: plus(14, 33), side: 'left' },

  { no: 0, name: '流动负债：', indent: 0, bold: true, side: 'right' },
  { no: 35, name: '短期借款', indent: 1, acc: ['2001'], side: 'right' },
  { no: 36, name: '交易性金融负债', indent: 1, acc: ['2101'], side: 'right' },
  { no: 37, name: '衍生金融负债', indent: 1, acc: [], side: 'right' },
  { no: 38, name: '应付票据', indent: 1, acc: ['2201'], side: 'right' },
  { no: 39, name: '应付账款', indent: 1, acc: ['2202'], side: 'right' },
  { no: 40, name: '预收款项', indent: 1, acc: ['2203'], side: 'right' },
  { no: 41, name: '合同负债', indent: 1, acc: ['2204'], side: 'right' },
  { no: 42, name: '应付职工薪酬', indent: 1, acc: ['2211'], side: 'right' },
  { no: 43, name: '应交税费', indent: 1, acc: ['2221'], side: 'right' },
  { no: 44, name: '其他应付款', indent: 1, acc: ['2241', '2231', '2232'], side: 'right' },
  { no: 45, name: '持有待售负债', indent: 1, acc: [], side: 'right' },
  { no: 46, name: '一年内到期的非流动负债', indent: 1, acc: [], side: 'right' },
  { no: 47, name: '其他流动负债', indent: 1, acc: [], side: 'right' },
  { no: 48, name: '流动负债合计', indent: 0, bold: true, sum: range(35, 47), side: 'right' },
  { no: 0, name: '非流动负债：', indent: 0, bold: true, side: 'right' },
  { no: 49, name: '长期借款', indent: 1, acc: ['2501'], side: 'right' },
  { no: 50, name: '应付债券', indent: 1, acc: ['2502'], side: 'right' },
  { no: 51, name: '租赁负债', indent: 1, acc: [], side: 'right' },
  { no: 52, name: '长期应付款', indent: 1, acc: ['2701'], side: 'right' },
  { no: 53, name: '预计负债', indent: 1, acc: ['2801'], side: 'right' },
  { no: 54, name: '递延收益', indent: 1, acc: ['2401'], side: 'right' },
  { no: 55, name: '递延所得税负债', indent: 1, acc: ['2901'], side: 'right' },
  { no: 56, name: '其他非流动负债', indent: 1, acc: [], side: 'right' },
  { no: 57, name: '非流动负债合计', indent: 0, bold: true, sum: range(49, 56), side: 'right' },
  { no: 58, name: '负债合计', indent: 0, bold: true, sum: plus(48, 57), side: 'right' },
  { no: 0, name: '所有者权益（或股东权益）：', indent: 0, bold: true, side: 'right' },
  { no: 59, name: '实收资本（或股本）', indent: 1, acc: ['4001'], side: 'right' },
  { no: 60, name: '其他权益工具', indent: 1, acc: [], side: 'right' },
  { no: 61, name: '资本公积', indent: 1, acc: ['4002'], side: 'right' },
  { no: 62, name: '减：库存股', indent: 1, acc: ['-4201'], side: 'right' },
  { no: 63, name: '其他综合收益', indent: 1, acc: ['4003'], side: 'right' },
  { no: 64, name: '专项储备', indent: 1, acc: [], side: 'right' },
  { no: 65, name: '盈余公积', indent: 1, acc: ['4101'], side: 'right' },
  { no: 66, name: '未分配利润', indent: 1, acc: ['4103', '4104'], side: 'right' },
  {
    no: 67,
    name: '所有者权益（或股东权益）合计',
    indent: 0,
    bold: true,
    sum: [...plus(59, 60, 61), [62, -1], ...plus(63, 64, 65, 66)],
    side: 'right',
  },
  { no: 68, name: '负债和所有者权益（或股东权益）总计', indent: 0, bold: true, sum: plus(58, 67), side: 'right' },
];

/**
 * 会企02表 利润表. 研发费用 is taken out of 管理费用 (its sub-accounts named 研发/研究费用); the impairment lines are
 * losses shown negative (`neg`), as the format's "损失以“-”号填列" asks.
 */
export const GENERAL_INCOME_LINES: readonly IncomeLineDef[] = [
  { no: 1, name: '一、营业收入', indent: 0, bold: true, acc: ['6001', '6051'], inc: true },
  { no: 2, name: '减：营业成本', indent: 1, acc: ['6401', '6402'] },
  { no: 3, name: '税金及附加', indent: 1, acc: ['6403'] },
  { no: 4, name: '销售费用', indent: 1, acc: ['6601'] },
  { no: 5, name: '管理费用', indent: 1, acc: ['6602'], except: ['研发费用', '研究费用'] },
  { no: 6, name: '研发费用', indent: 1, acc: ['6602'], names: ['研发费用', '研究费用'] },
  { no: 7, name: '财务费用', indent: 1, acc: ['6603'] },
  { no: 8, name: '其中：利息费用', indent: 2, acc: ['6603'], names: ['利息'], except: ['利息收入'] },
  { no: 9, name: '利息收入', indent: 2, acc: ['6603'], names: ['利息收入'], neg: true },
  { no: 10, name: '加：其他收益', indent: 1, acc: ['6117'], inc: true },
  { no: 11, name: '投资收益（损失以“-”号填列）', indent: 1, acc: ['6111'], inc: true },
  { no: 12, name: '公允价值变动收益（损失以“-”号填列）', indent: 1, acc: ['6101'], inc: true },
  { no: 13, name: '信用减值损失（损失以“-”号填列）', indent: 1, acc: ['6702'], neg: true },
  { no: 14, name: '资产减值损失（损失以“-”号填列）', indent: 1, acc: ['6701'], neg: true },
  { no: 15, name: '资产处置收益（损失以“-”号填列）', indent: 1, acc: ['6115'], inc: true },
  {
    no: 16,
    name: '二、营业利润（亏损以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [[1, 1], [2, -1], [3, -1], [4, -1], [5, -1], [6, -1], [7, -1], ...plus(10, 11, 12, 13, 14, 15)],
  },
  { no: 17, name: '加：营业外收入', indent: 1, acc: ['6301'], inc: true },
  { no: 18, name: '减：营业外支出', indent: 1, acc: ['6711'] },
  {
    no: 19,
    name: '三、利润总额（亏损总额以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [
      [16, 1],
      [17, 1],
      [18, -1],
    ],
  },
  { no: 20, name: '减：所得税费用', indent: 1, acc: ['6801'] },
  {
    no: 21,
    name: '四、净利润（净亏损以“-”号填列）',
    indent: 0,
    bold: true,
    sum: [
      [19, 1],
      [20, -1],
    ],
  },
];

/** 会企03表 现金流量表 (direct method), its items filled like the small standard's from GENERAL_CASH_ITEMS. */
export const GENERAL_CASHFLOW_LINES: readonly LineDef[] = [
  { no: 0, name: '一、经营活动产生的现金流量：', indent: 0, bold: true },
  { no: 1, name: '销售商品、提供劳务收到的现金', indent: 1 },
  { no: 2, name: '收到的税费返还', indent: 1 },
  { no: 3, name: '收到其他与经营活动有关的现金', indent: 1 },
  { no: 4, name: '经营活动现金流入小计', indent: 1, bold: true, sum: plus(1, 2, 3) },
  { no: 5, name: '购买商品、接受劳务支付的现金', indent: 1 },
  { no: 6, name: '支付给职工以及为职工支付的现金', indent: 1 },
  { no: 7, name: '支付的各项税费', indent: 1 },
  { no: 8, name: '支付其他与经营活动有关的现金', indent: 1 },
  { no: 9, name: '经营活动现金流出小计', indent: 1, bold: true, sum: plus(5, 6, 7, 8) },
  {
    no: 10,
    name: '经营活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [4, 1],
      [9, -1],
    ],
  },
  { no: 0, name: '二、投资活动产生的现金流量：', indent: 0, bold: true },
  { no: 11, name: '收回投资收到的现金', indent: 1 },
  { no: 12, name: '取得投资收益收到的现金', indent: 1 },
  { no: 13, name: '处置固定资产、无形资产和其他长期资产收回的现金净额', indent: 1 },
  { no: 14, name: '处置子公司及其他营业单位收到的现金净额', indent: 1 },
  { no: 15, name: '收到其他与投资活动有关的现金', indent: 1 },
  { no: 16, name: '投资活动现金流入小计', indent: 1, bold: true, sum: plus(11, 12, 13, 14, 15) },
  { no: 17, name: '购建固定资产、无形资产和其他长期资产支付的现金', indent: 1 },
  { no: 18, name: '投资支付的现金', indent: 1 },
  { no: 19, name: '取得子公司及其他营业单位支付的现金净额', indent: 1 },
  { no: 20, name: '支付其他与投资活动有关的现金', indent: 1 },
  { no: 21, name: '投资活动现金流出小计', indent: 1, bold: true, sum: plus(17, 18, 19, 20) },
  {
    no: 22,
    name: '投资活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [16, 1],
      [21, -1],
    ],
  },
  { no: 0, name: '三、筹资活动产生的现金流量：', indent: 0, bold: true },
  { no: 23, name: '吸收投资收到的现金', indent: 1 },
  { no: 24, name: '取得借款收到的现金', indent: 1 },
  { no: 25, name: '收到其他与筹资活动有关的现金', indent: 1 },
  { no: 26, name: '筹资活动现金流入小计', indent: 1, bold: true, sum: plus(23, 24, 25) },
  { no: 27, name: '偿还债务支付的现金', indent: 1 },
  { no: 28, name: '分配股利、利润或偿付利息支付的现金', indent: 1 },
  { no: 29, name: '支付其他与筹资活动有关的现金', indent: 1 },
  { no: 30, name: '筹资活动现金流出小计', indent: 1, bold: true, sum: plus(27, 28, 29) },
  {
    no: 31,
    name: '筹资活动产生的现金流量净额',
    indent: 0,
    bold: true,
    sum: [
      [26, 1],
      [30, -1],
    ],
  },
  { no: 32, name: '四、汇率变动对现金及现金等价物的影响', indent: 0, bold: true },
  { no: 33, name: '五、现金及现金等价物净增加额', indent: 0, bold: true, sum: plus(10, 22, 31, 32) },
  { no: 34, name: '加：期初现金及现金等价物余额', indent: 1 },
  { no: 35, name: '六、期末现金及现金等价物余额', indent: 0, bold: true, sum: plus(33, 34) },
];

/** [code prefix, line when cash comes in, line when it goes out] for 企业会计准则 codes (see CASH_ITEMS). */
export const GENERAL_CASH_ITEMS: readonly (readonly [string, number, number])[] = [
  ...['6001', '6051', '1121', '1122', '2203', '2204'].map((c) => [c, 1, 1] as const),
  ...['1123', '1401', '1402', '1403', '1405', '1406', '1408', '1411', '2201', '2202', '5001', '5101', '5201'].map(
    (c) => [c, 5, 5] as const,
  ),
  ...['6401', '6402'].map((c) => [c, 5, 5] as const),
  ['2211', 6, 6],
  ['2221', 2, 7],
  ['6403', 7, 7],
  ['6801', 7, 7],
  // 财务费用—利息: interest paid is 偿付利息 (筹资), interest received stays in 经营活动.
  ['660301', 3, 28],
  ...['1101', '1501', '1511', '1521', '1531'].map((c) => [c, 11, 18] as const),
  ...['1131', '1132', '6111'].map((c) => [c, 12, 12] as const),
  ...['1601', '1604', '1605', '1606', '1701', '1801', '5301'].map((c) => [c, 13, 17] as const),
  ...['2001', '2501', '2502', '2701'].map((c) => [c, 24, 27] as const),
  ...['2231', '2232', '4104'].map((c) => [c, 28, 28] as const),
  ...['4001', '4002'].map((c) => [c, 23, 29] as const),
];

// --- one set per accounting standard ------------------------------------------------------------------

/** Everything the statements need of a standard: its lines and the 行次 the service and the filing read. */
export interface StatementSet {
  balance: readonly LineDef[];
  /** Lines that take every account no other line names, by category. */
  fallback: Readonly<Record<'asset' | 'cost' | 'common' | 'liability' | 'equity' | 'profit', number>>;
  totalAssets: number;
  totalLiabilities: number;
  totalEquity: number;
  totalRight: number;
  income: readonly IncomeLineDef[];
  totalProfit: number;
  netProfit: number;
  /** 损益 accounts that are not on the income statement (以前年度损益调整 goes to 利润分配). */
  notInIncome: readonly string[];
  cashflow: readonly LineDef[];
  cashItems: readonly (readonly [string, number, number])[];
  cashInflowLines: ReadonlySet<number>;
  /** The item lines for cash whose counterpart no item names: [in, out]. */
  cashOther: readonly [number, number];
  cashOpening: number;
  cashClosing: number;
}

export const STATEMENT_SETS: Readonly<Record<'small2013' | 'general', StatementSet>> = {
  small2013: {
    balance: BALANCE_LINES,
    fallback: FALLBACK_LINE,
    totalAssets: TOTAL_ASSETS,
    totalLiabilities: TOTAL_LIABILITIES,
    totalEquity: TOTAL_EQUITY,
    totalRight: TOTAL_RIGHT,
    income: INCOME_LINES,
    totalProfit: 30,
    netProfit: 32,
    notInIncome: [],
    cashflow: CASHFLOW_LINES,
    cashItems: CASH_ITEMS,
    cashInflowLines: CASH_INFLOW_LINES,
    cashOther: [2, 6],
    cashOpening: 21,
    cashClosing: 22,
  },
  general: {
    balance: GENERAL_BALANCE_LINES,
    fallback: { asset: 13, cost: 9, common: 13, liability: 47, equity: 66, profit: 66 },
    totalAssets: 34,
    totalLiabilities: 58,
    totalEquity: 67,
    totalRight: 68,
    income: GENERAL_INCOME_LINES,
    totalProfit: 19,
    netProfit: 21,
    notInIncome: ['6901'],
    cashflow: GENERAL_CASHFLOW_LINES,
    cashItems: GENERAL_CASH_ITEMS,
    cashInflowLines: new Set([1, 2, 3, 11, 12, 13, 14, 15, 23, 24, 25]),
    cashOther: [3, 8],
    cashOpening: 34,
    cashClosing: 35,
  },
};
