import { type LazyPage, lazyNamed } from './lazy-page';

/**
 * Menu path → page. A page is routable only when the server's menu tree for the user contains its path;
 * a module adds one line here for each of its pages.
 */
export const MENU_PAGES: Readonly<Record<string, LazyPage>> = {
  '/nested/menu1/baseInfo': lazyNamed(() => import('../features/account/pages/base-info-page'), 'BaseInfoPage'),
  '/nested/menu1/changePassword': lazyNamed(
    () => import('../features/account/pages/change-password-page'),
    'ChangePasswordPage',
  ),
  '/nested/manage/agency-info': lazyNamed(() => import('../features/org/pages/agency-info-page'), 'AgencyInfoPage'),
  '/nested/manage/staff': lazyNamed(() => import('../features/staff/pages/staff-page'), 'StaffPage'),
  '/platform/applications': lazyNamed(
    () => import('../features/org/pages/platform-applications-page'),
    'PlatformApplicationsPage',
  ),
};

/** Pages every signed-in user has, whatever the menu says (foundation.md §2: / shows the portal). */
export const DashboardPage = lazyNamed(() => import('../features/dashboard/pages/dashboard-page'), 'DashboardPage');

/** Public pages of modules (foundation.md §2 public routes): open without signing in, full screen. */
export const PUBLIC_PAGES: Readonly<Record<string, LazyPage>> = {
  '/acceptInvite': lazyNamed(() => import('../features/staff/pages/accept-invite-page'), 'AcceptInvitePage'),
};
