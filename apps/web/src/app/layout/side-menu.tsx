import type { MenuNode } from '@dzy/shared';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { menuTrail } from '../../lib/menu';
import { menuIcon } from './menu-icons';
import { firstPage } from './nav';

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

/** An inline menu of `tree` (a top menu's pages in the sidebar, or the whole tree in the mobile drawer). */
export function SideMenu({
  tree,
  pathname,
  collapsed = false,
  onNavigate,
  topIcons = false,
}: {
  tree: MenuNode[];
  pathname: string;
  collapsed?: boolean;
  onNavigate?: () => void;
  /** The tree's first level are top menus (the mobile drawer): give each an icon. */
  topIcons?: boolean;
}) {
  const navigate = useNavigate();
  const items = useMemo(() => toItems(tree, topIcons), [tree, topIcons]);
  const trail = useMemo(() => menuTrail(tree, pathname), [tree, pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(() =>
    // Directories start open: the sidebar holds one top menu's pages, a few at most.
    tree.filter((n) => n.type === 'M').map((n) => n.path),
  );

  // Keep the directory of the current page open as the user moves around.
  useEffect(() => {
    const dirs = trail.filter((n) => n.type === 'M').map((n) => n.path);
    if (dirs.length > 0) setOpenKeys((keys) => Array.from(new Set([...keys, ...dirs])));
  }, [trail]);

  const selected = trail.at(-1)?.path ?? pathname;
  const find = (key: string): MenuNode | undefined => {
    const walk = (nodes: readonly MenuNode[]): MenuNode | undefined => {
      for (const n of nodes) {
        if (n.path === key) return n;
        const below = walk(n.children);
        if (below) return below;
      }
      return undefined;
    };
    return walk(tree);
  };
  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={[selected]}
      inlineCollapsed={collapsed}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => {
        const node = find(key);
        const target = node ? firstPage(node) : key;
        if (target && target !== pathname) navigate(target);
        onNavigate?.();
      }}
      style={{ borderInlineEnd: 'none', paddingBlock: 8, background: 'transparent' }}
    />
  );
}
