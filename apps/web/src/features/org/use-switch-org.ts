import { getRoutersCall, type SessionInfo, updateSessionUserInfoCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/feedback';
import { MENUS_KEY, pagePaths } from '../../lib/menu';
import { HOME_PATH } from '../../lib/paths';
import { call } from '../../lib/request';
import { SESSION_KEY, signOut } from '../../lib/session';

/**
 * Switching organisation (foundation.md §4): update the session on the server; on success keep the new
 * session, drop everything cached for the old organisation, rebuild the menus and go back to the current
 * page (the portal when the new organisation does not grant it); if the update fails, sign out to /login.
 */
export function useSwitchOrg() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [switchingTo, setSwitchingTo] = useState<number | null>(null);

  const switchTo = useCallback(
    async (orgId: number): Promise<boolean> => {
      setSwitchingTo(orgId);
      let info: SessionInfo | null = null;
      try {
        info = await call(updateSessionUserInfoCall, { orgId }, { handle: 'all' });
      } catch {
        info = null;
      }
      if (!info) {
        setSwitchingTo(null);
        await signOut({ notice: '切换组织失败，请重新登录' });
        return false;
      }
      // Menus, buttons and every page's data belonged to the old organisation.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
      queryClient.setQueryData(SESSION_KEY, info);
      let target = pathname === '/' ? HOME_PATH : pathname;
      try {
        const menus = await queryClient.fetchQuery({
          queryKey: MENUS_KEY,
          queryFn: async () => (await call(getRoutersCall, {}, { handle: 'all' })) ?? { menus: [], buttons: [] },
          staleTime: Number.POSITIVE_INFINITY,
        });
        if (target !== HOME_PATH && !pagePaths(menus.menus).has(target)) target = HOME_PATH;
      } catch {
        target = HOME_PATH;
      }
      setSwitchingTo(null);
      navigate(target === pathname ? `${target}${search}` : target, { replace: true });
      toast('success', `已切换到：${info.orgName ?? ''}`);
      return true;
    },
    [queryClient, navigate, pathname, search],
  );

  return { switchTo, switchingTo };
}
