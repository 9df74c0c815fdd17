import { CheckCircleFilled, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { getOrgListCall, type OrgListItem } from '@dzy/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Input, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { UserAvatar } from '../../../components/user-avatar';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { KjgcApplyButton } from '../../kjgc/kjgc-apply-dialog';
import { ORG_KEYS, useAgencyRelation } from '../api';
import { useSwitchOrg } from '../use-switch-org';

const TYPE_COLOR: Record<OrgListItem['orgType'], string> = { dls: 'blue', kd: 'geekblue', kjgc: 'green' };

/** Debounced copy of a value (foundation.md §9: default debounce 200 ms). */
function useDebounced<T>(value: T, ms = 200): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

/**
 * 切换组织 (foundation.md §2): the user's phone and name, a search by organisation name or tax number,
 * and the organisations with name, type and tax number; clicking one switches to it.
 */
export function OrgSwitchDialog({
  open,
  onClose,
  onCreate,
}: {
  open: boolean;
  onClose: () => void;
  onCreate: () => void;
}) {
  const session = useSessionInfo();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const { switchTo, switchingTo } = useSwitchOrg();
  const relation = useAgencyRelation();
  const list = useQuery({
    queryKey: ORG_KEYS.list(q),
    queryFn: () => call(getOrgListCall, q ? { orgName: q } : {}),
    enabled: open,
    // Memberships change elsewhere (an approval, an invitation): ask again each time the dialog opens.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    if (open) void relation.refetch();
    else setText('');
  }, [open, relation.refetch]);

  const pick = async (org: OrgListItem) => {
    if (org.id === session.orgId || switchingTo !== null) return;
    if (await switchTo(org.id)) onClose();
  };

  const orgs = list.data?.orgList ?? [];
  const pending = relation.data?.agencyApplyStatus === 0;
  return (
    <Modal title="切换组织" open={open} onCancel={onClose} footer={null} width={500} destroyOnHidden centered>
      <div className="dzy-org-user">
        <UserAvatar name={session.token.hymc} src={session.token.headimg} size={40} />
        <div style={{ minWidth: 0 }}>
          <div className="dzy-org-user-name">{session.token.hymc || '未设置姓名'}</div>
          <div className="dzy-org-user-phone">{session.phone}</div>
        </div>
        {list.data && (
          <div className="dzy-org-user-counts">
            代理机构 {list.data.dlsSl} · 会计工厂 {list.data.kjgcSl}
          </div>
        )}
      </div>
      <Input
        allowClear
        autoFocus
        prefix={<SearchOutlined style={{ color: 'rgba(0,0,0,0.35)' }} />}
        placeholder="请输入组织名称或税号"
        value={text}
        maxLength={50}
        onChange={(e) => setText(e.target.value)}
        aria-label="搜索组织"
      />
      <Spin spinning={list.isFetching && !list.isPlaceholderData && orgs.length === 0}>
        <div className="dzy-org-list" role="listbox" aria-label="组织列表">
          {orgs.length === 0 && !list.isPending ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />
          ) : (
            orgs.map((org) => {
              const current = org.id === session.orgId;
              return (
                <button
                  type="button"
                  key={org.id}
                  role="option"
                  aria-selected={current}
                  className={`dzy-org-item${current ? ' is-current' : ''}`}
                  onClick={() => void pick(org)}
                  disabled={switchingTo !== null && switchingTo !== org.id}
                >
                  <div className="dzy-org-item-main">
                    <div className="dzy-org-item-name">
                      <Typography.Text strong ellipsis={{ tooltip: org.orgName }}>
                        {org.orgName}
                      </Typography.Text>
                      <Tag color={TYPE_COLOR[org.orgType]} variant="filled">
                        {org.orgTypeName}
                      </Tag>
                    </div>
                    <div className="dzy-org-item-tax">税号：{org.orgTax || '—'}</div>
                  </div>
                  <div className="dzy-org-item-side">
                    {switchingTo === org.id ? (
                      <Spin size="small" />
                    ) : current ? (
                      <span className="dzy-org-item-current">
                        <CheckCircleFilled /> 当前
                      </span>
                    ) : (
                      <span className="dzy-org-item-go">切换</span>
                    )}
                  </div>
                </button>
              );
            })
          )}
        </div>
      </Spin>
      {pending && (
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 12 }}
          title="您的代理机构申请正在审核中，审核结果将以短信通知您。"
        />
      )}
      <div className="dzy-org-footer">
        <Typography.Text type="secondary">没有找到您的机构？</Typography.Text>
        <Space>
          <Button icon={<PlusOutlined />} onClick={onCreate} disabled={pending}>
            创建代理机构
          </Button>
          <KjgcApplyButton />
        </Space>
      </div>
    </Modal>
  );
}
