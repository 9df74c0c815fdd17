import {
  accountsCall,
  addAccountCall,
  applyTemplateCall,
  auxItemsCall,
  BOOK_ACCOUNTS_MAX,
  BOOK_MSG,
  bookClientsCall,
  bookIdByQyshCall,
  bookInfoCall,
  CODE,
  copyVoucherCall,
  deleteTemplateCall,
  deleteVouchersCall,
  fillMsg,
  nextNumberCall,
  normalizeTaxNumber,
  openingsCall,
  reviewVouchersCall,
  saveAuxItemCall,
  saveOpeningsCall,
  saveTemplateCall,
  saveVoucherCall,
  setUpCall,
  templatesCall,
  updateAccountCall,
  VOUCHER_IMPORT_QUEUE,
  type VoucherImportResult,
  voucherCall,
  voucherImportProgressCall,
  vouchersCall,
} from '@dzy/shared';
import { and, asc, eq, ilike, inArray, isNull, like, type SQL, sql } from 'drizzle-orm';
import { countOf, listPage, pageIds } from '../../db/paging.js';
import {
  bookAccounts,
  bookAuxItems,
  bookOpenings,
  books,
  enterprises,
  jobs,
  users,
  voucherLines,
  vouchers,
  voucherTemplates,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import {
  createVoucher,
  deleteVoucher,
  lockBook,
  openingTrial,
  reviewVoucher,
  updateVoucher,
} from '../voucher-store/voucher-store.js';
import { bookFileRoutes } from './books.files.js';
import { voucherImportJob } from './books.jobs.js';
import {
  agencyOf,
  bookInfo,
  chartOf,
  findBook,
  findVoucherBook,
  reasonOf,
  toAccounts,
  voucherLabel,
  vouchersById,
} from './books.repo.js';
import { createBook } from './books.service.js';

const likeTerm = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// --- books -------------------------------------------------------------------------------------

const setUp = serve(setUpCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const [ent] = await tx
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(
      and(
        eq(enterprises.id, body.aeiId),
        eq(enterprises.agencyId, agencyId),
        isNull(enterprises.deletedAt),
        dataScope(session, enterprises.allocateUser),
      ),
    );
  if (!ent) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.enterpriseNotFound);
  const book = await createBook(
    tx,
    { agencyId, userId: session.userId },
    { enterpriseId: body.aeiId, standard: body.standard, startPeriod: body.startPeriod, vatKind: body.vatKind },
  );
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.book.setup', String(book.id), {
    aeiId: body.aeiId,
    standard: body.standard,
    startPeriod: body.startPeriod,
  });
  return bookInfo(tx, await findBook(tx, session, book.id));
});

const bookIdByQysh = serve(bookIdByQyshCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const [row] = await tx
    .select({ aeiId: enterprises.id, bookId: books.id })
    .from(enterprises)
    .leftJoin(books, eq(books.enterpriseId, enterprises.id))
    .where(
      and(
        eq(enterprises.agencyId, agencyId),
        eq(enterprises.qysh, normalizeTaxNumber(body.qysh)),
        isNull(enterprises.deletedAt),
        dataScope(session, enterprises.allocateUser),
      ),
    );
  return { bookId: row?.bookId ?? null, aeiId: row?.aeiId ?? null };
});

const info = serve(bookInfoCall, async ({ body, session, tx }) =>
  bookInfo(tx, await findBook(tx, session, body.bookId)),
);

const CLIENT_SORT = { name: 'bookClient', keys: [enterprises.id], desc: false };

const clients = serve(bookClientsCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const where = and(
    eq(enterprises.agencyId, agencyId),
    isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
    nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.keyword),
    body.state === 'booked' ? sql`${books.id} is not null` : undefined,
    body.state === 'unbooked' ? sql`${books.id} is null` : undefined,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    {
      from: sql`${enterprises} left join ${books} on ${books.enterpriseId} = ${enterprises.id}`,
      where,
      sort: CLIENT_SORT,
      ask: { pageNo: pageNum, pageSize, cursor },
      filter,
    },
    async (ids) => {
      const rows = await tx
        .select({
          id: enterprises.id,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
          qyxz: enterprises.qyxz,
          userName: sql<string>`coalesce(nullif(${users.hymc}, ''), ${users.phone}, '')`,
          book: books,
        })
        .from(enterprises)
        .leftJoin(books, eq(books.enterpriseId, enterprises.id))
        .leftJoin(users, eq(users.id, enterprises.allocateUser))
        .where(inArray(enterprises.id, ids));
      return rows.map((r) => ({
        id: r.id,
        aeiId: r.id,
        qymc: r.qymc,
        qysh: r.qysh,
        qyxz: r.qyxz,
        allocateUserName: r.userName ?? '',
        bookId: r.book?.id ?? null,
        standard: r.book?.standard ?? '',
        startPeriod: r.book?.startPeriod ?? '',
        currentPeriod: r.book?.currentPeriod ?? '',
        openingBalanced: r.book?.openingBalanced ?? false,
      }));
    },
  );
  return { ...page, list: page.list.map(({ id: _id, ...r }) => r) };
});

// --- chart -------------------------------------------------------------------------------------

const accounts = serve(accountsCall, async ({ body, session, tx }) => {
  await findBook(tx, session, body.bookId);
  return { list: await chartOf(tx, body.bookId) };
});

/** Whether an account has lines or openings (so its aux kinds or leafness may not change freely). */
async function accountUsed(tx: Parameters<typeof chartOf>[0], accountId: number) {
  const res = await tx.execute(sql`
    select exists(select 1 from ${voucherLines} where account_id = ${accountId}) as lines,
           exists(select 1 from ${bookOpenings} where account_id = ${accountId}) as openings`);
  const r = (res as unknown as { rows: { lines: boolean; openings: boolean }[] }).rows[0];
  return { lines: Boolean(r?.lines), openings: Boolean(r?.openings) };
}

const addAccount = serve(addAccountCall, async ({ body, session, tx, req }) => {
  const { book } = await findBook(tx, session, body.bookId);
  await lockBook(tx, book.agencyId, book.id);
  const all = await tx.select().from(bookAccounts).where(eq(bookAccounts.bookId, book.id));
  if (all.length >= BOOK_ACCOUNTS_MAX) throw new AppError(CODE.CONFLICT, BOOK_MSG.tooManyAccounts);
  const parent = all.find((a) => a.id === body.parentId);
  if (!parent) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.parentNotFound);
  if (parent.level >= 4) throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.tooDeep);
  let code = body.code;
  if (code) {
    if (code.length !== parent.code.length + 2 || !code.startsWith(parent.code))
      throw new AppError(CODE.BAD_REQUEST, BOOK_MSG.codeFormat);
  } else {
    const used = new Set(all.filter((a) => a.parentId === parent.id).map((a) => a.code));
    let n = 1;
    while (n < 100 && used.has(`${parent.code}${String(n).padStart(2, '0')}`)) n++;
    if (n >= 100) throw new AppError(CODE.CONFLICT, BOOK_MSG.codeFormat);
    code = `${parent.code}${String(n).padStart(2, '0')}`;
  }
  if (all.some((a) => a.code === code)) throw new AppError(CODE.CONFLICT, fillMsg(BOOK_MSG.codeTaken, { code }));
  const [made] = await tx
    .insert(bookAccounts)
    .values({
      agencyId: book.agencyId,
      bookId: book.id,
      code,
      name: body.name,
      parentId: parent.id,
      level: parent.level + 1,
      category: parent.category,
      direction: parent.direction,
      auxKinds: body.auxKinds,
      isLeaf: true,
      preset: false,
    })
    .returning();
  if (!made) throw new Error('account not saved');
  if (parent.isLeaf) {
    // The parent's lines, balances and openings move to its first sub-account (as 柠檬云 does), so the
    // parent sums its children from now on and nothing is lost.
    await tx.update(bookAccounts).set({ isLeaf: false }).where(eq(bookAccounts.id, parent.id));
    await tx.update(voucherLines).set({ accountId: made.id }).where(eq(voucherLines.accountId, parent.id));
    await tx.execute(sql`update book_balances set account_id = ${made.id} where account_id = ${parent.id}`);
    await tx.execute(sql`update book_openings set account_id = ${made.id} where account_id = ${parent.id}`);
  }
  await audit(tx, req, { agencyId: book.agencyId, userId: session.userId }, 'account.book.addAccount', code, {
    bookId: book.id,
    name: body.name,
  });
  const fresh = await tx.select().from(bookAccounts).where(eq(bookAccounts.bookId, book.id));
  const [out] = toAccounts(
    fresh.filter((a) => a.id === made.id),
    fresh,
  );
  if (!out) throw new Error('account not read');
  return out;
});

const updateAccount = serve(updateAccountCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const [acc] = await tx
    .select()
    .from(bookAccounts)
    .where(and(eq(bookAccounts.id, body.accountId), eq(bookAccounts.agencyId, agencyId)));
  if (!acc) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.accountNotFound);
  await findBook(tx, session, acc.bookId);
  if (body.auxKinds && body.auxKinds.join(',') !== acc.auxKinds.join(',')) {
    const used = await accountUsed(tx, acc.id);
    if (used.lines || used.openings) throw new AppError(CODE.CONFLICT, BOOK_MSG.accountUsed);
  }
  await tx
    .update(bookAccounts)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.auxKinds !== undefined ? { auxKinds: body.auxKinds } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    })
    .where(eq(bookAccounts.id, acc.id));
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.book.updateAccount', acc.code, {
    bookId: acc.bookId,
    ...body,
  });
  const fresh = await tx.select().from(bookAccounts).where(eq(bookAccounts.bookId, acc.bookId));
  const [out] = toAccounts(
    fresh.filter((a) => a.id === acc.id),
    fresh,
  );
  if (!out) throw new Error('account not read');
  return out;
});

// --- auxiliary items ---------------------------------------------------------------------------

const AUX_SORT = { name: 'aux', keys: [bookAuxItems.id], desc: false };

const auxItems = serve(auxItemsCall, async ({ body, session, tx }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const where = and(
    eq(bookAuxItems.agencyId, book.agencyId),
    eq(bookAuxItems.bookId, book.id),
    body.kind ? eq(bookAuxItems.kind, body.kind) : undefined,
    body.keyword
      ? sql`(${ilike(bookAuxItems.name, likeTerm(body.keyword))} or ${ilike(bookAuxItems.code, likeTerm(body.keyword))})`
      : undefined,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: sql`${bookAuxItems}`, where, sort: AUX_SORT, ask: { pageNo: pageNum, pageSize, cursor }, filter },
    (ids) => tx.select().from(bookAuxItems).where(inArray(bookAuxItems.id, ids)),
  ).then((p) =>
    p.list.length >= 0
      ? {
          ...p,
          list: p.list.map((x) => ({
            id: x.id,
            kind: x.kind,
            code: x.code,
            name: x.name,
            taxNo: x.taxNo,
            enabled: x.enabled,
          })),
        }
      : p,
  );
});

const saveAuxItem = serve(saveAuxItemCall, async ({ body, session, tx, req }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const [clash] = await tx
    .select({ id: bookAuxItems.id })
    .from(bookAuxItems)
    .where(and(eq(bookAuxItems.bookId, book.id), eq(bookAuxItems.kind, body.kind), eq(bookAuxItems.code, body.code)));
  if (clash && clash.id !== body.id)
    throw new AppError(CODE.CONFLICT, fillMsg(BOOK_MSG.auxCodeTaken, { code: body.code }));
  const values = { code: body.code, name: body.name, taxNo: body.taxNo, enabled: body.enabled };
  let row: typeof bookAuxItems.$inferSelect | undefined;
  if (body.id) {
    [row] = await tx
      .update(bookAuxItems)
      .set(values)
      .where(and(eq(bookAuxItems.id, body.id), eq(bookAuxItems.bookId, book.id), eq(bookAuxItems.kind, body.kind)))
      .returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.auxNotFound);
  } else {
    [row] = await tx
      .insert(bookAuxItems)
      .values({ agencyId: book.agencyId, bookId: book.id, kind: body.kind, ...values })
      .returning();
  }
  if (!row) throw new Error('aux item not saved');
  await audit(tx, req, { agencyId: book.agencyId, userId: session.userId }, 'account.book.saveAux', String(row.id), {
    bookId: book.id,
    kind: body.kind,
    code: body.code,
  });
  return { id: row.id, kind: row.kind, code: row.code, name: row.name, taxNo: row.taxNo, enabled: row.enabled };
});

// --- openings ----------------------------------------------------------------------------------

const openings = serve(openingsCall, async ({ body, session, tx }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const rows = await tx
    .select()
    .from(bookOpenings)
    .where(eq(bookOpenings.bookId, book.id))
    .orderBy(asc(bookOpenings.accountId), asc(bookOpenings.auxItemId));
  return {
    rows: rows.map((r) => ({
      accountId: r.accountId,
      auxItemId: r.auxItemId,
      balance: r.balance,
      ytdDebit: r.ytdDebit,
      ytdCredit: r.ytdCredit,
    })),
    trial: await openingTrial(tx, book.id),
    editable: book.currentPeriod === book.startPeriod,
  };
});

const saveOpenings = serve(saveOpeningsCall, async ({ body, session, tx, req }) => {
  const found = await findBook(tx, session, body.bookId);
  const book = await lockBook(tx, found.book.agencyId, found.book.id);
  if (book.currentPeriod !== book.startPeriod) throw new AppError(CODE.CONFLICT, BOOK_MSG.openingClosed);
  const accIds = [...new Set(body.rows.map((r) => r.accountId))];
  const accs =
    accIds.length === 0
      ? []
      : await tx
          .select()
          .from(bookAccounts)
          .where(and(eq(bookAccounts.bookId, book.id), inArray(bookAccounts.id, accIds)));
  const byId = new Map(accs.map((a) => [a.id, a]));
  for (const r of body.rows) {
    const a = byId.get(r.accountId);
    if (!a) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.accountNotFound);
    if (!a.isLeaf) throw new AppError(CODE.BAD_REQUEST, `${BOOK_MSG.openingNotLeaf}：${a.code} ${a.name}`);
  }
  for (const r of body.rows) {
    if (r.balance === 0 && r.ytdDebit === 0 && r.ytdCredit === 0) {
      await tx
        .delete(bookOpenings)
        .where(
          and(
            eq(bookOpenings.bookId, book.id),
            eq(bookOpenings.accountId, r.accountId),
            eq(bookOpenings.auxItemId, r.auxItemId),
          ),
        );
      continue;
    }
    await tx
      .insert(bookOpenings)
      .values({ agencyId: book.agencyId, bookId: book.id, ...r })
      .onConflictDoUpdate({
        target: [bookOpenings.bookId, bookOpenings.accountId, bookOpenings.auxItemId],
        set: { balance: r.balance, ytdDebit: r.ytdDebit, ytdCredit: r.ytdCredit },
      });
  }
  const trial = await openingTrial(tx, book.id);
  await tx.update(books).set({ openingBalanced: trial.balanced }).where(eq(books.id, book.id));
  await audit(tx, req, { agencyId: book.agencyId, userId: session.userId }, 'account.book.openings', String(book.id), {
    rows: body.rows.length,
    balanced: trial.balanced,
  });
  return { trial };
});

// --- vouchers ----------------------------------------------------------------------------------

const VOUCHER_SORT = { name: 'voucher', keys: [vouchers.period, vouchers.number, vouchers.id], desc: false };

const voucherList = serve(vouchersCall, async ({ body, session, tx }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const lineWhere = and(
    body.keyword ? ilike(voucherLines.summary, likeTerm(body.keyword)) : undefined,
    body.accountCode
      ? sql`${voucherLines.accountId} in (select id from ${bookAccounts} where book_id = ${book.id} and ${like(bookAccounts.code, `${body.accountCode}%`)})`
      : undefined,
  );
  const where = and(
    eq(vouchers.agencyId, book.agencyId),
    eq(vouchers.bookId, book.id),
    sql`${vouchers.period} between ${body.periodFrom} and ${body.periodTo}`,
    body.review !== 'all' ? eq(vouchers.review, body.review) : undefined,
    body.numberFrom ? sql`${vouchers.number} >= ${body.numberFrom}` : undefined,
    body.numberTo ? sql`${vouchers.number} <= ${body.numberTo}` : undefined,
    lineWhere
      ? sql`exists (select 1 from ${voucherLines} where ${voucherLines.voucherId} = ${vouchers.id} and ${lineWhere})`
      : undefined,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  // The count and 合计 in one aggregate (countOf), then the page's ids and its vouchers: listPage's steps
  // with the sum folded in rather than a second pass over the range.
  // (not named `total`: countOf's count is.)
  const { total, sums } = await countOf(tx, sql`${vouchers}`, where, {
    amount: sql`coalesce(sum(${vouchers.total}), 0)`,
  });
  const page = await pageIds(tx, {
    from: sql`${vouchers}`,
    where,
    sort: VOUCHER_SORT,
    ask: { pageNo: pageNum, pageSize, cursor },
    filter,
    total: async () => total,
  });
  const byId = new Map((await vouchersById(tx, book.agencyId, page.ids)).map((v) => [v.id, v]));
  return {
    list: page.ids.flatMap((id) => byId.get(id) ?? []),
    total,
    cursor: page.cursor,
    sumTotal: Number(sums.amount ?? 0),
  };
});

const voucherGet = serve(voucherCall, async ({ body, session, tx }) => {
  const { book } = await findVoucherBook(tx, session, body.voucherId);
  const [v] = await vouchersById(tx, book.agencyId, [body.voucherId]);
  if (!v) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.voucherNotFound);
  return v;
});

const nextNumber = serve(nextNumberCall, async ({ body, session, tx }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const res = await tx.execute(sql`
    select coalesce(max(number), 0) + 1 as n from ${vouchers}
    where book_id = ${book.id} and period = ${body.period} and word = '记'`);
  return { number: Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 1) };
});

const saveVoucher = serve(saveVoucherCall, async ({ body, session, tx, req }) => {
  const { book } = await findBook(tx, session, body.bookId);
  const ctx = { agencyId: book.agencyId, userId: session.userId };
  const input = {
    vdate: body.vdate,
    attachments: body.attachments,
    lines: body.lines.map((l) => ({ ...l, summary: l.summary })),
  };
  let id: number;
  if (body.voucherId) {
    const vb = await findVoucherBook(tx, session, body.voucherId);
    if (vb.book.id !== book.id) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.voucherNotFound);
    id = (await updateVoucher(tx, ctx, body.voucherId, input)).id;
  } else {
    id = (await createVoucher(tx, ctx, book.id, { ...input, source: 'manual' })).id;
  }
  await audit(tx, req, ctx, body.voucherId ? 'account.voucher.update' : 'account.voucher.create', String(id), {
    bookId: book.id,
  });
  const [v] = await vouchersById(tx, book.agencyId, [id]);
  if (!v) throw new Error('voucher not read');
  return v;
});

/** Runs `fn` per voucher (in scope), collecting refusals with their reason instead of failing the batch. */
async function eachVoucher(
  tx: Parameters<typeof chartOf>[0],
  session: Parameters<typeof findBook>[1],
  ids: readonly number[],
  fn: (id: number) => Promise<unknown>,
) {
  const failed: { voucherId: number; label: string; msg: string }[] = [];
  let done = 0;
  for (const id of ids) {
    try {
      await findVoucherBook(tx, session, id);
      await fn(id);
      done++;
    } catch (err) {
      const [v] = await tx.select().from(vouchers).where(eq(vouchers.id, id));
      failed.push({ voucherId: id, label: v ? voucherLabel(v) : String(id), msg: reasonOf(err) });
    }
  }
  return { done, failed };
}

const deleteVouchers = serve(deleteVouchersCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const ctx = { agencyId, userId: session.userId };
  // Highest numbers first, so a removal's renumbering never moves a voucher still to be removed.
  const rows = await tx
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(and(eq(vouchers.agencyId, agencyId), inArray(vouchers.id, body.voucherIds)))
    .orderBy(sql`${vouchers.period} desc, ${vouchers.number} desc`);
  const known = new Set(rows.map((r) => r.id));
  const order = [...rows.map((r) => r.id), ...body.voucherIds.filter((id) => !known.has(id))];
  const out = await eachVoucher(tx, session, order, async (id) => {
    const v = await deleteVoucher(tx, ctx, id);
    await audit(tx, req, ctx, 'account.voucher.delete', String(id), {
      bookId: v.bookId,
      voucher: voucherLabel(v),
      total: v.total,
    });
  });
  return out;
});

const reviewVouchers = serve(reviewVouchersCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const ctx = { agencyId, userId: session.userId };
  const out = await eachVoucher(tx, session, body.voucherIds, (id) => reviewVoucher(tx, ctx, id, body.reviewed));
  await audit(tx, req, ctx, body.reviewed ? 'account.voucher.review' : 'account.voucher.unreview', '', {
    ids: body.voucherIds,
    done: out.done,
  });
  return out;
});

const copyVoucher = serve(copyVoucherCall, async ({ body, session, tx, req }) => {
  const { book } = await findVoucherBook(tx, session, body.voucherId);
  const [src] = await vouchersById(tx, book.agencyId, [body.voucherId]);
  if (!src) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.voucherNotFound);
  const ctx = { agencyId: book.agencyId, userId: session.userId };
  const made = await createVoucher(tx, ctx, book.id, {
    vdate: body.vdate,
    attachments: src.attachments,
    source: 'copy',
    lines: src.lines.map((l) => ({
      summary: l.summary,
      accountId: l.accountId,
      auxItemId: l.auxItemId,
      debit: l.debit,
      credit: l.credit,
    })),
  });
  await audit(tx, req, ctx, 'account.voucher.copy', String(made.id), { from: body.voucherId });
  const [v] = await vouchersById(tx, book.agencyId, [made.id]);
  if (!v) throw new Error('voucher not read');
  return v;
});

// --- templates ---------------------------------------------------------------------------------

const TEMPLATE_SORT = { name: 'template', keys: [voucherTemplates.id], desc: false };
const toTemplate = (t: typeof voucherTemplates.$inferSelect) => ({
  id: t.id,
  name: t.name,
  lines: t.lines,
  createdAt: new Date(t.createdAt).toISOString(),
});

const templates = serve(templatesCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const where = and(
    eq(voucherTemplates.agencyId, agencyId),
    body.keyword ? ilike(voucherTemplates.name, likeTerm(body.keyword)) : undefined,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    { from: sql`${voucherTemplates}`, where, sort: TEMPLATE_SORT, ask: { pageNo: pageNum, pageSize, cursor }, filter },
    async (ids) => (await tx.select().from(voucherTemplates).where(inArray(voucherTemplates.id, ids))).map(toTemplate),
  );
  return page;
});

const saveTemplate = serve(saveTemplateCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const lines = body.lines.map((l) => ({ summary: l.summary, code: l.code, debit: l.debit, credit: l.credit }));
  let row: typeof voucherTemplates.$inferSelect | undefined;
  if (body.id) {
    [row] = await tx
      .update(voucherTemplates)
      .set({ name: body.name, lines })
      .where(and(eq(voucherTemplates.id, body.id), eq(voucherTemplates.agencyId, agencyId)))
      .returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.templateNotFound);
  } else {
    [row] = await tx
      .insert(voucherTemplates)
      .values({ agencyId, name: body.name, lines, createdBy: session.userId })
      .returning();
  }
  if (!row) throw new Error('template not saved');
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.template.save', String(row.id), {
    name: body.name,
  });
  return toTemplate(row);
});

const deleteTemplate = serve(deleteTemplateCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const gone = await tx
    .delete(voucherTemplates)
    .where(and(eq(voucherTemplates.id, body.id), eq(voucherTemplates.agencyId, agencyId)))
    .returning({ id: voucherTemplates.id });
  if (gone.length === 0) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.templateNotFound);
  await audit(tx, req, { agencyId, userId: session.userId }, 'account.template.delete', String(body.id));
  return null;
});

const applyTemplate = serve(applyTemplateCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const { book } = await findBook(tx, session, body.bookId);
  const [t] = await tx
    .select()
    .from(voucherTemplates)
    .where(and(eq(voucherTemplates.id, body.id), eq(voucherTemplates.agencyId, agencyId)));
  if (!t) throw new AppError(CODE.NOT_FOUND, BOOK_MSG.templateNotFound);
  const accs = await tx
    .select({ id: bookAccounts.id, code: bookAccounts.code })
    .from(bookAccounts)
    .where(eq(bookAccounts.bookId, book.id));
  const byCode = new Map(accs.map((a) => [a.code, a.id]));
  return {
    lines: t.lines.map((l) => {
      const accountId = byCode.get(l.code);
      if (!accountId) throw new AppError(CODE.CONFLICT, fillMsg(BOOK_MSG.templateUnknownCode, { code: l.code }));
      return { summary: l.summary, accountId, debit: l.debit, credit: l.credit };
    }),
  };
});

/** A voucher import's progress and result: only the importer's own job (books.jobs.ts). */
const importProgress = serve(voucherImportProgressCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const [job] = await tx
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.id, body.jobId),
        eq(jobs.agencyId, agencyId),
        eq(jobs.queue, VOUCHER_IMPORT_QUEUE),
        sql`(${jobs.payload}->>'userId')::int = ${session.userId}`,
      ),
    );
  if (!job) throw new AppError(CODE.NOT_FOUND, '导入任务不存在或已过期');
  const payload = job.payload as { total?: number };
  const progress = job.progress as { done?: number } | null;
  const done = job.state === 'done';
  return {
    state: job.state as 'queued' | 'running' | 'done' | 'failed' | 'cancelled',
    total: Number(payload.total ?? 0),
    done: done ? Number(payload.total ?? 0) : Number(progress?.done ?? 0),
    result: done ? (job.result as VoucherImportResult) : null,
    error: job.state === 'failed' ? '导入失败，请稍后重试' : null,
  };
});

export const booksCalls: Served[] = [
  setUp,
  bookIdByQysh,
  info,
  clients,
  accounts,
  addAccount,
  updateAccount,
  auxItems,
  saveAuxItem,
  openings,
  saveOpenings,
  voucherList,
  voucherGet,
  nextNumber,
  saveVoucher,
  deleteVouchers,
  reviewVouchers,
  copyVoucher,
  templates,
  saveTemplate,
  deleteTemplate,
  applyTemplate,
  importProgress,
];

export const booksModule: ServerModule = {
  name: 'books',
  calls: booksCalls,
  routes: bookFileRoutes,
  jobs: [voucherImportJob],
};
