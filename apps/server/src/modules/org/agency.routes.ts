import {
  AGENCY_APPLY_OK_MSG,
  AGENCY_APPLY_PENDING_MSG,
  AGENCY_NAME_TAKEN_MSG,
  type AgencyInfo,
  APPLY_STATUS,
  agencyApplyCall,
  CODE,
  existsWhiteOrderCall,
  fieldLabel,
  getAgencyInfoCall,
  getCompartmentInfoCall,
  hasPerm,
  MSG,
  ORG_TYPE_NAMES,
  provinceOf,
  REGION_LEVEL,
  selectPersonalAgencyInfoCall,
  updateAgencyInfoCall,
} from '@dzy/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { agencyApplications, enterprises, memberships, organisations, whitelistOrders } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { requireDictValue } from '../system/dict.routes.js';
import { regionChainValid, regionCities, regionCounties, regionName, regionProvinces } from './regions.js';

const notFound = (msg = '代理机构不存在或无权访问') => new AppError(CODE.NOT_FOUND, msg);

/** True when an organisation has the name, or a pending application asks for it. */
export async function agencyNameTaken(tx: Queryable, name: string): Promise<boolean> {
  const [org] = await tx
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.name, name))
    .limit(1);
  if (org) return true;
  const [app] = await tx
    .select({ id: agencyApplications.id })
    .from(agencyApplications)
    .where(and(eq(agencyApplications.agencyName, name), eq(agencyApplications.status, APPLY_STATUS.pending)))
    .limit(1);
  return app !== undefined;
}

/** The session's agency with its counts; for a factory user the agency it is bound to (read-only). */
async function agencyInfo(tx: Queryable, session: SessionCtx): Promise<AgencyInfo> {
  const agencyId = session.agencyId;
  if (agencyId === null) throw notFound();
  const [row] = await tx
    .select({
      o: organisations,
      staffCount: sql<number>`(select count(distinct ${memberships.userId})::int from ${memberships} where ${eq(memberships.orgId, agencyId)})`,
      clientCount: sql<number>`(select count(*)::int from ${enterprises} where ${and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt))})`,
    })
    .from(organisations)
    .where(eq(organisations.id, agencyId));
  if (!row) throw notFound();
  const o = row.o;
  return {
    id: o.id,
    agencyName: o.name,
    agencyTax: o.taxNo,
    orgType: o.orgType,
    orgTypeName: ORG_TYPE_NAMES[o.orgType],
    sssf: o.sssf,
    ssds: o.ssds,
    ssqx: o.ssqx,
    sssfmc: regionName(o.sssf),
    ssdsmc: regionName(o.ssds),
    ssqxmc: o.ssqx === o.ssds ? '' : regionName(o.ssqx),
    address: o.address,
    link: o.link,
    linkPhone: o.linkPhone,
    agencyScale: o.scale,
    staffNum: o.staffNum,
    staffCount: row.staffCount,
    clientCount: row.clientCount,
    editable: session.orgId === agencyId && hasPerm(session.perms, updateAgencyInfoCall.access),
    createdAt: o.createdAt.toISOString(),
  };
}

export const agencyCalls = [
  serve(getCompartmentInfoCall, async ({ body }) => {
    const { dataType, parentCode = '' } = body;
    const dataArray =
      dataType === REGION_LEVEL.province
        ? regionProvinces()
        : dataType === REGION_LEVEL.city
          ? regionCities(parentCode)
          : regionCounties(parentCode);
    if (!dataArray) throw new AppError(CODE.NOT_FOUND, '地区不存在，请重新选择');
    return { dataType, dataArray: [...dataArray] };
  }),

  serve(selectPersonalAgencyInfoCall, async ({ body, tx }) => ({ exists: await agencyNameTaken(tx, body.agencyName) })),

  serve(agencyApplyCall, async ({ body, session, tx, req }) => {
    const chain = regionChainValid(body.sssf, body.ssds, body.ssqx);
    if (chain === 'city') throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('ssds')}：请选择地区`);
    if (chain === 'county') throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('ssqx')}：请选择区县`);
    // One pending application per user and per name: serialised so two quick clicks make one.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agency_apply'), ${session.userId})`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('agency_name'), hashtext(${body.agencyName}))`);
    const [pending] = await tx
      .select({ id: agencyApplications.id })
      .from(agencyApplications)
      .where(
        and(eq(agencyApplications.applicantId, session.userId), eq(agencyApplications.status, APPLY_STATUS.pending)),
      )
      .limit(1);
    if (pending) throw new AppError(CODE.CONFLICT, AGENCY_APPLY_PENDING_MSG);
    if (await agencyNameTaken(tx, body.agencyName)) throw new AppError(CODE.CONFLICT, AGENCY_NAME_TAKEN_MSG);
    await requireDictValue(tx, 'agency_scale', String(body.agencyScale), '机构规模', '请选择机构规模');
    const [row] = await tx
      .insert(agencyApplications)
      .values({
        applicantId: session.userId,
        agencyName: body.agencyName,
        agencyTax: body.agencyTax,
        agencyType: body.agencyType ?? 'dls',
        sssf: body.sssf,
        ssds: body.ssds,
        ssqx: body.ssqx,
        address: body.address,
        agencyScale: body.agencyScale,
        staffNum: body.staffNum,
        link: body.link || session.hymc,
        linkPhone: body.linkPhone ?? session.phone,
      })
      .returning({ id: agencyApplications.id });
    if (!row) throw new Error('application insert returned nothing');
    await audit(tx, req, { agencyId: null, userId: session.userId }, 'org.agency_apply', String(row.id), {
      agencyName: body.agencyName,
      agencyTax: body.agencyTax,
    });
    return new Answer(CODE.OK, AGENCY_APPLY_OK_MSG, { id: row.id });
  }),

  serve(getAgencyInfoCall, async ({ session, tx }) => agencyInfo(tx, session)),

  serve(updateAgencyInfoCall, async ({ body, session, tx, req }) => {
    const before = await agencyInfo(tx, session);
    // A factory user may look at the agency it is bound to, not change it.
    if (!before.editable) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
    if (body.agencyScale !== before.agencyScale)
      await requireDictValue(tx, 'agency_scale', String(body.agencyScale), '机构规模', '请选择机构规模');
    const next = {
      address: body.address,
      link: body.link,
      linkPhone: body.linkPhone,
      scale: body.agencyScale,
      staffNum: body.staffNum,
    };
    await tx.update(organisations).set(next).where(eq(organisations.id, before.id));
    await audit(tx, req, session, 'org.agency_update', String(before.id), {
      before: {
        address: before.address,
        link: before.link,
        linkPhone: before.linkPhone,
        scale: before.agencyScale,
        staffNum: before.staffNum,
      },
      after: next,
    });
    return agencyInfo(tx, session);
  }),

  // Only the caller's own agency id or its province may be asked about.
  serve(existsWhiteOrderCall, async ({ body, session, tx }) => {
    if (session.agencyId === null) throw notFound('白名单对象不存在或无权查询');
    const [agency] = await tx
      .select({ sssf: organisations.sssf })
      .from(organisations)
      .where(eq(organisations.id, session.agencyId));
    const allowed = [String(session.agencyId), provinceOf(agency?.sssf)].filter(Boolean);
    if (!allowed.includes(body.busiVal)) throw notFound('白名单对象不存在或无权查询');
    const [hit] = await tx
      .select({ id: whitelistOrders.id })
      .from(whitelistOrders)
      .where(and(eq(whitelistOrders.type, body.type), eq(whitelistOrders.busiVal, body.busiVal)))
      .limit(1);
    return { exists: hit !== undefined };
  }),
];
