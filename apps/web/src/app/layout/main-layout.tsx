import type { MenuNode } from '@dzy/shared';
import { Layout } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { getCookie, setCookie } from '../../lib/cookie';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { IDLE_TIMEOUT_MS, useIdleTimer } from '../../lib/idle-timer';
import { menuTrail, pruneMenus, useMenus } from '../../lib/menu';
import { HOME_PATH } from '../../lib/paths';
import { signOut, useSessionInfo } from '../../lib/session';
import { AppBreadcrumb } from './app-breadcrumb';
import { AppHeader } from './app-header';
import { SideMenu } from './side-menu';
import './layout.css';

/** Sidebar state cookie: 1 open, 0 closed (foundation.md §2). */
const SIDEBAR_COOKIE = 'sidebarStatus';

const PORTAL: MenuNode = { id: 0, type: 'C', title: '门户', path: HOME_PATH, icon: 'HomeOutlined', children: [] };

/** The portal is every signed-in user's home; keep it in the navigation even when the menu omits it. */
function withPortal(tree: MenuNode[]): MenuNode[] {
  return menuTrail(tree, HOME_PATH).length > 0 ? tree : [PORTAL, ...tree];
}

/** The signed-in shell: top bar, menu-driven sidebar, breadcrumb and the page. */
export function MainLayout() {
  const session = useSessionInfo();
  const menus = useMenus();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(() => getCookie(SIDEBAR_COOKIE) === '0');

  const toggle = useCallback(() => {
    setCollapsed((was) => {
      setCookie(SIDEBAR_COOKIE, was ? '1' : '0');
      return !was;
    });
  }, []);

  useIdleTimer(IDLE_TIMEOUT_MS, () => {
    void signOut({ notice: '超时未操作，请重新登录。', keepRedirect: true });
  });

  // Without a menu the user can reach nothing: foundation.md §2 sends them back to sign in.
  useEffect(() => {
    if (!menus.isError) return;
    toast('warning', '路由菜单获取失败');
    void signOut();
  }, [menus.isError]);

  const tree = useMemo(() => withPortal(pruneMenus(menus.data?.menus ?? [])), [menus.data]);
  const trail = useMemo(() => menuTrail(tree, pathname), [tree, pathname]);
  useDocumentTitle(trail.at(-1)?.title ?? null);

  return (
    <Layout className="dzy-shell">
      <AppHeader session={session} collapsed={collapsed} onToggle={toggle} />
      <Layout hasSider>
        <Layout.Sider
          width={200}
          collapsedWidth={64}
          collapsed={collapsed}
          trigger={null}
          className="dzy-sider"
          theme="light"
          style={{ position: 'sticky', top: 50, height: 'calc(100vh - 50px)', overflow: 'auto' }}
        >
          <SideMenu tree={tree} pathname={pathname} collapsed={collapsed} />
        </Layout.Sider>
        <Layout.Content className="dzy-content">
          {pathname !== HOME_PATH && <AppBreadcrumb trail={trail} />}
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
