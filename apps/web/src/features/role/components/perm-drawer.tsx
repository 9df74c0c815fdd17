import { type PermNode, permTreeCall, type RoleItem, savePermsCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Skeleton, Space, Tag, Tree, type TreeDataNode, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { flattenTree, MENU_TYPE_NAMES, ROLE_KEYS } from '../api';

/** The tree before it loads: one array for every render, so what is derived from it stays put. */
const NO_NODES: readonly PermNode[] = [];

const TYPE_COLOR: Record<PermNode['menutype'], string> = { M: 'purple', C: 'blue', F: 'default' };

/** Parent of every node, to check a page together with its buttons. */
function parents(nodes: readonly PermNode[], parent: PermNode | null = null, out = new Map<number, PermNode | null>()) {
  for (const n of nodes) {
    out.set(n.id, parent);
    parents(n.children, n, out);
  }
  return out;
}

function toTreeData(nodes: readonly PermNode[], readOnly: boolean): TreeDataNode[] {
  return nodes.map((n) => ({
    key: String(n.id),
    // Only grantable entries get a box; directories, open pages and administrator-only entries are labels.
    checkable: n.checkable,
    disableCheckbox: readOnly,
    title: (
      <span className="dzy-perm-node">
        <Tag color={TYPE_COLOR[n.menutype]} variant="filled">
          {MENU_TYPE_NAMES[n.menutype]}
        </Tag>
        <span>{n.title}</span>
        {n.adminOnly && <Typography.Text type="secondary">（仅管理员）</Typography.Text>}
        {n.perm && <span className="dzy-perm-key">{n.perm}</span>}
      </span>
    ),
    children: toTreeData(n.children, readOnly),
  }));
}

/**
 * 功能权限 of a role: the menu registry as a tree. Checking a button checks its page; unchecking a page
 * unchecks its buttons. Administrator-only entries are shown but cannot be granted.
 */
export function PermDrawer({
  role,
  canEdit,
  onClose,
}: {
  role: RoleItem | null;
  canEdit: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const tree = useQuery({
    queryKey: ROLE_KEYS.tree(role?.id ?? 0),
    queryFn: () => call(permTreeCall, { roleId: role?.id ?? 0 }),
    enabled: role !== null,
  });
  // A fresh `[]` per render while the tree loaded made every memo below new on each render, and the
  // effect that copied the saved boxes into state then set state on every render: React's "Maximum
  // update depth" (#185) when the drawer opened again. The boxes are now derived: the saved ones until
  // the user changes one, the user's edits of this very tree after (dropped when the drawer closes).
  const nodes = tree.data ?? NO_NODES;
  const all = useMemo(() => flattenTree(nodes), [nodes]);
  const byId = useMemo(() => new Map(all.map((n) => [n.id, n])), [all]);
  const parentOf = useMemo(() => parents(nodes), [nodes]);
  const saved = useMemo(() => new Set(all.filter((n) => n.checked).map((n) => n.id)), [all]);
  const [edits, setEdits] = useState<{ of: readonly PermNode[]; checked: Set<number> } | null>(null);
  const checked = edits?.of === nodes ? edits.checked : saved;
  const setChecked = (next: Set<number>) => setEdits({ of: nodes, checked: next });
  const [saving, setSaving] = useState(false);
  const close = () => {
    setEdits(null);
    onClose();
  };

  const toggle = (id: number, on: boolean) => {
    const next = new Set(checked);
    const node = byId.get(id);
    if (!node) return;
    if (on) {
      for (let n: PermNode | null | undefined = node; n; n = parentOf.get(n.id)) if (n.checkable) next.add(n.id);
    } else {
      for (const n of flattenTree([node])) next.delete(n.id);
    }
    setChecked(next);
  };

  const grantable = all.filter((n) => n.checkable);
  const dirty = all.some((n) => n.checked !== checked.has(n.id));

  const save = async () => {
    if (!role) return;
    setSaving(true);
    try {
      const perms = grantable.filter((n) => checked.has(n.id) && n.perm).map((n) => n.perm as string);
      await call(savePermsCall, { roleId: role.id, perms });
      toast('success', '保存成功');
      await queryClient.invalidateQueries({ queryKey: ROLE_KEYS.all });
      close();
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      title={role ? `功能权限 · ${role.name}` : '功能权限'}
      open={role !== null}
      onClose={close}
      size={560}
      destroyOnHidden
      footer={
        canEdit ? (
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={saving} disabled={!dirty || tree.isPending} onClick={() => void save()}>
              保存
            </Button>
          </Space>
        ) : null
      }
    >
      {tree.isPending ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : nodes.length === 0 ? (
        <Empty description="暂无可分配的功能" />
      ) : (
        <>
          {!canEdit && (
            <Alert type="info" showIcon title="仅管理员可以修改角色的功能权限" style={{ marginBottom: 12 }} />
          )}
          <div className="dzy-perm-tree-head">
            <span>
              已勾选 <Typography.Text strong>{grantable.filter((n) => checked.has(n.id)).length}</Typography.Text> /{' '}
              {grantable.length} 项
            </span>
            {canEdit && (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setChecked(new Set(grantable.map((n) => n.id)))}>
                  全选
                </Button>
                <Button size="small" type="link" onClick={() => setChecked(new Set())}>
                  清空
                </Button>
              </Space>
            )}
          </div>
          <Tree
            className="dzy-perm-tree"
            checkable
            checkStrictly
            selectable={false}
            defaultExpandAll
            treeData={toTreeData(nodes, !canEdit)}
            checkedKeys={{ checked: [...checked].map(String), halfChecked: [] }}
            onCheck={(_, info) => toggle(Number(info.node.key), info.checked)}
          />
        </>
      )}
    </Drawer>
  );
}
