import { CONTRACT_MSG } from '@dzy/shared';
import { DatePicker, Form, Input, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

export interface EndTarget {
  ids: number[];
  /** One contract: its number and term, so the last day can be chosen within it. */
  single?: { contractNo: string; startDate: string; endDate: string };
}

/** 终止合同: a reason (required) and, for one contract, the last day of service. */
export function EndDialog({
  target,
  onClose,
  onOk,
}: {
  target: EndTarget | null;
  onClose: () => void;
  onOk: (reason: string, endDate: string | undefined) => Promise<void>;
}) {
  const [form] = Form.useForm<{ reason: string; endDate?: Dayjs }>();
  // The form is built afresh at each opening (destroyOnHidden), so its first values are initialValues:
  // no effect that could reset the fields (and clear their errors) after the user has started.
  const s = target?.single;
  const today = dayjs();
  const initialEnd = s
    ? today.isBefore(s.startDate)
      ? dayjs(s.startDate)
      : today.isAfter(s.endDate)
        ? dayjs(s.endDate)
        : today
    : undefined;
  return (
    <Modal
      open={target !== null}
      title="终止合同"
      width={400}
      okText="确认终止"
      okButtonProps={{ danger: true }}
      onCancel={onClose}
      destroyOnHidden
      onOk={async () => {
        const v = await form.validateFields();
        await onOk((v.reason ?? '').trim(), v.endDate?.format('YYYY-MM-DD'));
      }}
    >
      <Typography.Paragraph type="secondary">
        {target?.single
          ? `终止合同 ${target.single.contractNo}：终止日之后未收款的应收将被删除，已收款的保留。`
          : `终止选中的 ${target?.ids.length ?? 0} 份合同（终止日为今天）：之后未收款的应收将被删除，已收款的保留。`}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false} initialValues={{ endDate: initialEnd }}>
        {target?.single && (
          <Form.Item name="endDate" label="终止日期" rules={[{ required: true, message: '请选择终止日期' }]}>
            <DatePicker
              style={{ width: '100%' }}
              disabledDate={(d) =>
                !!target.single &&
                (d.isBefore(target.single.startDate, 'day') || d.isAfter(target.single.endDate, 'day'))
              }
            />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label="终止原因"
          rules={[{ required: true, whitespace: true, message: CONTRACT_MSG.endReason }]}
        >
          <Input.TextArea rows={3} count={{ max: 200, show: true }} placeholder="如：客户公司注销" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
