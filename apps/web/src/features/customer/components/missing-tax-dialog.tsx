import { CUSTOMER_MSG, noQyshListCall, normalizeTaxNumber, stripSpaces, updateQyshCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { CUSTOMER_KEYS } from '../api';
import './missing-tax-dialog.css';

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
      {/* A plain table drawn like antd's small one: antd's Table (with its pager, selection and filter code,
          ≈ 70 KB compressed) would load on the portal with this dialog (issue 30 point 5). */}
      <div className="dzy-mt-table">
        <table>
          <colgroup>
            <col style={{ width: 64 }} />
            <col />
            <col style={{ width: 240 }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">序号</th>
              <th scope="col">企业名称</th>
              <th scope="col">企业税号</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.id}>
                <td>{i + 1}</td>
                <td className="dzy-mt-name" title={r.qymc}>
                  {r.qymc}
                </td>
                <td>
                  <Input
                    value={values[r.id] ?? ''}
                    onChange={(e) => change(r.id, normalizeTaxNumber(e.target.value))}
                    onBlur={() => check(r.id)}
                    placeholder="请输入6-20位税号"
                    aria-label={`${r.qymc}的税号`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}
