import type { MenuNode } from '@dzy/shared';
import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { isPortalPath } from '../../lib/layout-settings';

/** 当前位置：门户 / directory / page — built from the menu tree (or a shell page's own title). */
export function AppBreadcrumb({ trail, extra }: { trail: MenuNode[]; extra?: string | undefined }) {
  const items = [
    // / leads to the portal of the chosen version (门户版本).
    { key: 'home', title: <Link to="/">门户</Link> },
    ...trail.filter((node) => !isPortalPath(node.path)).map((node) => ({ key: node.path, title: node.title })),
    ...(trail.length === 0 && extra ? [{ key: 'extra', title: extra }] : []),
  ];
  return (
    <div className="dzy-breadcrumb">
      <span className="dzy-breadcrumb-label">当前位置：</span>
      <Breadcrumb items={items} />
    </div>
  );
}
