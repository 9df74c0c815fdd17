import {
  BOOK_REPORT_FILES,
  BOOK_REPORT_MSG,
  CODE,
  fenToYuanText,
  hasPerm,
  LEDGER_EXPORT_MAX,
  LEDGER_NAMES,
  type LedgerExportBody,
  ledgerExportBodySchema,
  MSG,
  STATEMENT_COLUMNS,
  STATEMENT_FORMS,
  STATEMENT_NAMES,
  statementExportBodySchema,
} from '@dzy/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { resolveSession, scopeOf } from '../../plugins/session.js';
import { ExcelJS, neutralise } from '../customer/xlsx.js';
import {
  checkRange,
  columnLedger,
  detailLedger,
  findBook,
  generalLedger,
  type ScopedBook,
  statementOf,
  trialBalance,
} from './book-reports.service.js';
import { type PdfColumn, type PdfTable, tablesPdf } from './report-pdf.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const disposition = (name: string) =>
  `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
const y = (fen: number) => (fen === 0 ? '' : fenToYuanText(fen));
const KIND_LABEL = { opening: '期初余额', period: '本期合计', ytd: '本年累计' } as const;

/** A report as a table, shared by the .xlsx and the PDF. */
export interface Table extends PdfTable {
  /** Which columns hold money (written as numbers in the sheet). */
  money: ReadonlySet<number>;
}

const col = (header: string, width: number, align: PdfColumn['align'] = 'left'): PdfColumn => ({
  header,
  width,
  align,
});
const moneyCols = (from: number, n: number) => new Set(Array.from({ length: n }, (_, i) => from + i));

export async function ledgerTable(tx: Tx, book: ScopedBook, body: LedgerExportBody): Promise<Table> {
  const sub = `${book.qymc}　期间：${body.from} 至 ${body.to}　单位：元`;
  const title = LEDGER_NAMES[body.kind];
  if (body.kind === 'balances') {
    const r = await trialBalance(tx, book, { from: body.from, to: body.to, maxLevel: body.maxLevel, showZero: false });
    const rows = r.rows.map((x) => [
      x.code,
      x.name,
      y(x.openingDebit),
      y(x.openingCredit),
      y(x.periodDebit),
      y(x.periodCredit),
      y(x.ytdDebit),
      y(x.ytdCredit),
      y(x.closingDebit),
      y(x.closingCredit),
    ]);
    const t = r.totals;
    rows.push([
      '合计',
      '',
      ...[
        t.openingDebit,
        t.openingCredit,
        t.periodDebit,
        t.periodCredit,
        t.ytdDebit,
        t.ytdCredit,
        t.closingDebit,
        t.closingCredit,
      ].map(y),
    ]);
    return {
      title,
      subtitle: sub,
      landscape: true,
      columns: [
        col('科目编码', 60),
        col('科目名称', 110),
        ...['期初借方', '期初贷方', '本期借方', '本期贷方', '本年累计借方', '本年累计贷方', '期末借方', '期末贷方'].map(
          (h) => col(h, 76, 'right'),
        ),
      ],
      rows,
      strong: new Set([rows.length - 1]),
      money: moneyCols(2, 8),
    };
  }
  if (body.kind === 'general') {
    const accounts = await generalLedger(tx, book, { from: body.from, to: body.to, accountId: body.accountId });
    const rows = accounts.flatMap((a) =>
      a.rows.map((r) => [a.code, a.name, r.period, KIND_LABEL[r.kind], y(r.debit), y(r.credit), r.dir, y(r.balance)]),
    );
    return {
      title,
      subtitle: sub,
      landscape: true,
      columns: [
        col('科目编码', 60),
        col('科目名称', 120),
        col('期间', 60),
        col('摘要', 70),
        col('借方', 100, 'right'),
        col('贷方', 100, 'right'),
        col('方向', 36),
        col('余额', 100, 'right'),
      ],
      rows,
      money: new Set([4, 5, 7]),
    };
  }
  if (body.kind === 'columns') {
    if (!body.accountId) throw new AppError(CODE.BAD_REQUEST, BOOK_REPORT_MSG.accountNotFound);
    const r = await columnLedger(tx, book, { from: body.from, to: body.to, accountId: body.accountId });
    return {
      title: `${title}（${r.account.code} ${r.account.name}）`,
      subtitle: sub,
      landscape: true,
      columns: [
        col('期间', 60),
        col('摘要', 60),
        col('借方', 80, 'right'),
        col('贷方', 80, 'right'),
        col('方向', 30),
        col('余额', 80, 'right'),
        ...r.columns.map((c) => col(c.name, 70, 'right')),
      ],
      rows: r.rows.map((x) => [
        x.period,
        KIND_LABEL[x.kind],
        y(x.debit),
        y(x.credit),
        x.dir,
        y(x.balance),
        ...x.amounts.map(y),
      ]),
      money: new Set([2, 3, 5, ...r.columns.map((_, i) => 6 + i)]),
    };
  }
  // 明细账: every line of the range, in pages of 500.
  const codes = body.codes;
  if (codes.length === 0) throw new AppError(CODE.BAD_REQUEST, BOOK_REPORT_MSG.accountNotFound);
  const rows: string[][] = [];
  let cursor: string | undefined;
  let head: Awaited<ReturnType<typeof detailLedger>> | null = null;
  for (let pageNo = 1; ; pageNo++) {
    const page = await detailLedger(tx, book, { from: body.from, to: body.to, codes, pageNo, pageSize: 500, cursor });
    if (!head) {
      if (page.total > LEDGER_EXPORT_MAX) throw new AppError(CODE.BAD_REQUEST, BOOK_REPORT_MSG.exportTooMany);
      head = page;
      rows.push([body.from, '', '', '期初余额', '', '', page.openingDir, y(page.opening)]);
    }
    for (const r of page.list)
      rows.push([
        r.vdate,
        r.voucherNo,
        `${r.code} ${r.accountName}`,
        r.summary,
        y(r.debit),
        y(r.credit),
        r.dir,
        y(r.balance),
      ]);
    if (!page.cursor.next) break;
    cursor = page.cursor.next;
  }
  if (head) rows.push([body.to, '', '', '本期合计', y(head.debit), y(head.credit), head.closingDir, y(head.closing)]);
  return {
    title,
    subtitle: `${sub}　科目：${codes.join('、')}`,
    landscape: true,
    columns: [
      col('日期', 66),
      col('凭证字号', 50),
      col('科目', 120),
      col('摘要', 150),
      col('借方', 90, 'right'),
      col('贷方', 90, 'right'),
      col('方向', 30),
      col('余额', 90, 'right'),
    ],
    rows,
    money: new Set([4, 5, 7]),
  };
}

export async function statementTable(
  tx: Tx,
  book: ScopedBook,
  period: string,
  kind: 'balance' | 'income' | 'cashflow',
) {
  const s = await statementOf(tx, book, period, kind);
  const [ca, cb] = STATEMENT_COLUMNS[kind];
  const sub = `编制单位：${book.qymc}　${period}　单位：元`;
  const title = `${STATEMENT_NAMES[kind]}（${STATEMENT_FORMS[book.standard][kind]}）`;
  const name = (l: (typeof s.lines)[number]) => `${'　'.repeat(l.indent)}${l.name}`;
  const fig = (l: (typeof s.lines)[number], v: number) => (l.no === 0 ? '' : fenToYuanText(v));
  if (kind === 'balance') {
    const left = s.lines.filter((l) => l.side === 'left');
    const right = s.lines.filter((l) => l.side === 'right');
    const n = Math.max(left.length, right.length);
    const rows: string[][] = [];
    for (let i = 0; i < n; i++) {
      const l = left[i];
      const r = right[i];
      rows.push([
        l ? name(l) : '',
        l?.no ? String(l.no) : '',
        l ? fig(l, l.a) : '',
        l ? fig(l, l.b) : '',
        r ? name(r) : '',
        r?.no ? String(r.no) : '',
        r ? fig(r, r.a) : '',
        r ? fig(r, r.b) : '',
      ]);
    }
    return {
      title,
      subtitle: sub,
      landscape: true,
      columns: [
        col('资产', 150),
        col('行次', 30),
        col(ca, 80, 'right'),
        col(cb, 80, 'right'),
        col('负债和所有者权益', 170),
        col('行次', 30),
        col(ca, 80, 'right'),
        col(cb, 80, 'right'),
      ],
      rows,
      money: new Set([2, 3, 6, 7]),
    } satisfies Table;
  }
  return {
    title,
    subtitle: sub,
    landscape: false,
    columns: [col('项目', 290), col('行次', 30, 'right'), col(ca, 90, 'right'), col(cb, 90, 'right')],
    rows: s.lines.map((l) => [name(l), l.no ? String(l.no) : '', fig(l, l.a), fig(l, l.b)]),
    money: new Set([2, 3]),
  } satisfies Table;
}

async function sendXlsx(reply: FastifyReply, t: Table, file: string) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(t.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ''));
  ws.addRow([t.title]).font = { bold: true, size: 14 };
  ws.addRow([t.subtitle]);
  const header = ws.addRow(t.columns.map((c) => c.header));
  header.font = { bold: true };
  ws.columns.forEach((c, i) => {
    c.width = Math.max(8, Math.round((t.columns[i]?.width ?? 60) / 6));
  });
  t.rows.forEach((cells, i) => {
    const row = ws.addRow(
      cells.map((v, k) => (t.money.has(k) && v !== '' ? Number(v.replaceAll(',', '')) : neutralise(v))),
    );
    for (const k of t.money) row.getCell(k + 1).numFmt = '#,##0.00';
    if (t.strong?.has(i)) row.font = { bold: true };
  });
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', disposition(`${file}.xlsx`))
    .header('cache-control', 'private, no-store')
    .send(buf);
}

async function sendPdf(reply: FastifyReply, t: Table, file: string) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', disposition(`${file}.pdf`))
    .header('cache-control', 'private, no-store')
    .send(await tablesPdf([t]));
}

/** 导出 of a ledger or a statement as .xlsx or PDF (the page's current choice). */
export function bookReportFileRoutes(app: FastifyInstance, deps: Deps) {
  const start = async (req: FastifyRequest, perm: 'account:ledger:view' | 'account:statement:view') => {
    const session = await resolveSession(deps.db.app, req);
    if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
    if (!hasPerm(session.perms, perm)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, BOOK_REPORT_MSG.bookNotFound);
    const agencyId = session.agencyId;
    return {
      session,
      scoped: <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, { ...scopeOf(session), agencyId }, fn),
    };
  };

  app.post(`/api/${BOOK_REPORT_FILES.ledger}`, async (req, reply) => {
    const { session, scoped } = await start(req, 'account:ledger:view');
    const parsed = ledgerExportBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const body = parsed.data;
    const { table, book } = await scoped(async (tx) => {
      const book = await findBook(tx, session, body.bookId);
      checkRange(book, body.from, body.to);
      const table = await ledgerTable(tx, book, body);
      await audit(tx, req, session, 'book.report.export', `book:${book.id}`, { kind: body.kind, format: body.format });
      return { table, book };
    });
    const file = `${book.qymc}_${LEDGER_NAMES[body.kind]}_${body.from}_${body.to}`;
    return body.format === 'xlsx' ? sendXlsx(reply, table, file) : sendPdf(reply, table, file);
  });

  app.post(`/api/${BOOK_REPORT_FILES.statement}`, async (req, reply) => {
    const { session, scoped } = await start(req, 'account:statement:view');
    const parsed = statementExportBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const body = parsed.data;
    const { table, book } = await scoped(async (tx) => {
      const book = await findBook(tx, session, body.bookId);
      const table = await statementTable(tx, book, body.period, body.kind);
      await audit(tx, req, session, 'book.statement.export', `book:${book.id}`, {
        kind: body.kind,
        format: body.format,
      });
      return { table, book };
    });
    const file = `${book.qymc}_${STATEMENT_NAMES[body.kind]}_${body.period}`;
    return body.format === 'xlsx' ? sendXlsx(reply, table, file) : sendPdf(reply, table, file);
  });
}
