import {
  CODE,
  calendarCall,
  calendarDayCall,
  checkUnDeclaredCall,
  checkUnPaidCall,
  currentFilingMonth,
  FILING_DEADLINES_2026,
  FILING_LOG_ACTIONS,
  FILING_SETTING_MSG,
  FILING_TAX_TYPE_NAMES,
  type FilingLogAction,
  type FilingTaxType,
  filingDeadline,
  filingLogListCall,
  filingSettingListCall,
  LBSJC_DICT,
  LBSJC_MSG,
  LBSJC_QUEUE,
  LBSJC_WHITELIST,
  type LbsjcKind,
  lbsjcAccessCall,
  lbsjcClientsCall,
  lbsjcItemsCall,
  lbsjcLogListCall,
  lbsjcRateCall,
  saveConfirmSettingCall,
  saveIgnoredTypesCall,
  saveRemindDaysCall,
  WSB_WHITELIST,
  wjkDictCall,
  wsbDictCall,
  type XxbqItem,
  xxbqListCall,
  xxbqSaveCall,
} from '@dzy/shared';
import { and, desc, eq, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { listPage, NO_CURSORS } from '../../db/paging.js';
import {
  agencyFilingSettings,
  enterpriseFilingInfo,
  enterpriseFilingSettings,
  enterprises,
  filingSettingLogs,
  jobs,
  lbsjcBatches,
  lbsjcItems,
  lbsjcResults,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { dataScope } from '../../lib/data-scope.js';
import { type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { chooseBatchClients } from '../customer/batch-clients.js';
import { confirmSettingsOf, confirmSettingWire, fenToYuan } from '../filing-confirm/settings.js';
import { loadHolidays } from '../filing-holiday/holiday.routes.js';
import { calendarMonths, dueReturns, isFiledState } from './due.js';
import { requireLbsjc, requireWsb, whitelistsOf } from './gate.js';
import { lbsjcJob, rateOf } from './lbsjc.jobs.js';
import { filingRemindJob, remindDaysOf, startFilingReminders } from './remind.jobs.js';

const CHUNK = 1000;
const yuan = (f: number) => (f / 100).toFixed(2);

const agencyOf = (session: SessionCtx) => {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, '企业不存在');
  return session.agencyId;
};

/** Clients in the book the caller may see (tenant, not in the recycle bin, data scope). */
const inScope = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
  ) as SQL;

const keywordOf = (k: string) =>
  k ? (or(like(enterprises.qymc, `%${k}%`), like(enterprises.qysh, `%${k}%`)) as SQL) : sql`true`;

/** Every id must be a client the caller may see, else nothing happens (404, the two never told apart). */
async function requireClients(tx: Tx, session: SessionCtx, ids: readonly number[], msg: string) {
  const wanted = [...new Set(ids)];
  const found = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc })
    .from(enterprises)
    .where(and(inScope(session), inArray(enterprises.id, wanted)));
  if (found.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, msg);
  return found;
}

async function writeLog(
  tx: Tx,
  session: SessionCtx,
  action: FilingLogAction,
  rows: { enterpriseId: number | null; detail: string }[],
) {
  const agencyId = agencyOf(session);
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insert(filingSettingLogs)
      .values(rows.slice(i, i + CHUNK).map((r) => ({ agencyId, userId: session.userId, action, ...r })));
  }
}

// --- 征期日历 ----------------------------------------------------------------------------------

const monthOf = (m: string) => m || currentFilingMonth(chinaDate());

const calendar = serve(calendarCall, async ({ body, session, tx }) => {
  const months = calendarMonths(monthOf(body.filingMonth));
  const due = await dueReturns(tx, agencyOf(session), inScope(session), months);
  const days = new Map<string, { date: string; count: number; unfiled: number }>();
  for (const r of due) {
    const d = days.get(r.sbqx) ?? { date: r.sbqx, count: 0, unfiled: 0 };
    d.count += 1;
    if (!isFiledState(r.state)) d.unfiled += 1;
    days.set(r.sbqx, d);
  }
  return {
    months,
    deadlines: Object.fromEntries(
      await (async () => {
        const holidays = await loadHolidays(tx);
        return months.map((m) => [m, filingDeadline(m, FILING_DEADLINES_2026, holidays)]);
      })(),
    ),
    days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    clientNum: new Set(due.map((r) => r.aeiId)).size,
    remindDays: await remindDaysOf(tx, agencyOf(session)),
  };
});

const calendarDay = serve(calendarDayCall, async ({ body, session, tx }) => {
  const month = body.date.slice(0, 7);
  // A deadline falls in its own filing month, or (annual items, the next month's view) in the one before.
  const due = (
    await dueReturns(tx, agencyOf(session), and(inScope(session), keywordOf(body.keyword)) as SQL, [
      month,
      calendarMonths(month)[1] as string,
    ])
  ).filter((r) => r.sbqx === body.date);
  const start = (body.pageNum - 1) * body.pageSize;
  return {
    list: due.slice(start, start + body.pageSize).map(({ allocateUser: _u, ...r }) => r),
    total: due.length,
    cursor: NO_CURSORS,
  };
});

// --- 漏报检查 ----------------------------------------------------------------------------------

function startCheck(kind: LbsjcKind) {
  return async ({
    body,
    session,
    tx,
    req,
    deps,
    afterCommit,
  }: {
    body: { scope: 'all' | 'selected'; aeiIds: number[] };
    session: SessionCtx;
    tx: Tx;
    req: Parameters<typeof audit>[1];
    deps: { wakeJobs(): void };
    afterCommit: (fn: () => void) => void;
  }) => {
    const agencyId = agencyOf(session);
    await requireLbsjc(tx, agencyId);
    if (kind === 'wsb') await requireWsb(tx, agencyId);
    await tx.execute(sql`select pg_advisory_xact_lock(${7_013}, ${session.userId})`);
    const [running] = await tx
      .select({ id: lbsjcBatches.id })
      .from(lbsjcBatches)
      .where(
        and(
          eq(lbsjcBatches.agencyId, agencyId),
          eq(lbsjcBatches.userId, session.userId),
          eq(lbsjcBatches.kind, kind),
          eq(lbsjcBatches.state, 'running'),
        ),
      );
    if (running) throw new AppError(CODE.CONFLICT, LBSJC_MSG.busyRunning);
    const { chosen, noQysh, blocked } = await chooseBatchClients(tx, session, body, { ly: 'sb', msg: LBSJC_MSG });
    const [batch] = await tx
      .insert(lbsjcBatches)
      .values({
        agencyId,
        userId: session.userId,
        kind,
        filingMonth: currentFilingMonth(chinaDate()),
        totalNum: chosen.length,
      })
      .returning();
    if (!batch) throw new Error('batch not created');
    for (let i = 0; i < chosen.length; i += CHUNK) {
      const part = chosen.slice(i, i + CHUNK);
      await tx.insert(lbsjcResults).values(part.map((e) => ({ agencyId, batchId: batch.id, enterpriseId: e.id })));
      await tx
        .insert(jobs)
        .values(
          part.map((e) => ({
            agencyId,
            queue: LBSJC_QUEUE,
            key: `${batch.id}:${e.id}`,
            payload: { batchId: batch.id, enterpriseId: e.id },
          })),
        )
        .onConflictDoNothing({ target: [jobs.queue, jobs.key] });
    }
    await audit(tx, req, { agencyId, userId: session.userId }, `filing.lbsjc.${kind}`, String(batch.id), {
      scope: body.scope,
      totalNum: chosen.length,
      blocked: blocked.map((b) => b.aeiId),
    });
    afterCommit(() => deps.wakeJobs());
    return { ...rateOf(batch), blocked, noQysh };
  };
}

const checkUnDeclared = serve(checkUnDeclaredCall, startCheck('wsb'));
const checkUnPaid = serve(checkUnPaidCall, startCheck('wjk'));

/** A batch of the caller's agency: the caller's own, or any when the caller sees the whole agency. */
async function findBatch(tx: Tx, session: SessionCtx, batchId: number | undefined, kind?: LbsjcKind) {
  const agencyId = agencyOf(session);
  const whole = session.isAdmin || session.role === 1;
  const mine = whole ? sql`true` : eq(lbsjcBatches.userId, session.userId);
  const [b] = await tx
    .select()
    .from(lbsjcBatches)
    .where(
      and(
        eq(lbsjcBatches.agencyId, agencyId),
        batchId ? eq(lbsjcBatches.id, batchId) : eq(lbsjcBatches.userId, session.userId),
        batchId ? mine : sql`true`,
        kind ? eq(lbsjcBatches.kind, kind) : sql`true`,
      ),
    )
    .orderBy(desc(lbsjcBatches.id))
    .limit(1);
  if (batchId && !b) throw new AppError(CODE.NOT_FOUND, LBSJC_MSG.notFound);
  return b ?? null;
}

const rate = serve(lbsjcRateCall, async ({ body, session, tx }) => {
  await requireLbsjc(tx, session.agencyId);
  const b = await findBatch(tx, session, body.batchId, body.kind);
  return b ? rateOf(b) : null;
});

const logList = serve(lbsjcLogListCall, async ({ body, session, tx }) => {
  await requireLbsjc(tx, session.agencyId);
  const agencyId = agencyOf(session);
  const whole = session.isAdmin || session.role === 1;
  const where = and(
    eq(lbsjcBatches.agencyId, agencyId),
    whole ? sql`true` : eq(lbsjcBatches.userId, session.userId),
    body.kind ? eq(lbsjcBatches.kind, body.kind) : sql`true`,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    {
      from: sql`${lbsjcBatches}`,
      where,
      sort: { name: 'id', keys: [lbsjcBatches.id], desc: true },
      ask: { pageNo: pageNum, pageSize, cursor },
      filter,
    },
    (ids) =>
      tx
        .select({ b: lbsjcBatches, userName: users.hymc })
        .from(lbsjcBatches)
        .innerJoin(users, eq(users.id, lbsjcBatches.userId))
        .where(inArray(lbsjcBatches.id, ids))
        .then((rows) => rows.map((r) => ({ ...r, id: r.b.id }))),
  );
  return {
    list: page.list.map((r) => ({
      ...rateOf(r.b),
      userName: r.userName,
      createdAt: r.b.createdAt.toISOString(),
      finishedAt: r.b.finishedAt?.toISOString() ?? null,
    })),
    total: page.total,
    cursor: page.cursor,
  };
});

const items = serve(lbsjcItemsCall, async ({ body, session, tx }) => {
  if (body.kind === 'wsb') await requireWsb(tx, session.agencyId);
  else await requireLbsjc(tx, session.agencyId);
  const b = await findBatch(tx, session, body.batchId, body.kind);
  if (!b) return { list: [], total: 0, cursor: NO_CURSORS, batchId: null };
  const where = and(
    eq(lbsjcItems.agencyId, agencyOf(session)),
    eq(lbsjcItems.batchId, b.id),
    inScope(session),
    keywordOf(body.keyword),
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    {
      from: sql`${lbsjcItems} inner join ${enterprises} on ${enterprises.id} = ${lbsjcItems.enterpriseId}`,
      where,
      sort: { name: 'id', keys: [lbsjcItems.id], desc: false },
      ask: { pageNo: pageNum, pageSize, cursor },
      filter: { ...filter, batchId: b.id },
    },
    (ids) =>
      tx
        .select({ i: lbsjcItems, qymc: enterprises.qymc, qysh: enterprises.qysh, userName: users.hymc })
        .from(lbsjcItems)
        .innerJoin(enterprises, eq(enterprises.id, lbsjcItems.enterpriseId))
        .leftJoin(users, eq(users.id, enterprises.allocateUser))
        .where(inArray(lbsjcItems.id, ids))
        .then((rows) => rows.map((r) => ({ ...r, id: r.i.id }))),
  );
  return {
    batchId: b.id,
    list: page.list.map(({ i, qymc, qysh, userName }) => ({
      id: i.id,
      aeiId: i.enterpriseId,
      qymc,
      qysh,
      allocateUserName: userName ?? '',
      type: i.taxType,
      skssqq: i.skssqq,
      skssqz: i.skssqz,
      sbqx: i.sbqx,
      state: i.state,
      amount: yuan(i.amount),
      znj: yuan(i.znj),
      daysOverdue: i.daysOverdue,
    })),
    total: page.total,
    cursor: page.cursor,
  };
});

const clients = serve(lbsjcClientsCall, async ({ body, session, tx }) => {
  await requireLbsjc(tx, session.agencyId);
  const b = await findBatch(tx, session, body.batchId);
  if (!b) throw new AppError(CODE.NOT_FOUND, LBSJC_MSG.notFound);
  const where = and(
    eq(lbsjcResults.agencyId, agencyOf(session)),
    eq(lbsjcResults.batchId, b.id),
    inScope(session),
    keywordOf(body.keyword),
    body.failedOnly ? sql`${lbsjcResults.msgType} > 1` : sql`true`,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    {
      from: sql`${lbsjcResults} inner join ${enterprises} on ${enterprises.id} = ${lbsjcResults.enterpriseId}`,
      where,
      sort: { name: 'id', keys: [lbsjcResults.id], desc: false },
      ask: { pageNo: pageNum, pageSize, cursor },
      filter,
    },
    (ids) =>
      tx
        .select({ r: lbsjcResults, qymc: enterprises.qymc, qysh: enterprises.qysh })
        .from(lbsjcResults)
        .innerJoin(enterprises, eq(enterprises.id, lbsjcResults.enterpriseId))
        .where(inArray(lbsjcResults.id, ids))
        .then((rows) => rows.map((x) => ({ ...x, id: x.r.id }))),
  );
  return {
    list: page.list.map(({ r, qymc, qysh }) => ({
      id: r.id,
      aeiId: r.enterpriseId,
      qymc,
      qysh,
      msg_type: r.msgType,
      msg: r.msgType === 1 ? LBSJC_MSG.ok : r.msg,
      foundNum: r.foundNum,
    })),
    total: page.total,
    cursor: page.cursor,
  };
});

const wsbDict = serve(wsbDictCall, async ({ session, tx }) => {
  await requireWsb(tx, session.agencyId);
  return LBSJC_DICT.wsb;
});
const wjkDict = serve(wjkDictCall, async ({ session, tx }) => {
  await requireLbsjc(tx, session.agencyId);
  return LBSJC_DICT.wjk;
});
const access = serve(lbsjcAccessCall, async ({ session, tx }) => {
  const lists = await whitelistsOf(tx, session.agencyId);
  return { lbsjc: lists.has(LBSJC_WHITELIST), wsbsdt: lists.has(LBSJC_WHITELIST) && lists.has(WSB_WHITELIST) };
});

// --- 申报设置 ----------------------------------------------------------------------------------

/** 信息补全: what each client lacks for filing, as SQL over the book (stored secrets count as present). */
const LACKS: Record<XxbqItem, SQL> = {
  qysh: sql`${enterprises.qysh} = ''`,
  etax: sql`(case when ${enterprises.xdzswjSfbm} = '97'
    then ${enterprises.agentLoginAccount} = '' or ${enterprises.agentLoginPasswordEnc} = '' or ${enterprises.agentLoginQysh} = ''
    else ${enterprises.xdzswjDlzh} = '' or ${enterprises.xdzswjPassEnc} = '' end)`,
  gs: sql`not ((${enterprises.dlfs} = '2' and ${enterprises.dlId} <> '' and ${enterprises.dlPasswordEnc} <> '')
    or (${enterprises.dlfs} = '1' and ${enterprises.reportPasswordEnc} <> ''))`,
  sfxy: sql`not coalesce(${enterpriseFilingInfo.sfxy}, false)`,
};
const SETTINGS_FROM = sql`${enterprises}
  left join ${enterpriseFilingSettings} on ${enterpriseFilingSettings.agencyId} = ${enterprises.agencyId} and ${enterpriseFilingSettings.enterpriseId} = ${enterprises.id}
  left join ${enterpriseFilingInfo} on ${enterpriseFilingInfo.agencyId} = ${enterprises.agencyId} and ${enterpriseFilingInfo.enterpriseId} = ${enterprises.id}`;

async function settingRows(tx: Tx, ids: number[]) {
  const rows = await tx
    .select({
      id: enterprises.id,
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      qyxz: enterprises.qyxz,
      userName: users.hymc,
      ignored: enterpriseFilingSettings.ignoredTypes,
      sfxy: enterpriseFilingInfo.sfxy,
      lqysh: sql<boolean>`${LACKS.qysh}`,
      letax: sql<boolean>`${LACKS.etax}`,
      lgs: sql<boolean>`${LACKS.gs}`,
    })
    .from(enterprises)
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .leftJoin(
      enterpriseFilingSettings,
      and(
        eq(enterpriseFilingSettings.agencyId, enterprises.agencyId),
        eq(enterpriseFilingSettings.enterpriseId, enterprises.id),
      ),
    )
    .leftJoin(
      enterpriseFilingInfo,
      and(
        eq(enterpriseFilingInfo.agencyId, enterprises.agencyId),
        eq(enterpriseFilingInfo.enterpriseId, enterprises.id),
      ),
    )
    .where(inArray(enterprises.id, ids));
  return rows.map((r) => {
    const lacks: XxbqItem[] = [];
    if (r.lqysh) lacks.push('qysh');
    if (r.letax) lacks.push('etax');
    if (r.lgs) lacks.push('gs');
    if (!r.sfxy) lacks.push('sfxy');
    return {
      id: r.id,
      aeiId: r.id,
      qymc: r.qymc,
      qysh: r.qysh,
      qyxz: r.qyxz,
      allocateUserName: r.userName ?? '',
      ignoredTypes: (r.ignored ?? []) as FilingTaxType[],
      sfxy: r.sfxy ?? false,
      lacks,
    };
  });
}

const SETTINGS_SORT = { name: 'id', keys: [enterprises.id], desc: false };

const settingList = serve(filingSettingListCall, async ({ body, session, tx }) => {
  const where = and(
    inScope(session),
    keywordOf(body.keyword),
    body.ignoredOnly ? sql`cardinality(coalesce(${enterpriseFilingSettings.ignoredTypes}, '{}')) > 0` : sql`true`,
  ) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  const page = await listPage(
    tx,
    { from: SETTINGS_FROM, where, sort: SETTINGS_SORT, ask: { pageNo: pageNum, pageSize, cursor }, filter },
    (ids) => settingRows(tx, ids),
  );
  return {
    ...page,
    remindDays: await remindDaysOf(tx, agencyOf(session)),
    ...confirmSettingWire(await confirmSettingsOf(tx, agencyOf(session))),
  };
});

const saveRemindDays = serve(saveRemindDaysCall, async ({ body, session, tx, req }) => {
  if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, FILING_SETTING_MSG.adminOnly);
  const agencyId = agencyOf(session);
  const before = await remindDaysOf(tx, agencyId);
  await tx
    .insert(agencyFilingSettings)
    .values({ agencyId, remindDays: body.remindDays })
    .onConflictDoUpdate({
      target: agencyFilingSettings.agencyId,
      set: { remindDays: body.remindDays, updatedAt: new Date() },
    });
  await writeLog(tx, session, 'remind', [{ enterpriseId: null, detail: `${before} 天 → ${body.remindDays} 天` }]);
  await audit(tx, req, { agencyId, userId: session.userId }, 'filing.setting.remind', '', { ...body, before });
  return { remindDays: body.remindDays };
});

/** 客户确认 settings (admin, as the reminder days): each change is one settings-log line. */
const saveConfirmSetting = serve(saveConfirmSettingCall, async ({ body, session, tx, req }) => {
  if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, FILING_SETTING_MSG.confirmAdminOnly);
  const agencyId = agencyOf(session);
  const before = await confirmSettingsOf(tx, agencyId);
  const after = {
    confirmThreshold: Math.round(Number(body.confirmThreshold) * 100),
    confirmRequired: body.confirmRequired,
    confirmDays: body.confirmDays,
    diffPercent: body.diffPercent,
  };
  await tx
    .insert(agencyFilingSettings)
    .values({ agencyId, ...after })
    .onConflictDoUpdate({ target: agencyFilingSettings.agencyId, set: { ...after, updatedAt: new Date() } });
  const yesNo = (b: boolean) => (b ? '是' : '否');
  const changes = [
    before.confirmThreshold !== after.confirmThreshold &&
      `客户确认金额：${fenToYuan(before.confirmThreshold)} 元 → ${fenToYuan(after.confirmThreshold)} 元`,
    before.confirmRequired !== after.confirmRequired &&
      `申报前须客户确认：${yesNo(before.confirmRequired)} → ${yesNo(after.confirmRequired)}`,
    before.confirmDays !== after.confirmDays && `确认链接有效期：${before.confirmDays} 天 → ${after.confirmDays} 天`,
    before.diffPercent !== after.diffPercent && `变动提示比例：${before.diffPercent}% → ${after.diffPercent}%`,
  ].filter((c): c is string => typeof c === 'string');
  if (changes.length > 0) await writeLog(tx, session, 'confirm', [{ enterpriseId: null, detail: changes.join('；') }]);
  await audit(tx, req, { agencyId, userId: session.userId }, 'filing.setting.confirm', '', {
    before: confirmSettingWire(before),
    after: confirmSettingWire(after),
  });
  return confirmSettingWire(after);
});

const typeNames = (types: readonly string[]) =>
  types.length ? types.map((t) => FILING_TAX_TYPE_NAMES[t as FilingTaxType]).join('、') : '无';

const saveIgnored = serve(saveIgnoredTypesCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  const found = await requireClients(tx, session, body.aeiIds, FILING_SETTING_MSG.notYours);
  const ids = found.map((f) => f.id);
  const types = [...new Set(body.ignoredTypes)];
  const before = new Map(
    (
      await tx
        .select({ id: enterpriseFilingSettings.enterpriseId, t: enterpriseFilingSettings.ignoredTypes })
        .from(enterpriseFilingSettings)
        .where(
          and(eq(enterpriseFilingSettings.agencyId, agencyId), inArray(enterpriseFilingSettings.enterpriseId, ids)),
        )
    ).map((r) => [r.id, r.t]),
  );
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx
      .insert(enterpriseFilingSettings)
      .values(ids.slice(i, i + CHUNK).map((enterpriseId) => ({ agencyId, enterpriseId, ignoredTypes: types })))
      .onConflictDoUpdate({
        target: [enterpriseFilingSettings.agencyId, enterpriseFilingSettings.enterpriseId],
        set: { ignoredTypes: types, updatedAt: new Date() },
      });
  }
  await writeLog(
    tx,
    session,
    'ignore',
    found.map((f) => ({
      enterpriseId: f.id,
      detail: `忽略税种：${typeNames(before.get(f.id) ?? [])} → ${typeNames(types)}`,
    })),
  );
  await audit(tx, req, { agencyId, userId: session.userId }, 'filing.setting.ignore', '', {
    aeiIds: ids,
    ignoredTypes: types,
  });
  return { updated: ids.length };
});

const xxbqList = serve(xxbqListCall, async ({ body, session, tx }) => {
  const anyLack = or(LACKS.qysh, LACKS.etax, LACKS.gs, LACKS.sfxy) as SQL;
  const where = and(inScope(session), keywordOf(body.keyword), body.item ? LACKS[body.item] : anyLack) as SQL;
  const { pageNum, pageSize, cursor, ...filter } = body;
  return listPage(
    tx,
    { from: SETTINGS_FROM, where, sort: SETTINGS_SORT, ask: { pageNo: pageNum, pageSize, cursor }, filter },
    (ids) => settingRows(tx, ids),
  );
});

const xxbqSave = serve(xxbqSaveCall, async ({ body, session, tx, req }) => {
  const agencyId = agencyOf(session);
  await requireClients(tx, session, [body.aeiId], FILING_SETTING_MSG.notYours);
  await tx
    .insert(enterpriseFilingInfo)
    .values({ agencyId, enterpriseId: body.aeiId, sfxy: body.sfxy })
    .onConflictDoUpdate({
      target: [enterpriseFilingInfo.agencyId, enterpriseFilingInfo.enterpriseId],
      set: { sfxy: body.sfxy, updatedAt: new Date() },
    });
  await writeLog(tx, session, 'sfxy', [
    { enterpriseId: body.aeiId, detail: body.sfxy ? '已签三方协议' : '未签三方协议' },
  ]);
  await audit(tx, req, { agencyId, userId: session.userId }, 'filing.setting.sfxy', String(body.aeiId), body);
  return body;
});

const logs = serve(filingLogListCall, async ({ body, session, tx }) => {
  const agencyId = agencyOf(session);
  const { pageNum, pageSize, cursor } = body;
  const page = await listPage(
    tx,
    {
      from: sql`${filingSettingLogs}`,
      where: eq(filingSettingLogs.agencyId, agencyId),
      sort: { name: 'id', keys: [filingSettingLogs.id], desc: true },
      ask: { pageNo: pageNum, pageSize, cursor },
      filter: {},
    },
    (ids) =>
      tx
        .select({ l: filingSettingLogs, userName: users.hymc, qymc: enterprises.qymc })
        .from(filingSettingLogs)
        .innerJoin(users, eq(users.id, filingSettingLogs.userId))
        .leftJoin(enterprises, eq(enterprises.id, filingSettingLogs.enterpriseId))
        .where(inArray(filingSettingLogs.id, ids))
        .then((rows) => rows.map((r) => ({ ...r, id: r.l.id }))),
  );
  return {
    list: page.list.map(({ l, userName, qymc }) => ({
      id: l.id,
      userName,
      action: l.action,
      actionName: FILING_LOG_ACTIONS[l.action as FilingLogAction] ?? l.action,
      aeiId: l.enterpriseId,
      qymc: qymc ?? '',
      detail: l.detail,
      createdAt: l.createdAt.toISOString(),
    })),
    total: page.total,
    cursor: page.cursor,
  };
});

export const filingCheckCalls: Served[] = [
  calendar,
  calendarDay,
  checkUnDeclared,
  checkUnPaid,
  rate,
  logList,
  items,
  clients,
  wsbDict,
  wjkDict,
  access,
  settingList,
  saveRemindDays,
  saveConfirmSetting,
  saveIgnored,
  xxbqList,
  xxbqSave,
  logs,
];

export const filingCheckModule: ServerModule = {
  name: 'filing-check',
  calls: filingCheckCalls,
  routes(app, deps) {
    startFilingReminders(app, deps);
  },
  jobs: [lbsjcJob, filingRemindJob],
};
