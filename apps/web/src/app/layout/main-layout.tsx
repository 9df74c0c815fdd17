import { type MenuNode, noQyshListCall, sessionCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { ConfigProvider, Grid, Layout } from 'antd';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { DialogLoading } from '../../components/dialog-loading';
import { useProviderAddressGuard } from '../../features/brand/agency-brand';
import { CUSTOMER_KEYS } from '../../features/customer/api';
import { ChatPrompt, HelpPanel, useMessagePush } from '../../features/message';
import { useMessageCenterOpen } from '../../features/message/api';
import { getCookie, setCookie } from '../../lib/cookie';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { IDLE_TIMEOUT_MS, useIdleTimer } from '../../lib/idle-timer';
import { isPortalPath, useLayoutSettings, usePortalPath } from '../../lib/layout-settings';
import { pruneLocalCache } from '../../lib/local-cache';
import { menuTrail, pruneMenus, useMenus } from '../../lib/menu';
import { HOME_PATH } from '../../lib/paths';
import { startPush, stopPush } from '../../lib/push';
import { call } from '../../lib/request';
import { signOut, useSessionInfo } from '../../lib/session';
import { AppBreadcrumb } from './app-breadcrumb';
import { AppHeader } from './app-header';
import { sidebarHidden } from './nav';
import { NavBar } from './nav-bar';
import { shellTheme, shellVars } from './shell-theme';
import { SideMenu } from './side-menu';
import { TagsView } from './tags-view';
import './layout.css';
import { useFollowedRun } from '../../features/filing-batch/followed-run';

// The drawer (colour pickers) loads the first time it is opened.
const SettingsDrawer = lazy(async () => ({ default: (await import('./settings-drawer')).SettingsDrawer }));
/** The progress ball of a followed 申报 run, on every page; loaded only while a run is followed. */
const GlobalRunBall = lazy(() => import('../../features/filing-batch/components/global-run-ball'));
/** The navigation drawer of a narrow window (under 992 px): loaded only in one. */
const Drawer = lazy(() => import('antd/es/drawer'));
// The shell's dialogs with tables, lists and pagers load the first time they open, not with the shell:
// 消息管理 when the bell or the user menu opens it, 提示 (enterprises without a tax number) when there are some.
const MessageCenter = lazy(async () => ({
  default: (await import('../../features/message/components/message-center')).MessageCenter,
}));
const MissingTaxDialog = lazy(async () => ({
  default: (await import('../../features/customer/components/missing-tax-dialog')).MissingTaxDialog,
}));

/** Sidebar state cookie: 1 open, 0 closed (foundation.md §2). */
const SIDEBAR_COOKIE = 'sidebarStatus';

const PORTAL: MenuNode = { id: 0, type: 'C', title: '门户', path: HOME_PATH, icon: 'HomeOutlined', children: [] };

/** Pages of the shell itself, outside the server's menu tree, with their breadcrumb titles. */
export const SHELL_PAGE_TITLES: Readonly<Record<string, string>> = { '/nested/aboutDownload': '相关下载' };

/**
 * The portal is every signed-in user's home; keep it in the navigation even when the menu omits it. The
 * menu's 门户 (/dashboard) leads to the portal of the version chosen in the settings drawer.
 */
function withPortal(tree: MenuNode[], portal: string): MenuNode[] {
  const swap = (nodes: MenuNode[]): MenuNode[] =>
    nodes.map((n) => (n.path === HOME_PATH ? { ...n, path: portal } : { ...n, children: swap(n.children) }));
  return menuTrail(tree, HOME_PATH).length > 0 ? swap(tree) : [{ ...PORTAL, path: portal }, ...tree];
}

/** Opens the push channel for the signed-in user while the shell is shown; closes it on purpose after. */
function usePushChannel(userId: number) {
  useMessagePush();
  useEffect(() => {
    // The server ended the session: ask it, so the request client shows 登录超时 and signs out.
    startPush(userId, () => void call(sessionCall, {}).catch(() => undefined));
    return () => stopPush();
  }, [userId]);
}

/** Whether 消息管理 has been opened in this shell (it then stays mounted, as it was, to close as before). */
function useMessageCenterUsed(): boolean {
  const open = useMessageCenterOpen();
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  return used;
}

/**
 * Whether the user has enterprises without a tax number: the same query (key and call) as the 提示 dialog,
 * which then opens from the cache as before, or stays closed when the user chose 暂不补充 this session.
 */
function useMissingTax(orgId: number | null): boolean {
  const list = useQuery({
    queryKey: CUSTOMER_KEYS.noQysh,
    queryFn: () => call(noQyshListCall, {}),
    enabled: orgId !== null,
    staleTime: 5 * 60_000,
  });
  return (list.data?.length ?? 0) > 0;
}

/** The signed-in shell: top bar, navigation (left bar + sidebar, or top menu), breadcrumb and the page. */
export function MainLayout() {
  const session = useSessionInfo();
  const menus = useMenus();
  const settings = useLayoutSettings();
  const screens = Grid.useBreakpoint();
  // Under 992 px (foundation.md §9) the navigation folds into a drawer.
  const mobile = screens.lg === false;
  const { pathname } = useLocation();
  const followedRun = useFollowedRun();
  const [collapsed, setCollapsed] = useState(() => getCookie(SIDEBAR_COOKIE) === '0');
  const [navOpen, setNavOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsUsed, setSettingsUsed] = useState(false);
  const messageCenterUsed = useMessageCenterUsed();
  const missingTax = useMissingTax(session.orgId);
  const [missingTaxShown, setMissingTaxShown] = useState(false);
  if (missingTax && !missingTaxShown) setMissingTaxShown(true);

  const toggle = useCallback(() => {
    setCollapsed((was) => {
      setCookie(SIDEBAR_COOKIE, was ? '1' : '0');
      return !was;
    });
  }, []);

  useIdleTimer(IDLE_TIMEOUT_MS, () => {
    void signOut({ notice: '超时未操作，请重新登录。', keepRedirect: true });
  });
  usePushChannel(session.token.id);
  useProviderAddressGuard(session.orgId !== null);
  useEffect(() => pruneLocalCache(), []);

  // Without a menu the user can reach nothing: foundation.md §2 sends them back to sign in.
  useEffect(() => {
    if (!menus.isError) return;
    toast('warning', '路由菜单获取失败');
    void signOut();
  }, [menus.isError]);

  const portal = usePortalPath();
  const tree = useMemo(() => withPortal(pruneMenus(menus.data?.menus ?? []), portal), [menus.data, portal]);
  const trail = useMemo(() => menuTrail(tree, pathname), [tree, pathname]);
  const pageTitle = trail.at(-1)?.title ?? SHELL_PAGE_TITLES[pathname] ?? null;
  useDocumentTitle(pageTitle);

  const top = trail[0] ?? null;
  const noSidebar = sidebarHidden(top);
  const sideTree = top && !noSidebar ? top.children : [];
  const mode = settings.topMenuSetting;

  const style = { ...shellVars(settings) } as CSSProperties;
  const shellClass = [
    'dzy-shell',
    settings.fixedHeader ? 'dzy-shell-fixed' : '',
    mobile ? 'dzy-shell-mobile' : '',
    mode === 2 ? 'dzy-shell-top' : 'dzy-shell-left',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <ConfigProvider theme={shellTheme(settings)}>
      <Layout className={shellClass} style={style}>
        <AppHeader
          session={session}
          mode={mode}
          mobile={mobile}
          tree={tree}
          activeTop={top?.path ?? null}
          collapsed={noSidebar ? null : collapsed}
          onToggle={toggle}
          onOpenNav={() => setNavOpen(true)}
          onOpenSettings={() => {
            setSettingsUsed(true);
            setSettingsOpen(true);
          }}
          showLogo={settings.sidebarLogo}
        />
        <Layout hasSider className="dzy-body">
          {!mobile && mode === 1 && <NavBar tree={tree} active={top?.path ?? null} logo={false} />}
          {!mobile && !noSidebar && (
            <Layout.Sider
              width={200}
              // Folded, the sidebar goes away: the 80 px bar (or the top menu) stays.
              collapsedWidth={0}
              collapsed={collapsed}
              trigger={null}
              className="dzy-sider"
              aria-label="页面导航"
            >
              {!collapsed && top && <div className="dzy-sider-title">{top.title}</div>}
              {!collapsed && <SideMenu key={top?.path} tree={sideTree} pathname={pathname} />}
            </Layout.Sider>
          )}
          <Layout.Content className="dzy-content">
            {settings.tagsView && <TagsView title={pageTitle} />}
            <div className="dzy-page">
              {!isPortalPath(pathname) && <AppBreadcrumb trail={trail} extra={SHELL_PAGE_TITLES[pathname]} />}
              <Outlet />
            </div>
          </Layout.Content>
        </Layout>
        {mobile && (
          <Suspense fallback={null}>
            <Drawer
              placement="left"
              size={260}
              open={mobile && navOpen}
              onClose={() => setNavOpen(false)}
              title={<BrandLogo size={24} />}
              className="dzy-nav-drawer"
              styles={{ body: { padding: 0, background: settings.menuBackground } }}
            >
              <SideMenu tree={tree} pathname={pathname} topIcons onNavigate={() => setNavOpen(false)} />
            </Drawer>
          </Suspense>
        )}
        {settingsUsed && (
          <Suspense fallback={<DialogLoading />}>
            <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
          </Suspense>
        )}
        {followedRun && (
          <Suspense fallback={null}>
            <GlobalRunBall />
          </Suspense>
        )}
        {messageCenterUsed && (
          <Suspense fallback={<DialogLoading />}>
            <MessageCenter />
          </Suspense>
        )}
        <ChatPrompt />
        {/* Online service and hotlines are about an agency's work: not for users without one (operators). */}
        {session.orgId !== null && <HelpPanel />}
        {/* Opens by itself when the user has enterprises without a tax number (foundation.md §2). */}
        {session.orgId !== null && missingTaxShown && (
          <Suspense fallback={null}>
            <MissingTaxDialog />
          </Suspense>
        )}
      </Layout>
    </ConfigProvider>
  );
}
