import { MSG } from '@dzy/shared';
import { Card, Result } from 'antd';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpin } from '../components/page-spin';
import { toast } from '../lib/feedback';
import { useMenus, usePermittedPaths } from '../lib/menu';
import { Lazy } from './lazy-page';
import { MENU_PAGES } from './route-registry';

function Denied() {
  useEffect(() => toast('warning', MSG.noPermission), []);
  return <Navigate to="/404" replace />;
}

function ComingSoon() {
  return (
    <Card>
      <Result status="info" title="功能即将上线" subTitle="该功能正在建设中，上线后将第一时间通知您。" />
    </Card>
  );
}

/** Any path below /: a page from the registry that the user's menu tree grants, else /404. */
export function MenuPage() {
  const { pathname } = useLocation();
  const menus = useMenus();
  const permitted = usePermittedPaths();
  if (menus.isPending) return <PageSpin />;
  const page = MENU_PAGES[pathname];
  const granted = permitted.has(pathname);
  if (page && granted) return <Lazy page={page} />;
  // The server grants a module this client does not ship yet.
  if (granted) return <ComingSoon />;
  // A known page the user may not open gets the spec's warning; an unknown path just shows 404.
  if (page) return <Denied />;
  return <Navigate to="/404" replace />;
}
