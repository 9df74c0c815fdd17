import {
  OPP_MSG,
  type OppItem,
  oppDetailCall,
  oppFollowDeleteCall,
  oppFollowListCall,
  oppTransferListCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Empty, Space, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { OPP_KEYS } from './opp-dialogs';

export function StageTag({ item }: { item: Pick<OppItem, 'stageName' | 'stageKind'> }) {
  const color = item.stageKind === 'won' ? 'success' : item.stageKind === 'lost' ? 'default' : 'processing';
  return <Tag color={color}>{item.stageName}</Tag>;
}

/** The opportunity's details, its follow-up records and its transfer records. */
export function OppDrawer(props: {
  id: number | null;
  onClose: () => void;
  actions?: (o: OppItem) => React.ReactNode;
}) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const open = props.id !== null;
  const id = props.id ?? 0;
  const detail = useQuery({
    queryKey: ['opportunity', 'detail', id],
    queryFn: () => call(oppDetailCall, { id }),
    enabled: open,
  });
  const follows = useQuery({
    queryKey: ['opportunity', 'follows', id],
    queryFn: () => call(oppFollowListCall, { oppId: id }),
    enabled: open,
  });
  const transfers = useQuery({
    queryKey: ['opportunity', 'transfers', id],
    queryFn: () => call(oppTransferListCall, { oppId: id }),
    enabled: open,
  });
  const o = detail.data;
  const removeFollow = (fid: number) =>
    modal.confirm({
      title: '删除跟进记录',
      content: '确定删除这条跟进记录吗？删除后不可恢复。',
      okText: '删除',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(oppFollowDeleteCall, { id: fid });
          toast('success', OPP_MSG.deleted);
          await queryClient.invalidateQueries({ queryKey: OPP_KEYS.all });
        } catch {
          // told
        }
      },
    });

  return (
    <Drawer
      open={open}
      onClose={props.onClose}
      width={640}
      title={o ? o.companyName : '商机详情'}
      extra={o && props.actions ? props.actions(o) : null}
      destroyOnHidden
    >
      {o && (
        <>
          <Descriptions size="small" column={2} bordered className="dzy-opp-desc">
            <Descriptions.Item label="联系人">{o.contactName}</Descriptions.Item>
            <Descriptions.Item label="联系电话">{o.phone}</Descriptions.Item>
            <Descriptions.Item label="商机阶段">
              <StageTag item={o} />
            </Descriptions.Item>
            <Descriptions.Item label="预计金额">¥{o.expectAmount}</Descriptions.Item>
            <Descriptions.Item label="商机来源">{o.source}</Descriptions.Item>
            <Descriptions.Item label="负责人">{o.ownerName || '公海'}</Descriptions.Item>
            <Descriptions.Item label="意向服务" span={2}>
              {o.serviceNames || '—'}
            </Descriptions.Item>
            <Descriptions.Item label="最近跟进">{o.followedAt}</Descriptions.Item>
            <Descriptions.Item label="下次跟进">{o.nextFollowAt ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="创建">
              {o.createdByName} · {o.createdAt}
            </Descriptions.Item>
            <Descriptions.Item label="转化">
              {o.enterpriseId ? <Tag color="success">已转为客户</Tag> : '未转化'}
            </Descriptions.Item>
            {o.remark ? (
              <Descriptions.Item label="备注" span={2}>
                {o.remark}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          <Tabs
            style={{ marginTop: 16 }}
            items={[
              {
                key: 'follows',
                label: `跟进记录（${follows.data?.length ?? 0}）`,
                children:
                  (follows.data?.length ?? 0) === 0 ? (
                    <Empty description="暂无跟进记录" />
                  ) : (
                    <Timeline
                      items={(follows.data ?? []).map((f) => ({
                        key: f.id,
                        children: (
                          <div className="dzy-opp-follow">
                            <Space size={8} wrap>
                              <Typography.Text strong>{f.userName}</Typography.Text>
                              <Tag>{f.way}</Tag>
                              <Typography.Text type="secondary">{f.createdAt}</Typography.Text>
                              {f.mine && f.way !== '阶段变更' && (
                                <Button type="link" size="small" danger onClick={() => removeFollow(f.id)}>
                                  删除
                                </Button>
                              )}
                            </Space>
                            <div className="dzy-opp-follow-text">{f.content}</div>
                            {f.nextFollowAt && (
                              <Typography.Text type="secondary">下次跟进：{f.nextFollowAt}</Typography.Text>
                            )}
                          </div>
                        ),
                      }))}
                    />
                  ),
              },
              {
                key: 'transfers',
                label: '转移记录',
                children: (
                  <Table
                    size="small"
                    rowKey="id"
                    pagination={false}
                    dataSource={transfers.data ?? []}
                    locale={{ emptyText: '暂无转移记录' }}
                    columns={[
                      { title: '时间', dataIndex: 'createdAt', width: 130 },
                      { title: '类型', dataIndex: 'kindName', width: 100 },
                      {
                        title: '负责人变化',
                        key: 'change',
                        render: (_v, t) => `${t.fromName || '—'} → ${t.toName || '—'}`,
                      },
                      { title: '操作人', dataIndex: 'byName', width: 80 },
                      { title: '原因', dataIndex: 'reason', render: (v: string) => v || '—' },
                    ]}
                  />
                ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
