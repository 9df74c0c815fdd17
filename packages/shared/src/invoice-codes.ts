import type { InvoiceRate } from './bureau.js';
import type { TaxpayerKind } from './filing-calendar.js';

/**
 * 商品和服务税收分类编码: the common entries of the national table (19 digits), with their 简称 (printed
 * between asterisks before the item: "*信息技术服务*软件开发服务") and the rates a general taxpayer may use.
 * One table for the simulated bureau's checks on fp/kp and the product's 税收分类编码 lookup
 * (docs/decisions-15-sim.md "税收分类编码").
 */

export interface InvoiceCode {
  /** 19 digits */
  code: string;
  /** 货物和劳务名称 as in the table */
  name: string;
  /** 简称 without the asterisks */
  short: string;
  /** The rate of a general taxpayer (一般计税). */
  rate: '0.13' | '0.09' | '0.06';
  /** 免税 allowed (自产农产品, 流通环节的蔬菜和鲜活蛋, 学历教育…). */
  exempt?: boolean;
  /** A small-scale taxpayer's 征收率 when it is not 3 % (不动产租赁 5 %). */
  smallRate?: '0.05';
  /** 货物 (goods: quantity and unit price usual) or 服务. */
  goods: boolean;
  /** A typical unit for goods. */
  unit?: string;
}

const g = (
  code: string,
  name: string,
  short: string,
  rate: InvoiceCode['rate'],
  unit: string,
  exempt = false,
): InvoiceCode => ({ code, name, short, rate, goods: true, unit, ...(exempt ? { exempt } : {}) });
const s = (code: string, name: string, short: string, rate: InvoiceCode['rate'], exempt = false): InvoiceCode => ({
  code,
  name,
  short,
  rate,
  goods: false,
  ...(exempt ? { exempt } : {}),
});

export const INVOICE_CODES: readonly InvoiceCode[] = [
  // 农产品 9 % (自产、流通环节的蔬菜和鲜活蛋免税)
  g('1010101010000000000', '稻谷', '谷物', '0.09', '吨', true),
  g('1010101020000000000', '小麦', '谷物', '0.09', '吨', true),
  g('1010101030000000000', '玉米', '谷物', '0.09', '吨', true),
  g('1010104010000000000', '大豆', '豆类', '0.09', '吨', true),
  g('1010112040000000000', '白菜类蔬菜', '蔬菜', '0.09', '千克', true),
  g('1010112090000000000', '番茄等茄果类蔬菜', '蔬菜', '0.09', '千克', true),
  g('1010112130000000000', '香菇等食用菌', '蔬菜', '0.09', '千克', true),
  g('1010115010100000000', '苹果', '水果', '0.09', '千克', true),
  g('1010115010300000000', '柑橘类水果', '水果', '0.09', '千克', true),
  g('1010116010000000000', '茶叶', '茶', '0.09', '千克', true),
  g('1010301010000000000', '猪', '活牲畜', '0.09', '头', true),
  g('1010303020100000000', '鸡蛋', '鲜蛋', '0.09', '千克', true),
  g('1010303030100000000', '天然蜂蜜', '蜂产品', '0.09', '千克', true),
  g('1010501000000000000', '淡水鱼', '水产品', '0.09', '千克', true),
  g('1030101010000000000', '小麦粉', '谷物加工品', '0.09', '千克'),
  g('1030102010100000000', '大米', '谷物加工品', '0.09', '千克'),
  g('1030105010100000000', '大豆油', '食用植物油', '0.09', '升'),
  g('1030107010100000000', '猪、牛、羊、鸡、鸭、鹅鲜、冷、冻肉', '肉及肉制品', '0.09', '千克'),
  g('1060201010000000000', '有刊号图书、报纸、期刊类印刷品', '图书', '0.09', '册'),
  g('1100301010000000000', '自来水', '水冰雪', '0.09', '吨'),
  // 货物 13 %
  g('1030201010000000000', '糕点', '焙烤食品', '0.13', '千克'),
  g('1040101050000000000', '布', '纺织产品', '0.13', '米'),
  g('1050201010000000000', '木质家具', '家具', '0.13', '件'),
  g('1060301010000000000', '基础软件产品', '软件', '0.13', '套'),
  g('1060401010000000000', '文具盒（袋）', '文具', '0.13', '个'),
  g('1060402010100000000', '自来水笔', '文具', '0.13', '支'),
  g('1070101010200000000', '车用汽油', '汽油', '0.13', '升'),
  g('1070101030000000000', '柴油', '柴油', '0.13', '升'),
  g('1070101070000000000', '润滑油', '润滑油', '0.13', '桶'),
  g('1070601010200000000', '其他塑料薄膜', '塑料制品', '0.13', '千克'),
  g('1080101020000000000', '水泥', '水泥', '0.13', '吨'),
  g('1080105010100000000', '烧结普通砖', '砖瓦', '0.13', '块'),
  g('1080401010000000000', '钢结构及其产品', '钢结构', '0.13', '吨'),
  g('1090305010100000000', '乘用车（排气量在1.0升以下（含））', '汽车', '0.13', '辆'),
  g('1090511010000000000', '终端显示设备', '计算机外部设备', '0.13', '台'),
  g('1100101020100000000', '电力产品', '供电', '0.13', '千瓦时'),
  // 交通运输、邮政、基础电信 9 %
  s('3010101020203000000', '出租汽车客运服务', '运输服务', '0.09'),
  s('3010102020100000000', '国内道路货物运输服务', '运输服务', '0.09'),
  s('3010301010100000000', '国内航空旅客运输服务', '运输服务', '0.09'),
  s('3020101020000000000', '包裹寄递服务', '邮政服务', '0.09'),
  s('3030101000000000000', '语音通话服务', '基础电信服务', '0.09'),
  // 现代服务 6 % (有形动产租赁 13 %, 不动产租赁 9 %)
  s('3040101000000000000', '研发服务', '研发和技术服务', '0.06'),
  s('3040201010000000000', '软件开发服务', '信息技术服务', '0.06'),
  s('3040201020000000000', '软件咨询服务', '信息技术服务', '0.06'),
  s('3040201030000000000', '软件维护服务', '信息技术服务', '0.06'),
  s('3040203000000000000', '信息系统服务', '信息技术服务', '0.06'),
  s('3040301010000000000', '工程设计服务', '设计服务', '0.06'),
  s('3040303000000000000', '广告服务', '广告服务', '0.06'),
  s('3040304000000000000', '会议展览服务', '会展服务', '0.06'),
  s('3040502010000000000', '有形动产经营租赁服务', '经营租赁', '0.13'),
  { ...s('3040502020000000000', '不动产经营租赁服务', '经营租赁', '0.09'), smallRate: '0.05' },
  s('3040603000000000000', '咨询服务', '咨询服务', '0.06'),
  s('3040801010000000000', '物业管理服务', '物业管理服务', '0.06'),
  s('3040802010100000000', '国内货物运输代理服务', '经纪代理服务', '0.06'),
  s('3040803000000000000', '人力资源服务', '人力资源服务', '0.06'),
  s('3049900000000000000', '其他现代服务', '现代服务', '0.06'),
  // 建筑服务 9 %
  s('3050100000000000000', '工程服务', '建筑服务', '0.09'),
  s('3050200000000000000', '安装服务', '建筑服务', '0.09'),
  s('3050400000000000000', '装饰服务', '建筑服务', '0.09'),
  // 生活服务 6 %
  s('3070101000000000000', '文化服务', '文化服务', '0.06'),
  s('3070201010000000000', '学历教育服务', '教育服务', '0.06', true),
  s('3070401000000000000', '餐饮服务', '餐饮服务', '0.06'),
  s('3070402000000000000', '住宿服务', '住宿服务', '0.06'),
  s('3079900000000000000', '其他生活服务', '生活服务', '0.06'),
];

const BY_CODE = new Map(INVOICE_CODES.map((c) => [c.code, c]));

/** The table's entry of a code; undefined when it is not one. */
export const invoiceCodeOf = (code: string): InvoiceCode | undefined => BY_CODE.get(code);

/**
 * The rates a taxpayer may issue an item at: a general taxpayer its rate (and 免税 where the item allows);
 * a small-scale taxpayer 3 % or 1 % (the reduced rate to 2027) — 5 % for 不动产租赁 — or 免税 (the
 * monthly 10 万 exemption or the item's own). 专票 are never 免税 (checked by the bureau on the invoice).
 */
export function allowedRates(code: string, kind: TaxpayerKind): InvoiceRate[] {
  const c = BY_CODE.get(code);
  if (!c) return [];
  if (kind === '0') return c.exempt ? [c.rate, 'mz'] : [c.rate];
  return c.smallRate ? [c.smallRate, 'mz'] : ['0.03', '0.01', 'mz'];
}

/** The printed 项目名称: "*简称*item" (the table's name when no item is given). */
export const printedName = (c: InvoiceCode, item?: string) => `*${c.short}*${item?.trim() || c.name}`;

/**
 * Lookup by code (a prefix of at least 3 digits) or by a keyword in the name or 简称; at most `limit`
 * entries, exact code first, then name matches, then 简称 matches.
 */
export function findInvoiceCodes(query: string, limit = 20): InvoiceCode[] {
  const q = query.trim().replace(/\*/g, '');
  if (!q) return INVOICE_CODES.slice(0, limit);
  if (/^\d+$/.test(q)) {
    if (q.length < 3) return [];
    return INVOICE_CODES.filter((c) => c.code.startsWith(q)).slice(0, limit);
  }
  const byName = INVOICE_CODES.filter((c) => c.name.includes(q));
  const byShort = INVOICE_CODES.filter((c) => !c.name.includes(q) && c.short.includes(q));
  return [...byName, ...byShort].slice(0, limit);
}

/** A rate in per-mille (免税 and 0 %: none). */
export const RATE_PERMILLE: Readonly<Record<InvoiceRate, number>> = {
  '0.13': 130,
  '0.09': 90,
  '0.06': 60,
  '0.05': 50,
  '0.03': 30,
  '0.01': 10,
  '0': 0,
  mz: 0,
};

/**
 * A line's tax in fen from its amount before tax (fen): round(je × rate), half away from zero — the figure
 * the bureau checks fp/kp against (INVOICE_TAX_TOLERANCE per line, INVOICE_TOTAL_TAX_TOLERANCE per invoice).
 */
export function invoiceLineTax(je: number, rate: InvoiceRate): number {
  const x = (Math.abs(je) * RATE_PERMILLE[rate] + 500) / 1000;
  return Math.sign(je) * Math.floor(x);
}
/** Tax may differ from invoiceLineTax by 1 fen a line and 127 fen over an invoice. */
export const INVOICE_TAX_TOLERANCE = 1;
export const INVOICE_TOTAL_TAX_TOLERANCE = 127;

/**
 * A price including tax split into amount and tax (fen): je = round(total / (1 + rate)), se = total − je,
 * for the product's 含税 entry.
 */
export function splitTaxIncluded(total: number, rate: InvoiceRate): { je: number; se: number } {
  const je = Math.round((total * 1000) / (1000 + RATE_PERMILLE[rate]));
  return { je, se: total - je };
}
