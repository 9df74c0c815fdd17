import type { MenuNode, OrgType } from '@dzy/shared';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { menuTrail } from '../../lib/menu';
import { useSessionInfo } from '../../lib/session';
import { menuIcon } from './menu-icons';
import { firstPage } from './nav';
import { settingsDot } from './settings-dot';

type Item = Required<MenuProps>['items'][number];

/** A settings area's title with its red dot (settings-dot.ts). */
function titleOf(node: MenuNode, dot: boolean) {
  if (!dot) return node.title;
  return (
    <span>
      {node.title}
      <span className="dzy-menu-dot" aria-hidden="true" />
    </span>
  );
}

function toItems(nodes: readonly MenuNode[], topLevel: boolean, orgType: OrgType | null): Item[] {
  return nodes.map((node) =>
    node.type === 'M'
      ? {
          key: node.path,
          icon: menuIcon(node.icon, topLevel),
          label: titleOf(node, settingsDot(node.path, orgType)),
          children: toItems(node.children, false, orgType),
        }
      : { key: node.path, icon: menuIcon(node.icon, topLevel), label: titleOf(node, settingsDot(node.path, orgType)) },
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
  const orgType = useSessionInfo().orgType;
  const items = useMemo(() => toItems(tree, topIcons, orgType), [tree, topIcons, orgType]);
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
