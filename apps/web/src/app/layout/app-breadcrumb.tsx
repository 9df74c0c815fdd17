import type { MenuNode } from '@dzy/shared';
import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { HOME_PATH } from '../../lib/paths';

/** 当前位置：门户 / directory / page — built from the menu tree (or a shell page's own title). */
export function AppBreadcrumb({ trail, extra }: { trail: MenuNode[]; extra?: string | undefined }) {
  const items = [
    { key: 'home', title: <Link to={HOME_PATH}>门户</Link> },
    ...trail.filter((node) => node.path !== HOME_PATH).map((node) => ({ key: node.path, title: node.title })),
    ...(trail.length === 0 && extra ? [{ key: 'extra', title: extra }] : []),
  ];
  return (
    <div className="dzy-breadcrumb">
      <span className="dzy-breadcrumb-label">当前位置：</span>
      <Breadcrumb items={items} />
    </div>
  );
}
