import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { MAX_LINE_FEN } from './voucher-rules.js';

/**
 * 账套与凭证 (issue 16, B-core): a book per client (setUp, selectBookIdByQyshAndAgencyId, getYjzBookInfo),
 * its chart of accounts with sub-accounts and auxiliary items, opening balances with the trial balance,
 * and vouchers (list, entry, review, delete, copy, templates, .xlsx import). Money is integer fen on the
 * wire; periods are months YYYY-MM.
 */

// --- constants ---------------------------------------------------------------------------------

export const ACCOUNTING_STANDARDS = ['small2013', 'general'] as const;
export type AccountingStandardKey = (typeof ACCOUNTING_STANDARDS)[number];
export const STANDARD_NAMES: Readonly<Record<AccountingStandardKey, string>> = {
  small2013: '小企业会计准则（2013）',
  general: '企业会计准则',
};
export const BOOK_VAT_KINDS = ['small', 'general'] as const;
export const BOOK_VAT_NAMES: Readonly<Record<(typeof BOOK_VAT_KINDS)[number], string>> = {
  small: '小规模纳税人',
  general: '一般纳税人',
};
export const ACCOUNT_CATEGORIES = ['asset', 'liability', 'common', 'equity', 'cost', 'profit'] as const;
export type AccountCategoryKey = (typeof ACCOUNT_CATEGORIES)[number];
export const CATEGORY_NAMES: Readonly<Record<AccountCategoryKey, string>> = {
  asset: '资产',
  liability: '负债',
  common: '共同',
  equity: '所有者权益',
  cost: '成本',
  profit: '损益',
};
export const AUX_KINDS = ['customer', 'supplier', 'dept', 'project'] as const;
export type AuxKindKey = (typeof AUX_KINDS)[number];
export const AUX_KIND_NAMES: Readonly<Record<AuxKindKey, string>> = {
  customer: '客户',
  supplier: '供应商',
  dept: '部门',
  project: '项目',
};
export const DIRECTION_NAMES = { debit: '借', credit: '贷' } as const;

/** At most this many accounts in one book (the chart is sent whole: the picker searches it in the browser). */
export const BOOK_ACCOUNTS_MAX = 3000;
/** A voucher import takes at most this many lines (one request; see docs/decisions-16-core.md). */
export const VOUCHER_IMPORT_MAX_ROWS = 2000;
export const VOUCHER_IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** The voucher import's sheet columns (one row per line; rows with the same 凭证号 and 日期 form a voucher). */
export const VOUCHER_IMPORT_COLUMNS = [
  '*日期',
  '*凭证号',
  '附单据数',
  '*摘要',
  '*科目编码',
  '辅助核算编码',
  '借方金额',
  '贷方金额',
] as const;

/** Plain routes (multipart upload and file downloads) of the voucher import. */
export const BOOK_FILES = {
  importUpload: 'books/voucher/import',
  importTemplate: 'books/voucher/importTemplate',
  importFailList: 'books/voucher/importFailList',
} as const;

export const BOOK_MSG = {
  bookNotFound: '账套不存在',
  noBook: '该企业尚未建账',
  hasBook: '该企业已建账，每家企业只能有一个账套',
  notYours: '只能为您负责的企业建账',
  enterpriseNotFound: '企业不存在',
  periodFormat: '请选择会计期间（yyyy-MM）',
  accountNotFound: '科目不存在',
  parentNotFound: '上级科目不存在',
  tooDeep: '科目最多四级',
  tooManyAccounts: `一个账套最多${BOOK_ACCOUNTS_MAX}个科目`,
  codeTaken: '科目编码{code}已存在',
  codeFormat: '明细科目编码须为上级编码加2位数字',
  parentUsed: '上级科目“{name}”已有凭证或期初余额，新增的第一个明细科目将承接这些金额',
  presetLocked: '预置科目的编码、类别和方向不能修改',
  accountUsed: '科目已有凭证，不能修改辅助核算',
  nameRequired: '请输入科目名称',
  auxNotFound: '辅助核算项目不存在',
  auxCodeTaken: '辅助核算编码{code}已存在',
  openingClosed: '启用期间已结账，不能修改期初余额',
  openingNotLeaf: '只能录入末级科目的期初余额',
  openingBalanced: '期初试算平衡',
  voucherNotFound: '凭证不存在',
  templateNotFound: '常用凭证不存在',
  templateUnknownCode: '该账套没有科目{code}，常用凭证无法套用',
  importNoFile: '请选择要导入的文件',
  importTooLarge: '文件不能超过2MB',
  importBadType: '请上传.xlsx或.csv格式的凭证导入文件',
  importHeader: '表头与模板不一致，请下载模板后填写',
  importEmpty: '文件中没有凭证数据',
  importTooMany: `一次最多导入${VOUCHER_IMPORT_MAX_ROWS}行分录`,
  importBusy: '正在读取另一个文件，请稍后再试',
  deleted: '已删除',
  reviewed: '已审核',
  unreviewed: '已反审核',
} as const;

// --- 拼音首字母 ------------------------------------------------------------------------------------

/** The first character of each initial in the pinyin collation (no pinyin library: ICU's zh collation). */
const PY_BOUNDS = '吖八嚓咑婀发旮哈丌咔垃妈拿喔趴七呥仨他屲夕丫帀';
const PY_LETTERS = 'ABCDEFGHJKLMNOPQRSTWXYZ';
/** Characters whose reading in account names differs from the collation's (银行 háng, 长期 cháng). */
const PY_OVERRIDE: Readonly<Record<string, string>> = { 行: 'H', 长: 'C', 重: 'Z', 单: 'D', 调: 'T' };
let collator: Intl.Collator | null = null;

/** The pinyin initials of a name (库存现金 → KCXJ), letters and digits kept, for the account picker. */
export function pinyinInitials(name: string): string {
  collator ??= new Intl.Collator('zh-Hans-CN');
  let out = '';
  for (const ch of name) {
    if (/[a-z0-9]/i.test(ch)) out += ch.toUpperCase();
    else if (PY_OVERRIDE[ch]) out += PY_OVERRIDE[ch];
    else if (/[\u4e00-\u9fff]/.test(ch)) {
      let letter = '';
      for (let i = 0; i < PY_BOUNDS.length; i++) {
        if (collator.compare(ch, PY_BOUNDS[i] as string) >= 0) letter = PY_LETTERS[i] as string;
        else break;
      }
      out += letter;
    }
  }
  return out;
}

/** 人民币大写 of an amount in fen (12345 → 壹佰贰拾叁元肆角伍分; negative → 负…). */
export function fenToChineseUpper(fen: number): string {
  if (!Number.isSafeInteger(fen)) return '';
  if (fen === 0) return '零元整';
  const digits = '零壹贰叁肆伍陆柒捌玖';
  const neg = fen < 0;
  const abs = Math.abs(fen);
  const yuan = Math.floor(abs / 100);
  const jiao = Math.floor(abs / 10) % 10;
  const fenD = abs % 10;
  const units = ['', '拾', '佰', '仟'];
  const groups = ['', '万', '亿', '万亿'];
  let s = '';
  if (yuan > 0) {
    const str = String(yuan);
    let zero = false;
    for (let i = 0; i < str.length; i++) {
      const d = Number(str[i]);
      const pos = str.length - 1 - i;
      if (d === 0) zero = true;
      else {
        if (zero) s += '零';
        zero = false;
        s += (digits[d] as string) + (units[pos % 4] as string);
      }
      if (pos % 4 === 0 && pos > 0) {
        const group = str.slice(Math.max(0, i - 3), i + 1);
        if (Number(group) > 0) s += groups[pos / 4] as string;
      }
    }
    s += '元';
  }
  if (jiao === 0 && fenD === 0) s += '整';
  else {
    if (jiao > 0) s += `${digits[jiao]}角`;
    else if (yuan > 0) s += '零';
    if (fenD > 0) s += `${digits[fenD]}分`;
  }
  return (neg ? '负' : '') + s;
}

/** Parses a typed 元 amount ("1,234.5") to fen; null when it is not an amount with at most 2 decimals. */
export function yuanTextToFen(text: string): number | null {
  const t = text.replace(/[,，\s]/g, '');
  if (t === '') return 0;
  if (!/^-?\d{1,10}(\.\d{0,2})?$/.test(t)) return null;
  const neg = t.startsWith('-');
  const [i, d = ''] = t.replace('-', '').split('.');
  const fen = Number(i) * 100 + Number(d.padEnd(2, '0'));
  return neg ? -fen : fen;
}

// --- schemas -----------------------------------------------------------------------------------

const idSchema = z.number().int().positive();
export const bookPeriodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, BOOK_MSG.periodFormat);
const dateSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '请选择凭证日期');
const fenSchema = z.number().int('金额须为整数分').min(-MAX_LINE_FEN, '金额超出范围').max(MAX_LINE_FEN, '金额超出范围');
const PAGE_SIZES = [10, 20, 50, 100] as const;
const paging = {
  pageNum: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数须为10、20、50或100')
    .default(20),
  ...cursorField,
};
const keyword = z.string().trim().max(50, '关键字不能超过50个字符').default('');
const auxKindsSchema = z.array(z.enum(AUX_KINDS)).max(2, '一个科目最多两个辅助核算').default([]);

export const bookInfoSchema = z.object({
  bookId: z.number(),
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  standard: z.enum(ACCOUNTING_STANDARDS),
  startPeriod: z.string(),
  vatKind: z.enum(BOOK_VAT_KINDS),
  /** The first open period (every earlier one is closed). */
  currentPeriod: z.string(),
  /** The latest closed period, '' when none. */
  lastClosed: z.string(),
  closedPeriods: z.array(z.string()),
  openingBalanced: z.boolean(),
  accountNum: z.number(),
  voucherNum: z.number(),
  /** Vouchers of the current period not yet reviewed. */
  unreviewedNum: z.number(),
  createdAt: z.string(),
});
export type BookInfo = z.infer<typeof bookInfoSchema>;

export const bookAccountSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  /** 库存现金 → KCXJ, for the picker. */
  py: z.string(),
  /** The names from level 1 down, joined by '_' (应交税费_应交增值税_销项税额). */
  fullName: z.string(),
  parentId: z.number().nullable(),
  level: z.number(),
  category: z.enum(ACCOUNT_CATEGORIES),
  direction: z.enum(['debit', 'credit']),
  auxKinds: z.array(z.enum(AUX_KINDS)),
  isLeaf: z.boolean(),
  enabled: z.boolean(),
  preset: z.boolean(),
});
export type BookAccount = z.infer<typeof bookAccountSchema>;

export const bookAuxItemSchema = z.object({
  id: z.number(),
  kind: z.enum(AUX_KINDS),
  code: z.string(),
  name: z.string(),
  taxNo: z.string(),
  enabled: z.boolean(),
});
export type AuxItem = z.infer<typeof bookAuxItemSchema>;

export const openingTrialSchema = z.object({ debit: z.number(), credit: z.number(), balanced: z.boolean() });

export const openingRowSchema = z.object({
  accountId: z.number(),
  auxItemId: z.number(),
  /** On the account's own side; negative when on the other. */
  balance: z.number(),
  ytdDebit: z.number(),
  ytdCredit: z.number(),
});
export type OpeningRow = z.infer<typeof openingRowSchema>;

export const voucherLineSchema = z.object({
  seq: z.number(),
  summary: z.string(),
  accountId: z.number(),
  accountCode: z.string(),
  accountName: z.string(),
  auxItemId: z.number(),
  auxName: z.string(),
  debit: z.number(),
  credit: z.number(),
});
export type VoucherLine = z.infer<typeof voucherLineSchema>;

export const voucherSchema = z.object({
  id: z.number(),
  bookId: z.number(),
  period: z.string(),
  word: z.string(),
  number: z.number(),
  vdate: z.string(),
  attachments: z.number(),
  total: z.number(),
  review: z.enum(['unreviewed', 'reviewed']),
  reviewerName: z.string(),
  source: z.string(),
  creatorName: z.string(),
  createdAt: z.string(),
  lines: z.array(voucherLineSchema),
});
export type Voucher = z.infer<typeof voucherSchema>;

export const voucherLineInputSchema = z.strictObject({
  summary: z.string().trim().max(100, '摘要不能超过100个字'),
  accountId: idSchema,
  auxItemId: z.number().int().min(0).default(0),
  debit: fenSchema.default(0),
  credit: fenSchema.default(0),
});

export const voucherTemplateLineSchema = z.object({
  summary: z.string().trim().max(100, '摘要不能超过100个字'),
  code: z.string().regex(/^\d{4,10}$/, '科目编码须为4至10位数字'),
  debit: fenSchema.default(0),
  credit: fenSchema.default(0),
});
export const voucherTemplateSchema = z.object({
  id: z.number(),
  name: z.string(),
  lines: z.array(voucherTemplateLineSchema),
  createdAt: z.string(),
});
export type VoucherTemplate = z.infer<typeof voucherTemplateSchema>;

const listOf = <T extends z.ZodType>(row: T) =>
  z.object({ list: z.array(row), total: z.number(), cursor: pageCursorsSchema });

/** A client in scope with its book state (账套管理's list). */
export const bookClientSchema = z.object({
  aeiId: z.number(),
  qymc: z.string(),
  qysh: z.string(),
  qyxz: z.string(),
  allocateUserName: z.string(),
  bookId: z.number().nullable(),
  standard: z.string(),
  startPeriod: z.string(),
  currentPeriod: z.string(),
  openingBalanced: z.boolean(),
});
export type BookClient = z.infer<typeof bookClientSchema>;

export const voucherFilterSchema = z.strictObject({
  bookId: idSchema,
  periodFrom: bookPeriodSchema,
  periodTo: bookPeriodSchema,
  review: z.enum(['all', 'unreviewed', 'reviewed']).default('all'),
  /** 摘要 contains. */
  keyword,
  /** Vouchers with a line on this account or its sub-accounts (code prefix). */
  accountCode: z
    .string()
    .trim()
    .regex(/^\d{0,10}$/, '科目编码须为数字')
    .default(''),
  numberFrom: z.number().int().min(1).optional(),
  numberTo: z.number().int().min(1).optional(),
});

// --- calls: books ------------------------------------------------------------------------------

export const setUpCall = defineCall({
  path: 'user/setUp/setUp',
  summary: '新建账套：为企业建账（会计准则、启用期间、纳税人类型），预置科目表',
  access: 'account:book:setup',
  body: z.strictObject({
    aeiId: idSchema,
    standard: z.enum(ACCOUNTING_STANDARDS).default('small2013'),
    startPeriod: bookPeriodSchema,
    vatKind: z.enum(BOOK_VAT_KINDS),
  }),
  data: bookInfoSchema,
});

export const bookIdByQyshCall = defineCall({
  path: 'busi/sb/selectBookIdByQyshAndAgencyId',
  summary: '按税号查企业的账套（未建账为null）',
  access: 'account:book:view',
  body: z.strictObject({ qysh: z.string().trim().min(1, '请输入税号').max(20) }),
  data: z.object({ bookId: z.number().nullable(), aeiId: z.number().nullable() }),
});

export const bookInfoCall = defineCall({
  path: 'user/setUp/getYjzBookInfo',
  summary: '账套信息：会计准则、启用期间、当前期间、已结账期间、科目与凭证数',
  access: 'account:book:view',
  body: z.strictObject({ bookId: idSchema }),
  data: bookInfoSchema,
});

export const bookClientsCall = defineCall({
  path: 'books/clients',
  summary: '账套管理：数据范围内的企业及其建账状态',
  access: 'account:book:view',
  body: z.strictObject({ keyword, state: z.enum(['all', 'booked', 'unbooked']).default('all'), ...paging }),
  data: listOf(bookClientSchema),
});

// --- calls: chart, auxiliary items, openings ---------------------------------------------------

export const accountsCall = defineCall({
  path: 'books/accounts',
  summary: '科目表（整本，按编码排序）',
  access: 'account:book:view',
  body: z.strictObject({ bookId: idSchema }),
  data: z.object({ list: z.array(bookAccountSchema) }),
});

export const addAccountCall = defineCall({
  path: 'books/account/add',
  summary: '新增明细科目（上级科目编码加2位，类别与方向随上级）',
  access: 'account:book:edit',
  body: z.strictObject({
    bookId: idSchema,
    parentId: idSchema,
    /** Empty: the next free code under the parent. */
    code: z
      .string()
      .trim()
      .regex(/^(\d{6,10})?$/, BOOK_MSG.codeFormat)
      .default(''),
    name: z.string().trim().min(1, BOOK_MSG.nameRequired).max(40, '科目名称不能超过40个字'),
    auxKinds: auxKindsSchema,
  }),
  data: bookAccountSchema,
});

export const updateAccountCall = defineCall({
  path: 'books/account/update',
  summary: '修改科目：名称、辅助核算、启用或停用',
  access: 'account:book:edit',
  body: z.strictObject({
    accountId: idSchema,
    name: z.string().trim().min(1, BOOK_MSG.nameRequired).max(40, '科目名称不能超过40个字').optional(),
    auxKinds: z.array(z.enum(AUX_KINDS)).max(2, '一个科目最多两个辅助核算').optional(),
    enabled: z.boolean().optional(),
  }),
  data: bookAccountSchema,
});

export const auxItemsCall = defineCall({
  path: 'books/aux/list',
  summary: '辅助核算项目（客户、供应商、部门、项目）',
  access: 'account:book:view',
  body: z.strictObject({ bookId: idSchema, kind: z.enum(AUX_KINDS).optional(), keyword, ...paging }),
  data: listOf(bookAuxItemSchema),
});

export const saveAuxItemCall = defineCall({
  path: 'books/aux/save',
  summary: '新增或修改辅助核算项目',
  access: 'account:book:edit',
  body: z.strictObject({
    bookId: idSchema,
    id: idSchema.optional(),
    kind: z.enum(AUX_KINDS),
    code: z
      .string()
      .trim()
      .min(1, '请输入编码')
      .max(20, '编码不能超过20个字符')
      .regex(/^[0-9A-Za-z_-]+$/, '编码只能含字母、数字、-和_'),
    name: z.string().trim().min(1, '请输入名称').max(60, '名称不能超过60个字'),
    taxNo: z.string().trim().max(20).default(''),
    enabled: z.boolean().default(true),
  }),
  data: bookAuxItemSchema,
});

export const openingsCall = defineCall({
  path: 'books/openings',
  summary: '期初余额（末级科目，含本年累计）与试算平衡',
  access: 'account:book:view',
  body: z.strictObject({ bookId: idSchema }),
  data: z.object({ rows: z.array(openingRowSchema), trial: openingTrialSchema, editable: z.boolean() }),
});

export const saveOpeningsCall = defineCall({
  path: 'books/openings/save',
  summary: '保存期初余额（给出的行；余额为0且无累计的行删除），返回试算平衡',
  access: 'account:book:edit',
  body: z.strictObject({
    bookId: idSchema,
    rows: z
      .array(
        z.strictObject({
          accountId: idSchema,
          auxItemId: z.number().int().min(0).default(0),
          balance: fenSchema,
          ytdDebit: fenSchema.default(0),
          ytdCredit: fenSchema.default(0),
        }),
      )
      .max(BOOK_ACCOUNTS_MAX),
  }),
  data: z.object({ trial: openingTrialSchema }),
});

// --- calls: vouchers ---------------------------------------------------------------------------

export const vouchersCall = defineCall({
  path: 'books/vouchers',
  summary: '凭证列表（期间、审核状态、摘要、科目、凭证号筛选；按期间和凭证号排序）',
  access: 'account:voucher:view',
  body: voucherFilterSchema.extend({ ...paging }),
  data: listOf(voucherSchema).extend({
    /** Over the filter (all pages). */
    sumTotal: z.number(),
  }),
});

export const voucherCall = defineCall({
  path: 'books/voucher/get',
  summary: '凭证详情',
  access: 'account:voucher:view',
  body: z.strictObject({ voucherId: idSchema }),
  data: voucherSchema,
});

export const nextNumberCall = defineCall({
  path: 'books/voucher/nextNumber',
  summary: '期间的下一个记字凭证号',
  access: 'account:voucher:view',
  body: z.strictObject({ bookId: idSchema, period: bookPeriodSchema }),
  data: z.object({ number: z.number() }),
});

export const saveVoucherCall = defineCall({
  path: 'books/voucher/save',
  summary: '保存凭证（新增取下一个凭证号；修改仅限未审核、未结账期间）',
  access: 'account:voucher:edit',
  body: z.strictObject({
    bookId: idSchema,
    voucherId: idSchema.optional(),
    vdate: dateSchema,
    attachments: z.number().int().min(0, '附单据数须为0至999的整数').max(999, '附单据数须为0至999的整数').default(0),
    lines: z.array(voucherLineInputSchema).max(200, '一张凭证最多200行分录'),
  }),
  data: voucherSchema,
});

const batchResult = z.object({
  done: z.number(),
  failed: z.array(z.object({ voucherId: z.number(), label: z.string(), msg: z.string() })),
});

export const deleteVouchersCall = defineCall({
  path: 'books/voucher/delete',
  summary: '删除凭证（未审核、未结账期间；其后凭证号依次前移，不留断号）',
  access: 'account:voucher:delete',
  body: z.strictObject({ voucherIds: z.array(idSchema).min(1, '请选择凭证').max(500, '一次最多500张凭证') }),
  data: batchResult,
});

export const reviewVouchersCall = defineCall({
  path: 'books/voucher/review',
  summary: '审核或反审核凭证（一张或多张）',
  access: 'account:voucher:review',
  body: z.strictObject({
    voucherIds: z.array(idSchema).min(1, '请选择凭证').max(500, '一次最多500张凭证'),
    reviewed: z.boolean(),
  }),
  data: batchResult,
});

export const copyVoucherCall = defineCall({
  path: 'books/voucher/copy',
  summary: '复制凭证到指定日期（取该期间下一个凭证号）',
  access: 'account:voucher:edit',
  body: z.strictObject({ voucherId: idSchema, vdate: dateSchema }),
  data: voucherSchema,
});

export const templatesCall = defineCall({
  path: 'books/templates',
  summary: '常用凭证（本机构）',
  access: 'account:voucher:view',
  body: z.strictObject({ keyword, ...paging }),
  data: listOf(voucherTemplateSchema),
});

export const saveTemplateCall = defineCall({
  path: 'books/template/save',
  summary: '保存常用凭证（科目按编码，适用同一准则的所有账套）',
  access: 'account:voucher:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    name: z.string().trim().min(1, '请输入名称').max(40, '名称不能超过40个字'),
    lines: z.array(voucherTemplateLineSchema).min(1, '至少一行分录').max(200),
  }),
  data: voucherTemplateSchema,
});

export const deleteTemplateCall = defineCall({
  path: 'books/template/delete',
  summary: '删除常用凭证',
  access: 'account:voucher:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const applyTemplateCall = defineCall({
  path: 'books/template/apply',
  summary: '套用常用凭证：按编码找到本账套的科目，返回凭证分录草稿',
  access: 'account:voucher:view',
  body: z.strictObject({ id: idSchema, bookId: idSchema }),
  data: z.object({
    lines: z.array(z.object({ summary: z.string(), accountId: z.number(), debit: z.number(), credit: z.number() })),
  }),
});

/** The voucher import's reply (the upload route answers with this in the envelope). */
export const voucherImportResultSchema = z.object({
  total: z.number(),
  vouchers: z.number(),
  failNum: z.number(),
  /** The failure file's key for importFailList, '' when none failed. */
  failKey: z.string(),
});
export type VoucherImportResult = z.infer<typeof voucherImportResultSchema>;

/** The voucher import runs as a job (queue below): the upload answers with the job to follow. */
export const VOUCHER_IMPORT_QUEUE = 'voucher-import';
export const voucherImportStartSchema = z.object({ jobId: z.number(), total: z.number() });
export type VoucherImportStart = z.infer<typeof voucherImportStartSchema>;

export const voucherImportProgressCall = defineCall({
  path: 'books/voucher/importProgress',
  summary: '导入凭证：进度与结果',
  access: 'account:voucher:import',
  body: z.strictObject({ jobId: z.number().int().positive().max(2_147_483_647) }),
  data: z.object({
    state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
    /** Sheet rows in the file, and rows worked through so far. */
    total: z.number(),
    done: z.number(),
    result: voucherImportResultSchema.nullable(),
    error: z.string().nullable(),
  }),
});
