import { createHashRouter, Navigate, RouterProvider } from 'react-router';
import { usePortalPath } from '../lib/layout-settings';
import { GuestOnly, RequireAuth } from './guards';
import { Lazy, lazyNamed } from './lazy-page';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { DashboardPage, NewDashboardPage, PUBLIC_PAGES, SHELL_PAGES } from './route-registry';

// Every page, the shell and the menu resolver load on demand: the sign-in page fetches only what it shows.
// It is drawn without antd; every other route sits inside AntdRoot (antd's theme, locale and App), loaded
// on the way there.
const AntdRoot = lazyNamed(() => import('./antd-root'), 'AntdRoot');
const MenuPage = lazyNamed(() => import('./menu-page'), 'MenuPage');
const MainLayout = lazyNamed(() => import('./layout/main-layout'), 'MainLayout');
const LoginPage = lazyNamed(() => import('../features/auth/pages/login-page'), 'LoginPage');
const ForgetPasswordPage = lazyNamed(() => import('../features/auth/pages/forget-password-page'), 'ForgetPasswordPage');
const AgreementPage = lazyNamed(() => import('../features/public/pages/agreement-page'), 'AgreementPage');
const PrivacyPage = lazyNamed(() => import('../features/public/pages/privacy-page'), 'PrivacyPage');
const NotFoundPage = lazyNamed(() => import('../features/public/pages/not-found-page'), 'NotFoundPage');
const DevOutboxPage = lazyNamed(() => import('../features/public/pages/dev-outbox-page'), 'DevOutboxPage');

/** / goes to the portal of the version chosen in the settings drawer (门户版本). */
function PortalRedirect() {
  return <Navigate to={usePortalPath()} replace />;
}

const router = createHashRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', element: <Lazy page={LoginPage} fullScreen /> },
          // A service provider's own sign-in address (issue 19 point 4).
          { path: '/login/:fwsid', element: <Lazy page={LoginPage} fullScreen /> },
        ],
      },
      {
        // One antd root for every page but the sign-in page, public and signed-in alike: a toast shown on
        // a public page just before it moves into the shell (已加入… on accepting an invitation) stays on
        // screen, which two roots, one unmounted by the move, did not allow.
        element: <Lazy page={AntdRoot} fullScreen />,
        children: [
          { path: '/forgetPassword', element: <Lazy page={ForgetPasswordPage} fullScreen /> },
          { path: '/agreement', element: <Lazy page={AgreementPage} fullScreen /> },
          { path: '/privacy', element: <Lazy page={PrivacyPage} fullScreen /> },
          { path: '/404', element: <Lazy page={NotFoundPage} fullScreen /> },
          { path: '/dev/outbox', element: <Lazy page={DevOutboxPage} fullScreen /> },
          ...Object.entries(PUBLIC_PAGES).map(([path, page]) => ({ path, element: <Lazy page={page} fullScreen /> })),
          {
            element: <RequireAuth />,
            children: [
              {
                path: '/',
                element: <Lazy page={MainLayout} fullScreen />,
                children: [
                  { index: true, element: <PortalRedirect /> },
                  { path: 'dashboard', element: <Lazy page={DashboardPage} /> },
                  { path: 'newDashboard', element: <Lazy page={NewDashboardPage} /> },
                  ...Object.entries(SHELL_PAGES).map(([path, page]) => ({ path, element: <Lazy page={page} /> })),
                  { path: '*', element: <Lazy page={MenuPage} /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
