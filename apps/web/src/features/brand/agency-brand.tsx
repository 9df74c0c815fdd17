import { getZtByFwsidCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { BrandLogo } from '../../components/brand-logo';
import { call } from '../../lib/request';

/** The caller's agency's provider brand (null: the platform's own), fetched once per session. */
export function useAgencyBrand() {
  return useQuery({
    queryKey: ['agency-brand'],
    queryFn: () => call(getZtByFwsidCall, {}, { handle: 'all' }).catch(() => null),
    staleTime: 30 * 60_000,
  });
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
