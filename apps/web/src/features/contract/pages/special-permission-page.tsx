import {
  CONTRACT_MSG,
  getSpecialPermissionCall,
  SPECIAL_AREAS,
  SPECIAL_LEVELS,
  type SpecialArea,
  type SpecialMember,
  saveSpecialPermissionCall,
  saveSpecialPermissionHtsfCall,
  saveSpecialPermissionHtszCall,
  saveSpecialPermissionKhszCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Input, Select, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

const SAVE = {
  htsz: saveSpecialPermissionHtszCall,
  htsf: saveSpecialPermissionHtsfCall,
  khsz: saveSpecialPermissionKhszCall,
  general: saveSpecialPermissionCall,
} as const;

/** 特殊权限 (/contract/htsz/tsqx): who may see or change the records of others, per area. */
export function SpecialPermissionPage() {
  useDocumentTitle('特殊权限');
  const [userName, setUserName] = useState('');
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['contract', 'special', userName],
    queryFn: () => call(getSpecialPermissionCall, userName ? { userName } : {}),
  });
  const change = async (m: SpecialMember, area: SpecialArea, level: '' | 'view' | 'edit') => {
    try {
      await call(SAVE[area], { userIds: [m.userId], level });
      toast('success', CONTRACT_MSG.saved);
      void queryClient.invalidateQueries({ queryKey: ['contract'] });
    } catch {
      // shown by the request client
    }
  };
  return (
    <div>
      <Card
        title="特殊权限"
        extra={
          <Input.Search
            allowClear
            placeholder="员工姓名"
            style={{ width: 220 }}
            onSearch={(v) => setUserName(v.trim())}
          />
        }
      >
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="员工默认只能查看和修改自己（部门负责人：本部门）负责的合同、客户与收费；在此授予查看或修改他人记录的权限。管理员拥有全部权限。"
        />
        <Table<SpecialMember>
          rowKey="userId"
          loading={members.isPending}
          dataSource={members.data ?? []}
          pagination={false}
          locale={{ emptyText: '暂无员工' }}
          columns={[
            {
              title: '员工',
              render: (_v, m) => (
                <span>
                  {m.hymc}
                  {m.isAdmin && (
                    <Tag color="gold" style={{ marginLeft: 6 }}>
                      管理员
                    </Tag>
                  )}
                </span>
              ),
            },
            {
              title: '部门',
              render: (_v, m) => m.departmentName || <Typography.Text type="secondary">未分配</Typography.Text>,
            },
            ...SPECIAL_AREAS.map((a) => ({
              title: (
                <Tooltip title={a.meaning}>
                  <span>{a.label}</span>
                </Tooltip>
              ),
              key: a.area,
              width: 150,
              render: (_v: unknown, m: SpecialMember) => (
                <Select<string>
                  aria-label={`${m.hymc}-${a.label}`}
                  size="small"
                  style={{ width: 130 }}
                  disabled={m.isAdmin}
                  value={m[a.area]}
                  options={SPECIAL_LEVELS.map((l) => ({ value: l.value, label: l.label }))}
                  onChange={(v) => void change(m, a.area, v as '' | 'view' | 'edit')}
                />
              ),
            })),
          ]}
        />
      </Card>
    </div>
  );
}
