import { BRAND_FILE_URL_PREFIX, type Brand } from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { agencyAccounts, serviceProviders } from '../../db/schema/index.js';

type ProviderRow = typeof serviceProviders.$inferSelect;

export const logoUrl = (file: string) => (file ? `${BRAND_FILE_URL_PREFIX}${file}` : '');

export function brandOf(r: ProviderRow): Brand {
  return {
    fwsid: r.fwsid,
    name: r.name,
    logoUrl: logoUrl(r.logoFile),
    primaryColor: r.primaryColor,
    loginTitle: r.loginTitle,
    hotline: r.hotline,
  };
}

/** An enabled provider by its fwsid; null when none (or switched off): the sign-in page then shows the platform's. */
export async function brandByFwsid(tx: Queryable, fwsid: string): Promise<Brand | null> {
  const [row] = await tx
    .select()
    .from(serviceProviders)
    .where(and(eq(serviceProviders.fwsid, fwsid), eq(serviceProviders.enabled, true)));
  return row ? brandOf(row) : null;
}

/** The brand of an agency's provider (the shell after sign-in); null for the platform's own. */
export async function brandOfAgency(tx: Queryable, agencyId: number): Promise<Brand | null> {
  const [row] = await tx
    .select({ p: serviceProviders })
    .from(agencyAccounts)
    .innerJoin(serviceProviders, eq(serviceProviders.id, agencyAccounts.providerId))
    .where(and(eq(agencyAccounts.agencyId, agencyId), eq(serviceProviders.enabled, true)));
  return row ? brandOf(row.p) : null;
}
