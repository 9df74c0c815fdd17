import type { MenuNode } from '@dzy/shared';
import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { HOME_PATH } from '../../lib/paths';

/** 当前位置：门户 / directory / page — built from the menu tree. */
export function AppBreadcrumb({ trail }: { trail: MenuNode[] }) {
  const items = [
    { key: 'home', title: <Link to={HOME_PATH}>门户</Link> },
    ...trail.filter((node) => node.path !== HOME_PATH).map((node) => ({ key: node.path, title: node.title })),
  ];
  return (
    <div className="dzy-breadcrumb">
      <span className="dzy-breadcrumb-label">当前位置：</span>
      <Breadcrumb items={items} />
    </div>
  );
}
