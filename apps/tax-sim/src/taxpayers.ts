import { idCardCheckChar, usccCheckChar } from '@dzy/shared';

/**
 * The simulated bureau's taxpayers. Any tax number is a taxpayer; what it looks like (name, officers,
 * registrations, returns, payments, arrears) comes from a PRNG seeded with the tax number, so the same
 * number always gives the same data. How it behaves at login (the scenario) is 'clean' unless a test
 * or the demo table below says otherwise (docs/tax-bureau-protocol.md, "Scenarios").
 */

/** How a taxpayer's e-tax login goes. */
export type LoginBehaviour =
  | 'ok'
  | 'mismatch'
  | 'sms'
  | 'busy'
  | 'noAssociation'
  | 'unconfirmed'
  | 'codeMismatch'
  | 'notRegistered'
  | 'accountError';
/** How its personal-tax (natural person) login goes. */
export type PersonalBehaviour = 'ok' | 'wrong' | 'notSet' | 'locked' | 'temporary' | 'deregistered';
/** What its tax data shows. */
export type Flavour = 'clean' | 'unfiled' | 'arrears';

export interface Behaviour {
  login: LoginBehaviour;
  personal: PersonalBehaviour;
  flavour: Flavour;
}

/** Named scenarios (docs/tax-bureau-protocol.md). */
export const SCENARIOS = {
  clean: { login: 'ok', personal: 'ok', flavour: 'clean' },
  unfiled: { login: 'ok', personal: 'ok', flavour: 'unfiled' },
  arrears: { login: 'ok', personal: 'ok', flavour: 'arrears' },
  mismatch: { login: 'mismatch', personal: 'ok', flavour: 'clean' },
  sms: { login: 'sms', personal: 'ok', flavour: 'clean' },
  busy: { login: 'busy', personal: 'ok', flavour: 'clean' },
  noAssociation: { login: 'noAssociation', personal: 'ok', flavour: 'clean' },
  unconfirmed: { login: 'unconfirmed', personal: 'ok', flavour: 'clean' },
  codeMismatch: { login: 'codeMismatch', personal: 'ok', flavour: 'clean' },
  notRegistered: { login: 'notRegistered', personal: 'ok', flavour: 'clean' },
  accountError: { login: 'accountError', personal: 'ok', flavour: 'clean' },
  personalWrong: { login: 'ok', personal: 'wrong', flavour: 'clean' },
  personalNotSet: { login: 'ok', personal: 'notSet', flavour: 'clean' },
  personalLocked: { login: 'ok', personal: 'locked', flavour: 'clean' },
  personalTemporary: { login: 'ok', personal: 'temporary', flavour: 'clean' },
  deregistered: { login: 'ok', personal: 'deregistered', flavour: 'clean' },
} as const satisfies Record<string, Behaviour>;
export type Scenario = keyof typeof SCENARIOS;
export const isScenario = (s: unknown): s is Scenario => typeof s === 'string' && Object.hasOwn(SCENARIOS, s);

/**
 * The e-tax password of a 'mismatch' taxpayer: it refuses every other one (the agency holds an old
 * password). Every other taxpayer accepts any non-empty password.
 */
export const SIM_ETAX_PASSWORD = 'Etax@2026';
/** Likewise the personal-tax password of a 'personalWrong' taxpayer. */
export const SIM_PERSONAL_PASSWORD = 'Gs@2026';

const scenarioTaxNo = (n: number) => {
  const first17 = `91330108MA2DY7${String(n).padStart(3, '0')}`;
  return first17 + usccCheckChar(first17);
};

/** Fixed tax numbers with a scenario, for the demo data and for tests (like a card network's test cards). */
export const SCENARIO_TAXPAYERS: readonly { qysh: string; scenario: Scenario }[] = (
  Object.keys(SCENARIOS) as Scenario[]
).map((scenario, i) => ({ qysh: scenarioTaxNo(i + 1), scenario }));

// --- deterministic randomness ---------------------------------------------------------------------

export type Rand = () => number;

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A PRNG seeded by a string: the same key gives the same sequence. */
export function rng(key: string): Rand {
  let a = hash(key);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

/** Fen to the bureau's money text: two decimals, no separators ("1234.50"). Integer arithmetic only. */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const SURNAMES = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘'];
const GIVEN = [...'伟芳娜秀敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏辉建国晓梅志宏海燕'];
const personName = (r: Rand) => pick(r, SURNAMES) + pick(r, GIVEN) + (r() < 0.6 ? pick(r, GIVEN) : '');
const mobile = (r: Rand) =>
  `1${pick(r, ['35', '38', '39', '58', '86', '88', '37', '52'])}${String(int(r, 0, 99_999_999)).padStart(8, '0')}`;

const PROVINCES: Readonly<Record<string, string>> = {
  '11': '北京市',
  '12': '天津市',
  '13': '河北省',
  '14': '山西省',
  '15': '内蒙古自治区',
  '21': '辽宁省',
  '22': '吉林省',
  '23': '黑龙江省',
  '31': '上海市',
  '32': '江苏省',
  '33': '浙江省',
  '34': '安徽省',
  '35': '福建省',
  '36': '江西省',
  '37': '山东省',
  '41': '河南省',
  '42': '湖北省',
  '43': '湖南省',
  '44': '广东省',
  '45': '广西壮族自治区',
  '46': '海南省',
  '50': '重庆市',
  '51': '四川省',
  '52': '贵州省',
  '53': '云南省',
  '54': '西藏自治区',
  '61': '陕西省',
  '62': '甘肃省',
  '63': '青海省',
  '64': '宁夏回族自治区',
  '65': '新疆维吾尔自治区',
};

/** The region code inside a credit code (characters 3-8), or a default for other formats. */
const areaOf = (qysh: string) => (/^\d{6}$/.test(qysh.slice(2, 8)) ? qysh.slice(2, 8) : '330106');
export const provinceOf = (qysh: string) => PROVINCES[areaOf(qysh).slice(0, 2)] ?? '浙江省';

// --- the taxpayer -----------------------------------------------------------------------------------

export interface TaxpayerInfo {
  qysh: string;
  qymc: string;
  djxh: string;
  swjgdm: string;
  swjgmc: string;
  nsrzt: string;
  qyxz: '0' | '1';
  fddbrxm: string;
  zcdz: string;
  djrq: string;
}

export interface Taxpayer {
  qysh: string;
  behaviour: Behaviour;
  info: TaxpayerInfo;
  /** The phone the bureau sends login codes to. */
  phone: string;
}

const TRADES = [...'华鑫恒瑞德鼎泰丰盛源达宏远嘉诚信和润启明'];
const INDUSTRIES = ['商贸', '科技', '建材', '餐饮管理', '电子', '文化传媒', '物流', '咨询服务', '机械设备', '食品'];

/** The taxpayer for a tax number; name from the login's qymc when one was ever given. */
export function makeTaxpayer(qysh: string, behaviour: Behaviour, qymc?: string): Taxpayer {
  const r = rng(`taxpayer:${qysh}`);
  const area = areaOf(qysh);
  const province = provinceOf(qysh);
  const name = qymc || `${province.slice(0, 2)}${pick(r, TRADES)}${pick(r, TRADES)}${pick(r, INDUSTRIES)}有限公司`;
  const year = int(r, 2012, 2023);
  const djrq = `${year}-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')}`;
  return {
    qysh,
    behaviour,
    phone: mobile(r),
    info: {
      qysh,
      qymc: name,
      djxh: `1${area.slice(0, 2)}${String(int(r, 0, 99_999_999)).padStart(8, '0')}${String(int(r, 0, 999_999_999)).padStart(9, '0')}`,
      swjgdm: `1${area}0000`,
      swjgmc: `国家税务总局${province}税务局第${pick(r, ['一', '二', '三'])}税务分局`,
      nsrzt: behaviour.personal === 'deregistered' ? '注销' : '正常',
      // Credit codes of sole traders start 92; about a third of companies are general taxpayers.
      qyxz: qysh.startsWith('92') || r() >= 0.32 ? '1' : '0',
      fddbrxm: personName(r),
      zcdz: `${province}${pick(r, ['人民路', '解放路', '中山路', '建设路', '文三路'])}${int(r, 1, 999)}号`,
      djrq,
    },
  };
}

/** A taxpayer with no scenario set: mostly clean, some with unfiled returns, some with arrears. */
export function defaultFlavour(qysh: string): Flavour {
  const x = rng(`flavour:${qysh}`)();
  return x < 0.15 ? 'unfiled' : x < 0.25 ? 'arrears' : 'clean';
}

export function responsiblePersons(t: Taxpayer) {
  const r = rng(`persons:${t.qysh}`);
  const area = areaOf(t.qysh);
  const idNo = () => {
    const first17 = `${area}${int(r, 1965, 2000)}${String(int(r, 1, 12)).padStart(2, '0')}${String(int(r, 1, 28)).padStart(2, '0')}${String(int(r, 100, 999))}`;
    return first17 + idCardCheckChar(first17);
  };
  const finance = personName(r);
  return [
    { sfbm: '2', sfmc: '法定代表人', xm: t.info.fddbrxm, zjhm: idNo(), lxdh: mobile(r) },
    { sfbm: '3', sfmc: '财务负责人', xm: finance, zjhm: idNo(), lxdh: mobile(r) },
    { sfbm: '1', sfmc: '办税员', xm: r() < 0.5 ? finance : personName(r), zjhm: idNo(), lxdh: t.phone },
    { sfbm: '6', sfmc: '购票员', xm: personName(r), zjhm: idNo(), lxdh: mobile(r) },
  ];
}

// --- registrations and returns --------------------------------------------------------------------

interface Registration {
  zsxmDm: string;
  zsxmMc: string;
  nsqx: '06' | '08';
  nsqxMc: string;
}

const MONTHLY = { nsqx: '06', nsqxMc: '月' } as const;
const QUARTERLY = { nsqx: '08', nsqxMc: '季' } as const;

export function registrations(t: Taxpayer): Registration[] {
  // General taxpayers file VAT monthly, small-scale ones quarterly; surcharges follow VAT.
  const vat = t.info.qyxz === '0' ? MONTHLY : QUARTERLY;
  return [
    { zsxmDm: '10101', zsxmMc: '增值税', ...vat },
    { zsxmDm: '10104', zsxmMc: '企业所得税', ...QUARTERLY },
    { zsxmDm: '10106', zsxmMc: '个人所得税', ...MONTHLY },
    { zsxmDm: '10109', zsxmMc: '城市维护建设税', ...vat },
    { zsxmDm: '30203', zsxmMc: '教育费附加', ...vat },
    { zsxmDm: '30216', zsxmMc: '地方教育附加', ...vat },
    { zsxmDm: '10111', zsxmMc: '印花税', ...QUARTERLY },
  ];
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const isoDate = (y: number, m: number, d: number) => `${y}-${pad2(m)}-${pad2(d)}`;
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Today in China (UTC+8), as YYYY-MM-DD. */
export const today = (now = Date.now()) => new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);

interface Period {
  skssqq: string;
  skssqz: string;
  /** The filing deadline: the 15th of the month after the period. */
  sbqx: string;
}

/** Periods of a registration whose deadline is on or before the end of the current month, newest first, back to 2019. */
function periods(nsqx: '06' | '08', todayIso: string): Period[] {
  const y = Number(todayIso.slice(0, 4));
  const m = Number(todayIso.slice(5, 7));
  const out: Period[] = [];
  // The period whose deadline is this month ends last month.
  let endY = m === 1 ? y - 1 : y;
  let endM = m === 1 ? 12 : m - 1;
  if (nsqx === '08') {
    while (endM % 3 !== 0) {
      endM -= 1;
      if (endM === 0) {
        endM = 12;
        endY -= 1;
      }
    }
  }
  const span = nsqx === '08' ? 3 : 1;
  while (endY >= 2019) {
    const startM = endM - span + 1;
    const dueY = endM === 12 ? endY + 1 : endY;
    const dueM = endM === 12 ? 1 : endM + 1;
    out.push({
      skssqq: isoDate(endY, startM, 1),
      skssqz: isoDate(endY, endM, lastDay(endY, endM)),
      sbqx: isoDate(dueY, dueM, 15),
    });
    endM -= span;
    if (endM <= 0) {
      endM += 12;
      endY -= 1;
    }
  }
  return out;
}

export interface TaxReturn {
  zsxmDm: string;
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  sbrq?: string;
  ybtse: string;
  sbqx?: string;
}

/** Tax payable for one return, in fen: deterministic per taxpayer, tax and period. */
function payableFen(t: Taxpayer, reg: Registration, p: Period): number {
  const r = rng(`ybtse:${t.qysh}:${reg.zsxmDm}:${p.skssqq}`);
  const general = t.info.qyxz === '0';
  switch (reg.zsxmDm) {
    case '10101':
      return general ? int(r, 300_000, 8_000_000) : r() < 0.7 ? 0 : int(r, 50_000, 900_000);
    case '10104':
      return r() < 0.4 ? 0 : int(r, 20_000, 3_000_000);
    case '10106':
      return r() < 0.3 ? 0 : int(r, 1_000, 300_000);
    case '10111':
      return int(r, 500, 60_000);
    default:
      return general ? int(r, 10_000, 400_000) : 0;
  }
}

interface ReturnState {
  filed: TaxReturn[];
  unfiled: TaxReturn[];
}

/** Every return of the taxpayer until today: filed (with a date) or not. */
export function returns(t: Taxpayer, todayIso: string): ReturnState {
  const filed: TaxReturn[] = [];
  const unfiled: TaxReturn[] = [];
  const day = Number(todayIso.slice(8, 10));
  const filingDay = int(rng(`filingDay:${t.qysh}`), 3, 14);
  for (const reg of registrations(t)) {
    const list = periods(reg.nsqx, todayIso);
    for (const [i, p] of list.entries()) {
      if (p.skssqz < t.info.djrq) break;
      const base = { zsxmDm: reg.zsxmDm, zsxmMc: reg.zsxmMc, skssqq: p.skssqq, skssqz: p.skssqz };
      const ybtse = yuan(payableFen(t, reg, p));
      const dueThisMonth = p.sbqx.slice(0, 7) === todayIso.slice(0, 7);
      const vatLike = reg.nsqx === registrations(t)[0]?.nsqx && reg.zsxmDm !== '10104' && reg.zsxmDm !== '10106';
      // 'unfiled': the VAT-family returns of this month and of the period before were never filed.
      const missed = t.behaviour.flavour === 'unfiled' && vatLike && reg.zsxmDm !== '10111' && i <= 1;
      // Everyone else files on time (this month's returns by today at the latest).
      if (missed) {
        unfiled.push({ ...base, ybtse, sbqx: p.sbqx });
        continue;
      }
      const sbrqDay = dueThisMonth
        ? Math.min(filingDay, day)
        : int(rng(`sbrq:${t.qysh}:${reg.zsxmDm}:${p.skssqq}`), 1, 14);
      filed.push({ ...base, ybtse, sbrq: `${p.sbqx.slice(0, 8)}${pad2(sbrqDay)}` });
    }
  }
  return { filed, unfiled };
}

export interface Payment {
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  jkrq: string;
  sjje: string;
  dzsphm: string;
}

/** Every filed return with tax to pay was paid on the day it was filed (except the arrears). */
export function payments(t: Taxpayer, todayIso: string): Payment[] {
  const owed = new Set(arrears(t, todayIso).map((a) => `${a.zsxmMc}:${a.skssqq}`));
  return returns(t, todayIso)
    .filed.filter((f) => f.ybtse !== '0.00' && !owed.has(`${f.zsxmMc}:${f.skssqq}`))
    .map((f) => {
      const r = rng(`dzsp:${t.qysh}:${f.zsxmDm}:${f.skssqq}`);
      return {
        zsxmMc: f.zsxmMc,
        skssqq: f.skssqq,
        skssqz: f.skssqz,
        jkrq: f.sbrq ?? '',
        sjje: f.ybtse,
        dzsphm: `3${areaOf(t.qysh)}${String(int(r, 0, 999_999_999)).padStart(9, '0')}${String(int(r, 0, 9999)).padStart(4, '0')}`,
      };
    });
}

export interface Arrear {
  id: string;
  zsxmMc: string;
  skssqq: string;
  skssqz: string;
  qsje: string;
  znj: string;
  overdue: boolean;
}

const daysBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000));

/** 'arrears': the VAT of two periods back was filed but never paid; late fees 0.05% a day (integer fen). */
export function arrears(t: Taxpayer, todayIso: string): Arrear[] {
  if (t.behaviour.flavour !== 'arrears') return [];
  const r = rng(`arrears:${t.qysh}`);
  const vat = registrations(t)[0];
  if (!vat) return [];
  const list = periods(vat.nsqx, todayIso).slice(1, r() < 0.5 ? 2 : 3);
  return list.map((p, i) => {
    const qsjeFen = int(r, 80_000, 900_000);
    const days = daysBetween(p.sbqx, todayIso);
    return {
      id: `${t.qysh}-${i + 1}`,
      zsxmMc: vat.zsxmMc,
      skssqq: p.skssqq,
      skssqz: p.skssqz,
      qsje: yuan(qsjeFen),
      znj: yuan(Math.floor((qsjeFen * 5 * days) / 10_000)),
      overdue: days > 0,
    };
  });
}

export interface SocialInsuranceMonth {
  ssq: string;
  xzmc: string;
  jfjs: string;
  dwjfje: string;
  grjfje: string;
}

/** Insurance kinds with the unit and personal rates in per-mille. */
const INSURANCE = [
  { xzmc: '企业职工基本养老保险', dw: 160, gr: 80 },
  { xzmc: '失业保险', dw: 5, gr: 5 },
  { xzmc: '工伤保险', dw: 4, gr: 0 },
  { xzmc: '职工基本医疗保险', dw: 95, gr: 20 },
] as const;

/** null: the taxpayer has no unit social-insurance account (the bureau says 单位社保登录失败). */
export function socialInsurance(
  t: Taxpayer,
  from: string,
  to: string,
  todayIso: string,
): SocialInsuranceMonth[] | null {
  const r = rng(`sb:${t.qysh}`);
  if (r() < 0.2) return null;
  const staff = int(r, 2, 15);
  const baseFen = 446_200 * staff;
  const out: SocialInsuranceMonth[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const last = (to < todayIso ? to : todayIso).slice(0, 7);
  while (`${y}-${pad2(m)}` <= last && out.length < 600) {
    for (const k of INSURANCE) {
      out.push({
        ssq: `${y}-${pad2(m)}`,
        xzmc: k.xzmc,
        jfjs: yuan(baseFen),
        dwjfje: yuan(Math.floor((baseFen * k.dw) / 1000)),
        grjfje: yuan(Math.floor((baseFen * k.gr) / 1000)),
      });
    }
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

export function creditScores(t: Taxpayer, years: readonly string[]) {
  const since = Number(t.info.djrq.slice(0, 4));
  return years
    .filter((y) => /^\d{4}$/.test(y) && Number(y) >= since)
    .map((pjnd) => {
      // The first year of a taxpayer is rated M (new); later years by score.
      const pf = int(rng(`credit:${t.qysh}:${pjnd}`), 66, 100);
      const jb = Number(pjnd) === since ? 'M' : pf >= 90 ? 'A' : pf >= 70 ? 'B' : 'C';
      return { pjnd, pf: String(pf), jb };
    });
}

export interface TodoItem {
  code: string;
  title: string;
  deadline: string;
}

export function todos(t: Taxpayer, todayIso: string): TodoItem[] {
  const out: TodoItem[] = returns(t, todayIso).unfiled.map((u) => ({
    code: '33001',
    title: `${u.zsxmMc}申报（所属期 ${u.skssqq} 至 ${u.skssqz}）`,
    deadline: u.sbqx ?? '',
  }));
  for (const a of arrears(t, todayIso)) {
    out.push({ code: '33002', title: `${a.zsxmMc}欠税 ${a.qsje} 元待缴纳`, deadline: todayIso });
  }
  const y = Number(todayIso.slice(0, 4));
  const m = Number(todayIso.slice(5, 7));
  if (socialInsurance(t, todayIso, todayIso, todayIso)) {
    out.push({ code: '33015', title: '单位社保费申报缴纳', deadline: isoDate(y, m, lastDay(y, m)) });
  }
  return out;
}
