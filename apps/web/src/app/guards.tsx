import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { PageSpin } from '../components/page-spin';
import { PlainResult } from '../components/plain-result';
import { clearClientState, reloadToLogin } from '../lib/client-state';
import { LOGIN_PATH, loginPathFor, safeRedirect } from '../lib/paths';
import { ApiError, NETWORK_FAILURE } from '../lib/request';
import { getSignOutExit, SessionProvider, useSession } from '../lib/session';

export const USER_INFO_FAILED = '获取用户信息失败，请重新登录';

/** Drawn without antd: the guards stand in front of the sign-in page, which loads none. */
function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <PlainResult
      status="warning"
      title="暂时无法连接到服务器"
      subTitle="请检查网络连接，或稍后再试。"
      action="重新加载"
      onAction={onRetry}
    />
  );
}

/**
 * The server answered, but not with the user (foundation.md §8: 获取用户信息失败，请重新登录): signing in
 * again is the way on, not a reload.
 */
function UserInfoFailed() {
  return (
    <PlainResult
      status="warning"
      title={USER_INFO_FAILED}
      subTitle="登录信息可能已失效或账号状态有变化。"
      action="重新登录"
      onAction={() => {
        clearClientState();
        reloadToLogin();
      }}
    />
  );
}

/** Signed-in area: without a session go to /login?redirect=<path>&t=<timestamp> (foundation.md §2). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <PageSpin fullScreen />;
  if (session.isError) {
    const answered = session.error instanceof ApiError && session.error.code !== NETWORK_FAILURE;
    if (answered) return <UserInfoFailed />;
    return <SessionUnavailable onRetry={() => void session.refetch()} />;
  }
  if (!session.data) {
    const exit = getSignOutExit();
    const to =
      exit && !exit.keepRedirect ? (exit.loginPath ?? LOGIN_PATH) : loginPathFor(location.pathname + location.search);
    // Keyed by the location: a Back that lands here while the sign-out is under way is a new location,
    // and an already mounted <Navigate> would not fire again (it navigates once, on mount).
    return <Navigate key={location.key} to={to} replace state={exit?.notice ? { notice: exit.notice } : undefined} />;
  }
  return (
    <SessionProvider value={session.data}>
      <Outlet />
    </SessionProvider>
  );
}

/** /login: a signed-in user goes on to the redirect target, or to / (which opens the portal). */
export function GuestOnly() {
  const session = useSession();
  const [params] = useSearchParams();
  if (session.isPending) return <PageSpin fullScreen />;
  if (session.data) return <Navigate to={safeRedirect(params.get('redirect')) ?? '/'} replace />;
  return <Outlet />;
}
