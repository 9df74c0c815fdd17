import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { PageSpin } from '../components/page-spin';
import { PlainResult } from '../components/plain-result';
import { LOGIN_PATH, loginPathFor, safeRedirect } from '../lib/paths';
import { getSignOutExit, SessionProvider, useSession } from '../lib/session';

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

/** Signed-in area: without a session go to /login?redirect=<path>&t=<timestamp> (foundation.md §2). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <PageSpin fullScreen />;
  if (session.isError) return <SessionUnavailable onRetry={() => void session.refetch()} />;
  if (!session.data) {
    const exit = getSignOutExit();
    const to = exit && !exit.keepRedirect ? LOGIN_PATH : loginPathFor(location.pathname + location.search);
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
