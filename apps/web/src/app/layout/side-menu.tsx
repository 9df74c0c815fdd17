import type { MenuNode } from '@dzy/shared';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { menuTrail } from '../../lib/menu';
import { menuIcon } from './menu-icons';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: readonly MenuNode[], topLevel: boolean): Item[] {
  return nodes.map((node) =>
    node.type === 'M'
      ? {
          key: node.path,
          icon: menuIcon(node.icon, topLevel),
          label: node.title,
          children: toItems(node.children, false),
        }
      : { key: node.path, icon: menuIcon(node.icon, topLevel), label: node.title },
  );
}

/** The left navigation, built from the server's menu tree. */
export function SideMenu({ tree, pathname, collapsed }: { tree: MenuNode[]; pathname: string; collapsed: boolean }) {
  const navigate = useNavigate();
  const items = useMemo(() => toItems(tree, true), [tree]);
  const trail = useMemo(() => menuTrail(tree, pathname), [tree, pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);

  // Keep the directory of the current page open as the user moves around.
  useEffect(() => {
    const dirs = trail.filter((n) => n.type === 'M').map((n) => n.path);
    if (dirs.length > 0) setOpenKeys((keys) => Array.from(new Set([...keys, ...dirs])));
  }, [trail]);

  const selected = trail.at(-1)?.path ?? pathname;
  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={[selected]}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => {
        if (key !== pathname) navigate(key);
      }}
      style={{ borderInlineEnd: 'none', paddingBlock: 8 }}
    />
  );
}
