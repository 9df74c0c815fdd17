import {
  agencyUserRelationCall,
  BIND_STATUS,
  CODE,
  getOrgListCall,
  judgeSwitchingButtonCall,
  ORG_TYPE_NAMES,
  type OrgType,
  updateSessionUserInfoCall,
} from '@dzy/shared';
import { and, asc, desc, eq } from 'drizzle-orm';
import { agencyApplications, kjgcBindings, memberships, organisations } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { sessionInfo } from '../../plugins/session.js';
import { agencyCalls } from './agency.routes.js';
import { kjgcCalls } from './kjgc.routes.js';
import { switchSessionOrg } from './org.service.js';
import { platformCalls } from './platform.routes.js';

const isAgencyType = (t: OrgType | null) => t === 'dls' || t === 'kd';

export const orgModule: ServerModule = {
  name: 'org',
  calls: [
    serve(getOrgListCall, async ({ body, session, tx }) => {
      const rows = await tx
        .select({
          id: organisations.id,
          orgName: organisations.name,
          orgTax: organisations.taxNo,
          orgType: organisations.orgType,
        })
        .from(memberships)
        .innerJoin(organisations, eq(organisations.id, memberships.orgId))
        .where(eq(memberships.userId, session.userId))
        .orderBy(desc(memberships.isAdmin), asc(memberships.id));
      const q = body.orgName?.toLowerCase() ?? '';
      const orgList = rows
        .filter((r) => !q || r.orgName.toLowerCase().includes(q) || r.orgTax.toLowerCase().includes(q))
        .map((r) => ({ ...r, orgTypeName: ORG_TYPE_NAMES[r.orgType] }));
      return {
        orgList,
        dlsSl: rows.filter((r) => isAgencyType(r.orgType)).length,
        kjgcSl: rows.filter((r) => r.orgType === 'kjgc').length,
      };
    }),

    serve(updateSessionUserInfoCall, async ({ body, session, tx, req }) => {
      const next = await switchSessionOrg(tx, session, body.orgId);
      if (!next) throw new AppError(CODE.NOT_FOUND, '组织不存在或您不是该组织成员');
      await audit(tx, req, next, 'org.switch', String(next.orgId), { from: session.orgId, to: next.orgId });
      return sessionInfo(next);
    }),

    // Shown when the user belongs to both an agency and a factory; always for a kd agency (foundation.md §6).
    // The preferred target comes from the consented bindings (kjgc_bindings), never organisations.kjgc_dls_id.
    serve(judgeSwitchingButtonCall, async ({ session, tx }) => {
      const none = { show: false, targetOrgId: null, targetName: null };
      if (session.orgType === null || session.orgId === null) return none;
      const rows = await tx
        .select({ id: organisations.id, name: organisations.name, orgType: organisations.orgType })
        .from(memberships)
        .innerJoin(organisations, eq(organisations.id, memberships.orgId))
        .where(eq(memberships.userId, session.userId))
        .orderBy(asc(memberships.id));
      const inFactory = session.orgType === 'kjgc';
      const others = rows.filter((r) => (inFactory ? isAgencyType(r.orgType) : r.orgType === 'kjgc'));
      // The other side of the current organisation's live bindings (visible to either party under RLS).
      const bound = new Set(
        (
          await tx
            .select({ agencyId: kjgcBindings.agencyId, kjgcId: kjgcBindings.kjgcId })
            .from(kjgcBindings)
            .where(
              and(
                eq(inFactory ? kjgcBindings.kjgcId : kjgcBindings.agencyId, session.orgId),
                eq(kjgcBindings.status, BIND_STATUS.bound),
              ),
            )
        ).map((b) => (inFactory ? b.agencyId : b.kjgcId)),
      );
      // A factory prefers the agency this session acts for, then any other bound agency; an agency a bound factory.
      const target =
        (inFactory ? others.find((r) => r.id === session.kjgcDlsId) : undefined) ??
        others.find((r) => bound.has(r.id)) ??
        others[0];
      if (!target) return session.orgType === 'kd' ? { ...none, show: true } : none;
      return { show: true, targetOrgId: target.id, targetName: target.name };
    }),

    serve(agencyUserRelationCall, async ({ session, tx }) => {
      const [latest] = await tx
        .select({ status: agencyApplications.status })
        .from(agencyApplications)
        .where(eq(agencyApplications.applicantId, session.userId))
        .orderBy(desc(agencyApplications.createdAt), desc(agencyApplications.id))
        .limit(1);
      const [agency] =
        session.agencyId === null
          ? []
          : await tx.select().from(organisations).where(eq(organisations.id, session.agencyId)).limit(1);
      return {
        isAdmin: session.isAdmin ? '1' : '0',
        isAgency: isAgencyType(session.orgType) ? '1' : '0',
        agencyApplyStatus: (latest?.status as 0 | 1 | 2 | undefined) ?? null,
        agencyInfo: agency
          ? {
              id: agency.id,
              agency_name: agency.name,
              agency_tax: agency.taxNo,
              org_type: agency.orgType,
              sssf: agency.sssf,
              ssds: agency.ssds,
              ssqx: agency.ssqx,
            }
          : null,
      } as const;
    }),

    ...agencyCalls,
    ...kjgcCalls,
    ...platformCalls,
  ],
};
