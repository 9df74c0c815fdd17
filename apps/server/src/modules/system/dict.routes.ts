import {
  CODE,
  deleteAqUrlCall,
  deleteDictCall,
  getAqUrlCall,
  getDictDataCall,
  getSysDictListCall,
  getTyyyglDataCall,
  listAqUrlCall,
  listDictAdminCall,
  provinceOf,
  saveAqUrlCall,
  saveDictCall,
  whitelistCheckCall,
  whitelistSaveCall,
} from '@dzy/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { aiWhitelist, aqUrls, dictData, organisations } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { regionName } from '../org/regions.js';

/**
 * Issue 19 points 7 and 8: the dictionaries served from table dict_data (the operator edits them on
 * 平台运营 › 字典与客服), and the customer-service calls: the AI knowledge whitelist of an agency and the
 * AI knowledge address per region.
 */

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The enabled values of one type, in order. */
const valuesOf = (tx: Queryable, dictType: string) =>
  tx
    .select({ code: dictData.code, label: dictData.label })
    .from(dictData)
    .where(and(eq(dictData.dictType, dictType), eq(dictData.enabled, true)))
    .orderBy(asc(dictData.sort), asc(dictData.id));

/**
 * A form whose options come from a dictionary sends one of its enabled codes: refused otherwise, so a value
 * the operator added is accepted and one the operator switched off is not.
 */
export async function requireDictValue(tx: Queryable, dictType: string, code: string, field: string, msg: string) {
  const [row] = await tx
    .select({ id: dictData.id })
    .from(dictData)
    .where(and(eq(dictData.dictType, dictType), eq(dictData.code, code), eq(dictData.enabled, true)))
    .limit(1);
  if (!row) throw new AppError(CODE.BAD_REQUEST, `${field}：${msg}`);
}

/** Every type with its name (the newest edit's) and count of enabled values. */
async function typesOf(tx: Queryable, enabledOnly: boolean) {
  const rows = await tx
    .select({
      dictType: dictData.dictType,
      name: sql<string>`max(${dictData.typeName})`,
      count: sql<number>`count(*) filter (where ${dictData.enabled})::int`,
    })
    .from(dictData)
    .groupBy(dictData.dictType)
    .orderBy(asc(dictData.dictType));
  return enabledOnly ? rows.filter((r) => r.count > 0) : rows;
}

/** The caller's agency id, or 404 (customer-service calls act in the agency the session is in). */
function agencyOf(session: SessionCtx): number {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, '您当前未加入代理机构');
  return session.agencyId;
}

const inWhitelist = async (tx: Queryable, agencyId: number, userId: number) =>
  (
    await tx
      .select({ id: aiWhitelist.id })
      .from(aiWhitelist)
      .where(and(eq(aiWhitelist.agencyId, agencyId), eq(aiWhitelist.userId, userId)))
      .limit(1)
  ).length > 0;

const regionLabel = (code: string) => (code === '' ? '全国（默认）' : regionName(code) || code);

export const dictModule: ServerModule = {
  name: 'dict',
  calls: [
    serve(getDictDataCall, async ({ body, tx }) => valuesOf(tx, body.dictGroup)),

    serve(getSysDictListCall, async ({ tx }) => typesOf(tx, true)),

    serve(getTyyyglDataCall, async ({ tx }) => valuesOf(tx, 'tyyygl')),

    serve(listDictAdminCall, async ({ body, tx }) => {
      const where =
        and(
          body.dictType ? eq(dictData.dictType, body.dictType) : undefined,
          body.label ? sql`${dictData.label} like ${`%${likeEscape(body.label)}%`}` : undefined,
        ) ?? sql`true`;
      const { pageNo, pageSize, cursor, ...filter } = body;
      // Index dict_data_type_sort_idx (dict_type, sort, id).
      const sort = { name: 'typeSort', keys: [dictData.dictType, dictData.sort, dictData.id], desc: false };
      const page = await listPage(
        tx,
        { from: sql`${dictData}`, where: where as SQL, sort, ask: { pageNo, pageSize, cursor }, filter },
        (ids) => tx.select().from(dictData).where(inArray(dictData.id, ids)),
      );
      return {
        total: page.total,
        cursor: page.cursor,
        list: page.list.map((r) => ({
          id: r.id,
          dictType: r.dictType,
          typeName: r.typeName,
          code: r.code,
          label: r.label,
          sort: r.sort,
          enabled: r.enabled,
        })),
        types: await typesOf(tx, false),
      };
    }),

    serve(saveDictCall, async ({ body, session, tx, req }) => {
      const [clash] = await tx
        .select({ id: dictData.id })
        .from(dictData)
        .where(
          and(
            eq(dictData.dictType, body.dictType),
            eq(dictData.code, body.dictCode),
            body.id ? ne(dictData.id, body.id) : undefined,
          ),
        )
        .limit(1);
      if (clash) throw new AppError(CODE.CONFLICT, `该字典类型下已有编码「${body.dictCode}」`);
      const { id, dictCode, ...rest } = body;
      const values = { ...rest, code: dictCode };
      let saved: number;
      if (id) {
        const [row] = await tx
          .update(dictData)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(dictData.id, id))
          .returning({ id: dictData.id });
        if (!row) throw new AppError(CODE.NOT_FOUND, '字典值不存在');
        saved = row.id;
      } else {
        const [row] = await tx.insert(dictData).values(values).returning({ id: dictData.id });
        if (!row) throw new AppError(CODE.ERROR, '保存失败，请稍后再试');
        saved = row.id;
      }
      // One name per type: renaming it on one value renames the type.
      await tx.update(dictData).set({ typeName: body.typeName }).where(eq(dictData.dictType, body.dictType));
      await audit(tx, req, { agencyId: null, userId: session.userId }, 'platform.dict_save', `dict:${saved}`, values);
      return { id: saved };
    }),

    serve(deleteDictCall, async ({ body, session, tx, req }) => {
      const [row] = await tx.delete(dictData).where(eq(dictData.id, body.id)).returning();
      if (!row) throw new AppError(CODE.NOT_FOUND, '字典值不存在');
      await audit(tx, req, { agencyId: null, userId: session.userId }, 'platform.dict_delete', `dict:${row.id}`, {
        dictType: row.dictType,
        code: row.code,
        label: row.label,
      });
      return null;
    }),

    // --- customer service ---------------------------------------------------------------------------

    serve(whitelistCheckCall, async ({ session, tx }) => ({
      exists: await inWhitelist(tx, agencyOf(session), session.userId),
    })),

    serve(whitelistSaveCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      if (body.userPhone !== undefined && body.userPhone !== session.phone) {
        throw new AppError(CODE.BAD_REQUEST, '只能为本人开通，手机号须为当前登录的手机号');
      }
      const inserted = await tx
        .insert(aiWhitelist)
        .values({ agencyId, userId: session.userId, phone: session.phone, orderNo: body.orderNo })
        .onConflictDoNothing()
        .returning({ id: aiWhitelist.id });
      if (inserted.length) {
        await audit(tx, req, session, 'service.whitelist_save', `user:${session.userId}`, { orderNo: body.orderNo });
      }
      return { exists: true };
    }),

    serve(getAqUrlCall, async ({ session, tx }) => {
      const agencyId = agencyOf(session);
      const [org] = await tx
        .select({ sssf: organisations.sssf, ssds: organisations.ssds, ssqx: organisations.ssqx })
        .from(organisations)
        .where(eq(organisations.id, agencyId));
      // The most precise configured address wins: county, city, province, then the nationwide default.
      const codes = [org?.ssqx ?? '', org?.ssds ?? '', provinceOf(org?.sssf)].filter((c) => /^\d{6}$/.test(c));
      const rows = await tx
        .select({ regionCode: aqUrls.regionCode, url: aqUrls.url })
        .from(aqUrls)
        .where(inArray(aqUrls.regionCode, [...codes, '']));
      const found = [...codes, ''].map((c) => rows.find((r) => r.regionCode === c)).find((r) => r !== undefined);
      return {
        aqUrl: found?.url ?? '',
        regionCode: found?.regionCode ?? '',
        configured: found !== undefined,
        whitelistResult: await inWhitelist(tx, agencyId, session.userId),
      };
    }),

    serve(listAqUrlCall, async ({ tx }) => {
      const rows = await tx.select().from(aqUrls).orderBy(asc(aqUrls.regionCode));
      return rows.map((r) => ({
        regionCode: r.regionCode,
        regionName: regionLabel(r.regionCode),
        url: r.url,
        updatedAt: r.updatedAt.toISOString(),
      }));
    }),

    serve(saveAqUrlCall, async ({ body, session, tx, req }) => {
      if (body.regionCode !== '' && !regionName(body.regionCode)) {
        throw new AppError(CODE.BAD_REQUEST, '地区编码不存在，请选择省、市或区县');
      }
      const values = { url: body.url, updatedBy: session.userId, updatedAt: new Date() };
      await tx
        .insert(aqUrls)
        .values({ regionCode: body.regionCode, ...values })
        .onConflictDoUpdate({ target: aqUrls.regionCode, set: values });
      await audit(
        tx,
        req,
        { agencyId: null, userId: session.userId },
        'platform.aq_url_save',
        `region:${body.regionCode}`,
        {
          url: body.url,
        },
      );
      return null;
    }),

    serve(deleteAqUrlCall, async ({ body, session, tx, req }) => {
      const [row] = await tx.delete(aqUrls).where(eq(aqUrls.regionCode, body.regionCode)).returning();
      if (!row) throw new AppError(CODE.NOT_FOUND, '该地区未配置 AI 咨询地址');
      await audit(
        tx,
        req,
        { agencyId: null, userId: session.userId },
        'platform.aq_url_delete',
        `region:${row.regionCode}`,
        {
          url: row.url,
        },
      );
      return null;
    }),
  ],
};
