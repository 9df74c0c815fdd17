import { getHandoverStaffCall, handoverInfoCheckCall, type StaffItem, workHandoverCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Modal, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { STAFF_KEYS } from '../api';

/**
 * 工作交接: what the leaver owns (clients, posts, director posts) moves to the chosen colleague in one
 * step. The dialog shows what will move before the user confirms.
 */
export function HandoverDialog({ from, onClose }: { from: StaffItem | null; onClose: (done: boolean) => void }) {
  const [toId, setToId] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const fromId = from?.userId ?? 0;
  const info = useQuery({
    queryKey: STAFF_KEYS.handoverInfo(fromId),
    queryFn: () => call(handoverInfoCheckCall, { id: fromId }),
    enabled: from !== null,
    staleTime: 0,
  });
  const staff = useQuery({
    queryKey: STAFF_KEYS.handoverStaff,
    queryFn: () => call(getHandoverStaffCall, {}),
    enabled: from !== null,
    staleTime: 0,
  });
  const receivers = (staff.data ?? []).filter((s) => s.userId !== fromId);
  const receiver = receivers.find((s) => s.userId === toId);
  const nothing =
    info.data !== undefined &&
    info.data !== null &&
    info.data.clientCount === 0 &&
    info.data.stationCount === 0 &&
    !info.data.departmentDirector;

  const close = (done: boolean) => {
    setToId(undefined);
    setError(null);
    onClose(done);
  };

  const submit = async () => {
    if (!from) return;
    if (!toId) {
      setError('请选择接收人');
      return;
    }
    setSaving(true);
    try {
      const moved = await call(workHandoverCall, { fromId: from.userId, toId });
      toast('success', `交接成功：${moved?.clients ?? 0} 家客户已移交给${receiver?.hymc ?? '接收人'}`);
      close(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="工作交接"
      open={from !== null}
      width={650}
      okText="确认交接"
      cancelText="取消"
      okButtonProps={{ disabled: nothing }}
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => close(false)}
      maskClosable={false}
      destroyOnHidden
    >
      {info.isPending || !info.data ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <>
          <Descriptions
            size="small"
            bordered
            column={2}
            style={{ marginBottom: 20 }}
            items={[
              { key: 'who', label: '交接人', children: from?.hymc || from?.phone, span: 2 },
              { key: 'clients', label: '名下客户', children: `${info.data.clientCount} 家` },
              { key: 'posts', label: '所在岗位', children: `${info.data.stationCount} 个` },
              {
                key: 'director',
                label: '部门负责人职务',
                children: info.data.departmentDirector ? '有（将一并移交）' : '无',
                span: 2,
              },
            ]}
          />
          {nothing ? (
            <Alert type="success" showIcon title="该员工名下没有需要交接的工作，可以直接移除。" />
          ) : (
            <Form layout="vertical">
              <Form.Item
                label="接收人"
                style={{ marginBottom: 12 }}
                required
                validateStatus={error ? 'error' : undefined}
                help={error ?? '交接人名下的全部客户、部门负责人职务和岗位将一次性移交给接收人'}
              >
                <Select
                  placeholder="请选择接收工作的同事"
                  value={toId}
                  onChange={(v) => {
                    setToId(v);
                    setError(null);
                  }}
                  loading={staff.isPending}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={receivers.map((s) => ({
                    value: s.userId,
                    label: `${s.hymc || s.phone}${s.departmentName ? ` · ${s.departmentName}` : ''} · 客户 ${s.clientCount} 家`,
                  }))}
                  notFoundContent="暂无可接收的同事"
                />
              </Form.Item>
              {receiver && (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 8 }}
                  title={
                    <>
                      交接后，{receiver.hymc || receiver.phone} 名下客户将由 {receiver.clientCount} 家变为{' '}
                      <Typography.Text strong>{receiver.clientCount + info.data.clientCount}</Typography.Text> 家，
                      {from?.hymc || '交接人'} 名下客户变为 0 家。此操作会立即生效。
                    </>
                  }
                />
              )}
            </Form>
          )}
        </>
      )}
    </Modal>
  );
}
