import { BRAND_MSG, getZtByFwsidCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrandLogo } from '../../components/brand-logo';
import { call } from '../../lib/request';
import { signOut } from '../../lib/session';
import { addressMismatch, signInAddress } from '../../lib/session-address';

/** The caller's agency's provider brand (null: the platform's own), fetched once per session. */
export function useAgencyBrand() {
  return useQuery({
    queryKey: ['agency-brand'],
    // A failure leaves the data undefined (the platform's logo shows) and is not a brand of null.
    queryFn: () => call(getZtByFwsidCall, {}, { handle: 'all' }),
    staleTime: 30 * 60_000,
    retry: 1,
  });
}

/**
 * Theme application's rule (foundation.md §5): an agency signed in at a provider's address (/login/{fwsid})
 * that is not its own provider's is warned 账号异常，请联系服务商。 and stopped — signed out, back at that
 * address with the warning. The platform's own /login serves every agency; a user without an agency has no
 * provider to compare.
 */
export function useProviderAddressGuard(hasAgency: boolean) {
  const brand = useAgencyBrand();
  const known = brand.isSuccess;
  const agencyFwsid = brand.data?.fwsid ?? null;
  useEffect(() => {
    const at = signInAddress();
    if (!hasAgency || !known || !addressMismatch(at, agencyFwsid)) return;
    void signOut({ notice: BRAND_MSG.accountAbnormal, loginPath: `/login/${at}` });
  }, [hasAgency, known, agencyFwsid]);
}

/** The header's logo: the agency's provider (logo and name) when it has one, else 代账云's. */
export function AgencyBrandLogo({ size = 28 }: { size?: number }) {
  const brand = useAgencyBrand().data ?? null;
  if (!brand) return <BrandLogo size={size} />;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }} title={brand.name}>
      {brand.logoUrl ? (
        <img src={brand.logoUrl} alt="" style={{ height: size, maxWidth: size * 4, objectFit: 'contain' }} />
      ) : null}
      <span style={{ fontSize: 16, fontWeight: 600, color: brand.primaryColor, whiteSpace: 'nowrap' }}>
        {brand.name}
      </span>
    </span>
  );
}
