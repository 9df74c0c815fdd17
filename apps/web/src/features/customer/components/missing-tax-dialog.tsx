import { CUSTOMER_MSG, noQyshListCall, normalizeTaxNumber, stripSpaces, updateQyshCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { CUSTOMER_KEYS } from '../api';

/** 暂不补充 keeps the dialog closed for the rest of this browser session. */
const SNOOZE_KEY = 'dzy.noQysh.snoozed';

/**
 * 提示 (foundation.md §2, business.md §2): opens by itself when the signed-in user has enterprises in
 * their scope without a tax number; 650 px, table height 400; whitespace is stripped as typed.
 */
export function MissingTaxDialog() {
  const session = useSessionInfo();
  const queryClient = useQueryClient();
  const [snoozed, setSnoozed] = useState(() => sessionStorage.getItem(`${SNOOZE_KEY}.${session.orgId}`) === '1');
  const [values, setValues] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const list = useQuery({
    queryKey: CUSTOMER_KEYS.noQysh,
    queryFn: () => call(noQyshListCall, {}),
    enabled: !snoozed && session.orgId !== null,
    staleTime: 5 * 60_000,
  });
  const rows = list.data ?? [];
  const open = !snoozed && rows.length > 0;
  useEffect(() => {
    if (open) setValues({});
  }, [open]);

  const snooze = () => {
    sessionStorage.setItem(`${SNOOZE_KEY}.${session.orgId}`, '1');
    setSnoozed(true);
  };

  const change = (id: number, raw: string) => setValues((v) => ({ ...v, [id]: stripSpaces(raw) }));
  const check = (id: number) => {
    const v = values[id] ?? '';
    if (v && (v.length < 6 || v.length > 20)) {
      toast('warning', CUSTOMER_MSG.taxDialog);
      setValues((all) => ({ ...all, [id]: '' }));
    }
  };

  const confirm = async () => {
    const qyshList = rows.flatMap((r) => {
      const v = stripSpaces(values[r.id] ?? '');
      return v ? [{ id: r.id, qysh: v }] : [];
    });
    if (qyshList.length === 0) {
      toast('warning', CUSTOMER_MSG.fillFirst);
      return;
    }
    const bad = qyshList.find((r) => r.qysh.length < 6 || r.qysh.length > 20);
    if (bad) {
      toast('warning', CUSTOMER_MSG.taxDialog);
      setValues((all) => ({ ...all, [bad.id]: '' }));
      return;
    }
    setSaving(true);
    try {
      await call(updateQyshCall, { qyshList });
      toast('success', CUSTOMER_MSG.saved);
      await queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
    } catch {
      // The server's message is shown by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="提示"
      width={650}
      onCancel={snooze}
      mask={{ closable: false }}
      footer={[
        <Button key="later" onClick={snooze}>
          暂不补充
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={confirm}>
          确定
        </Button>,
      ]}
    >
      <Typography.Paragraph>{CUSTOMER_MSG.taxDialogText}</Typography.Paragraph>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ y: 400 }}
        dataSource={rows}
        columns={[
          { title: '序号', key: 'no', width: 64, render: (_: unknown, _r, i) => i + 1 },
          { title: '企业名称', dataIndex: 'qymc', ellipsis: true },
          {
            title: '企业税号',
            key: 'qysh',
            width: 240,
            render: (_: unknown, r) => (
              <Input
                value={values[r.id] ?? ''}
                onChange={(e) => change(r.id, normalizeTaxNumber(e.target.value))}
                onBlur={() => check(r.id)}
                placeholder="请输入6-20位税号"
                aria-label={`${r.qymc}的税号`}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}
