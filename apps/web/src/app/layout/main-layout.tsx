import { type MenuNode, sessionCall } from '@dzy/shared';
import { ConfigProvider, Drawer, Grid, Layout } from 'antd';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { MissingTaxDialog } from '../../features/customer';
import { ChatPrompt, HelpPanel, MessageCenter, useMessagePush } from '../../features/message';
import { getCookie, setCookie } from '../../lib/cookie';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { IDLE_TIMEOUT_MS, useIdleTimer } from '../../lib/idle-timer';
import { useLayoutSettings } from '../../lib/layout-settings';
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

/** Sidebar state cookie: 1 open, 0 closed (foundation.md §2). */
const SIDEBAR_COOKIE = 'sidebarStatus';

const PORTAL: MenuNode = { id: 0, type: 'C', title: '门户', path: HOME_PATH, icon: 'HomeOutlined', children: [] };

/** Pages of the shell itself, outside the server's menu tree, with their breadcrumb titles. */
export const SHELL_PAGE_TITLES: Readonly<Record<string, string>> = { '/nested/aboutDownload': '相关下载' };

/** The portal is every signed-in user's home; keep it in the navigation even when the menu omits it. */
function withPortal(tree: MenuNode[]): MenuNode[] {
  return menuTrail(tree, HOME_PATH).length > 0 ? tree : [PORTAL, ...tree];
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
  useEffect(() => pruneLocalCache(), []);

  // Without a menu the user can reach nothing: foundation.md §2 sends them back to sign in.
  useEffect(() => {
    if (!menus.isError) return;
    toast('warning', '路由菜单获取失败');
    void signOut();
  }, [menus.isError]);

  const tree = useMemo(() => withPortal(pruneMenus(menus.data?.menus ?? [])), [menus.data]);
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
              {pathname !== HOME_PATH && <AppBreadcrumb trail={trail} extra={SHELL_PAGE_TITLES[pathname]} />}
              <Outlet />
            </div>
          </Layout.Content>
        </Layout>
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
        {settingsUsed && (
          <Suspense fallback={null}>
            <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
          </Suspense>
        )}
        {followedRun && (
          <Suspense fallback={null}>
            <GlobalRunBall />
          </Suspense>
        )}
        <MessageCenter />
        <ChatPrompt />
        {/* Online service and hotlines are about an agency's work: not for users without one (operators). */}
        {session.orgId !== null && <HelpPanel />}
        {/* Opens by itself when the user has enterprises without a tax number (foundation.md §2). */}
        {session.orgId !== null && <MissingTaxDialog />}
      </Layout>
    </ConfigProvider>
  );
}
