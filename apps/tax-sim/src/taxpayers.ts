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
/**
 * What its tax data shows: 'clean' files and pays everything on time (this month by today); 'typical'
 * files on its own day each month, sometimes leaves the tax unpaid or misses the deadline; 'unfiled' and
 * 'arrears' are typical with, in addition, the last two VAT returns never filed or earlier VAT never paid.
 */
export type Flavour = 'clean' | 'typical' | 'unfiled' | 'arrears';

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

export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A PRNG seeded by a string: the same key gives the same sequence. */
export const rng = (key: string): Rand => seeded(hash(key));

/** A seed for one draw: a seed mixed with a purpose and a number (murmur3 finaliser). */
export function mixSeed(seed: number, purpose: number, n: number): number {
  let h = (seed ^ Math.imul(purpose, 0x9e3779b1) ^ Math.imul(n, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A PRNG seeded by a number (mulberry32); cheaper than a string key in hot loops. */
export function seeded(seed: number): Rand {
  let a = seed >>> 0;
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
export const personName = (r: Rand) => pick(r, SURNAMES) + pick(r, GIVEN) + (r() < 0.6 ? pick(r, GIVEN) : '');
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
export const areaOf = (qysh: string) => (/^\d{6}$/.test(qysh.slice(2, 8)) ? qysh.slice(2, 8) : '330106');
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

/**
 * Registered names that differ from what the agency's book calls the client: the demo data's
 * deliberate difference (issue 19 point 1, 需更新). The bureau keeps its registered name whatever
 * name a login sends.
 */
export const REGISTERED_NAMES: Readonly<Record<string, string>> = {
  '91310120MAQU6EHY9C': '上海和诚食品有限公司',
};

/**
 * The taxpayer for a tax number; name from the registry, else the login's qymc when one was ever given,
 * else a generated one. The generated name is drawn whether it is used or not, so everything after it
 * (kind, officers, dates) is the same whichever way the taxpayer was first met (docs/decisions/bureau-simulator.md).
 */
export function makeTaxpayer(qysh: string, behaviour: Behaviour, qymc?: string): Taxpayer {
  const r = rng(`taxpayer:${qysh}`);
  const area = areaOf(qysh);
  const province = provinceOf(qysh);
  const generated = `${province.slice(0, 2)}${pick(r, TRADES)}${pick(r, TRADES)}${pick(r, INDUSTRIES)}有限公司`;
  const name = REGISTERED_NAMES[qysh] || qymc || generated;
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

/** A taxpayer with no scenario set: mostly typical, some with unfiled returns, some with arrears. */
export function defaultFlavour(qysh: string): Flavour {
  const x = rng(`flavour:${qysh}`)();
  return x < 0.15 ? 'unfiled' : x < 0.25 ? 'arrears' : 'typical';
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

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Today in China (UTC+8), as YYYY-MM-DD: the simulator's date unless it was fixed (`today`, TAX_SIM_TODAY). */
export const today = (now = Date.now()) => new Date(now + 8 * 3_600_000).toISOString().slice(0, 10);

// Registrations, returns, payments and arrears: the filing model in ./filing.ts.

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
