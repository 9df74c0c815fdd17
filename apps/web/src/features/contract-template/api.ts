import { serviceItemListCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the contract-settings feature; all start with 'contract-template'. */
export const TEMPLATE_KEYS = {
  all: ['contract-template'] as const,
  page: (params: unknown) => ['contract-template', 'page', params] as const,
  detail: (id: number) => ['contract-template', 'detail', id] as const,
  services: (params: unknown) => ['contract-template', 'services', params] as const,
};

/** The agency's service items (all, or only the enabled ones for the template dialog). */
export function useServiceItems(onlyEnabled: boolean, name = '') {
  const body = { service_static: onlyEnabled ? ('1' as const) : ('' as const), service_name: name };
  return useQuery({
    queryKey: TEMPLATE_KEYS.services(body),
    queryFn: () => call(serviceItemListCall, body),
  });
}
