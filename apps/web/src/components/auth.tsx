import { hasPerm } from '@dzy/shared';
import { type ReactNode, useCallback } from 'react';
import { useSessionInfo } from '../lib/session';

/** The message of the spec's button-permission directive when it is given no permission ids (business.md §5). */
export const EMPTY_PERMS_MSG = '请设置操作权限标签值';

function required(perms: readonly string[]): readonly string[] {
  if (perms.length === 0) throw new Error(EMPTY_PERMS_MSG);
  return perms;
}

/**
 * Whether the signed-in user holds any of the permission ids (or `*:*:*`); foundation.md §5.
 * The web only hides: the server decides and answers 460 to anything else.
 */
export function useHasPerm(): (perms: readonly string[]) => boolean {
  const { perms: held } = useSessionInfo();
  return useCallback((perms: readonly string[]) => hasPerm(held, required(perms)), [held]);
}

/**
 * Renders its children only for holders of one of `perms` (the spec's button-permission directive):
 * `<Auth perms={['role:edit']}><Button>新增角色</Button></Auth>`. An empty list is a programming error.
 */
export function Auth({
  perms,
  children,
  fallback = null,
}: {
  perms: readonly string[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const can = useHasPerm();
  return <>{can(perms) ? children : fallback}</>;
}
