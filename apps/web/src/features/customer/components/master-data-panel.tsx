import { CloudSyncOutlined } from '@ant-design/icons';
import {
  bureauDiffCall,
  JGLX_OPTIONS,
  jglxOneCall,
  KPFS_OPTIONS,
  kpfsOneCall,
  MASTER_MSG,
  profileSaveCall,
  takeBureauCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Empty, Input, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { call } from '../../../lib/request';
import { act, CUSTOMER_KEYS } from '../api';

export const bureauDiffKey = (id: number) => [...CUSTOMER_KEYS.all, 'bureau-diff', id] as const;

/**
 * 税局比对 in the client drawer: what differs from the bureau's registration (collected by the batch
 * check or the 纳税人信息 tab), one click to take the bureau's values; the book's legal representative,
 * registered tax types, institution type and invoicing method.
 */
export function MasterDataPanel({ id, onChanged }: { id: number; onChanged: () => void }) {
  const can = useHasPerm();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const q = useQuery({ queryKey: bureauDiffKey(id), queryFn: () => call(bureauDiffCall, { id }) });
  const [fddbrxm, setFddbrxm] = useState('');
  const [taxTypes, setTaxTypes] = useState('');
  const [saving, setSaving] = useState(false);
  const d = q.data;
  useEffect(() => {
    if (d) {
      setFddbrxm(d.profile.fddbrxm);
      setTaxTypes(d.profile.taxTypes);
    }
  }, [d]);
  const editable = can(['customer:edit']);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: bureauDiffKey(id) });
    onChanged();
  };

  const take = () =>
    modal.confirm({
      title: '按税局信息更新',
      content: MASTER_MSG.takeConfirm(1),
      okText: '更新',
      cancelText: '取消',
      onOk: async () => {
        const r = await act(takeBureauCall, { aeiIds: [id] }, '已按税局登记信息更新');
        if (r.ok) refresh();
      },
    });

  const saveProfile = async () => {
    setSaving(true);
    const r = await act(profileSaveCall, { id, fddbrxm, taxTypes }, '保存成功');
    setSaving(false);
    if (r.ok) refresh();
  };

  if (!d) return null;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {d.checkedAt === null ? (
        <Alert type="info" showIcon message={MASTER_MSG.notChecked} />
      ) : d.needUpdate ? (
        <Alert
          type="warning"
          showIcon
          message={`客户资料与税局登记信息不一致（${dayjs(d.checkedAt).format('YYYY-MM-DD HH:mm')} 比对）`}
          action={
            editable && (
              <Button size="small" type="primary" icon={<CloudSyncOutlined />} onClick={take}>
                按税局信息更新
              </Button>
            )
          }
        />
      ) : (
        <Alert
          type="success"
          showIcon
          message={`${MASTER_MSG.noDiff}（${dayjs(d.checkedAt).format('YYYY-MM-DD HH:mm')} 比对）`}
        />
      )}
      {d.diffs.length > 0 ? (
        <Table
          size="small"
          rowKey="field"
          pagination={false}
          dataSource={d.diffs}
          columns={[
            { title: '差异项', dataIndex: 'label', width: 110 },
            { title: '客户资料', dataIndex: 'bookText', render: (v: string) => v || '—' },
            {
              title: '税局登记',
              dataIndex: 'bureauText',
              render: (v: string) => <Typography.Text type="warning">{v || '—'}</Typography.Text>,
            },
          ]}
        />
      ) : d.checkedAt !== null ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有差异" />
      ) : null}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="法定代表人">
          <Input
            value={fddbrxm}
            maxLength={30}
            disabled={!editable}
            placeholder="未填写（不参与比对）"
            onChange={(e) => setFddbrxm(e.target.value)}
          />
        </Descriptions.Item>
        <Descriptions.Item label="登记税种">
          <Input
            value={taxTypes}
            maxLength={200}
            disabled={!editable}
            placeholder="如：企业所得税、增值税（未填写不参与比对）"
            onChange={(e) => setTaxTypes(e.target.value)}
          />
        </Descriptions.Item>
        <Descriptions.Item label="机构类型">
          <Select
            style={{ width: 220 }}
            value={d.profile.jglx || undefined}
            placeholder="未设置"
            disabled={!editable}
            options={JGLX_OPTIONS.map((o) => ({ ...o }))}
            onChange={async (jglx: string) => {
              const r = await act(jglxOneCall, { id, jglx }, '机构类型已保存');
              if (r.ok) refresh();
            }}
          />
        </Descriptions.Item>
        <Descriptions.Item label="开票方式">
          <Select
            style={{ width: 260 }}
            value={d.profile.kpfs}
            disabled={!editable}
            options={[{ value: '', label: '跟随机构默认' }, ...KPFS_OPTIONS.map((o) => ({ ...o }))]}
            onChange={async (kpfs: string) => {
              const r = await act(kpfsOneCall, { id, kpfs }, '开票方式已保存');
              if (r.ok) refresh();
            }}
          />
        </Descriptions.Item>
      </Descriptions>
      {editable && (
        <div style={{ textAlign: 'right' }}>
          <Button loading={saving} onClick={saveProfile}>
            保存法定代表人与税种
          </Button>
        </div>
      )}
    </Space>
  );
}
