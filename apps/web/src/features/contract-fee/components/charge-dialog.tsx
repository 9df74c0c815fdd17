import {
  FEE_MSG,
  feeFen,
  feeYuan,
  PAY_METHODS,
  type PayMethod,
  type ReceivableItem,
  saveChargeCall,
} from '@dzy/shared';
import { DatePicker, Descriptions, Form, Input, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { act, showYuan } from '../api';
import { FeeStatusTag } from './schedule-drawer';

interface Values {
  amount: string;
  payDate: Dayjs;
  payMethod: PayMethod;
  payer?: string;
  receiptNo?: string;
  remark?: string;
}

/**
 * 登记收款: a payment against one period, at most what the period still owes (a larger sum is refused;
 * docs/decisions/contract.md). The amount starts as the unpaid rest; the date as today, never later.
 */
export function ChargeDialog({
  period,
  onClose,
  onDone,
}: {
  period: ReceivableItem | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (period) {
      form.resetFields();
      form.setFieldsValue({ amount: period.unpaid, payDate: dayjs(), payMethod: '2' });
    }
  }, [period, form]);

  const unpaidFen = period ? (feeFen(period.unpaid) ?? 0) : 0;
  const save = async () => {
    if (!period) return;
    // An invalid form shows its messages beside the fields; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    const r = await act(
      saveChargeCall,
      {
        receivableId: period.id,
        payAmount: v.amount.trim(),
        payDate: v.payDate.format('YYYY-MM-DD'),
        payMethod: v.payMethod,
        payer: v.payer?.trim() ?? '',
        receiptNo: v.receiptNo?.trim() ?? '',
        remark: v.remark?.trim() ?? '',
      },
      FEE_MSG.saved,
    );
    setSaving(false);
    if (r.ok) {
      onDone();
      onClose();
    }
  };

  return (
    <Modal
      open={period !== null}
      title="登记收款"
      width={600}
      onCancel={onClose}
      onOk={save}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
    >
      {period && (
        <Descriptions
          size="small"
          column={2}
          bordered
          className="dzy-fee-charge-facts"
          items={[
            { key: 'qymc', label: '企业名称', children: period.qymc, span: 2 },
            { key: 'no', label: '合同编号', children: period.contractNo },
            { key: 'period', label: '账期', children: `第${period.periodNo}期 · ${period.dueDate}` },
            { key: 'amount', label: '应收金额', children: showYuan(period.amount) },
            { key: 'paid', label: '已收金额', children: showYuan(period.paid) },
            {
              key: 'unpaid',
              label: '未收金额',
              children: <b className="dzy-fee-unpaid">{showYuan(period.unpaid)}</b>,
            },
            { key: 'status', label: '收款状态', children: <FeeStatusTag status={period.feeStatus} /> },
          ]}
        />
      )}
      <Form form={form} layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }} style={{ marginTop: 16 }}>
        <Form.Item
          name="amount"
          label="收款金额"
          extra={`本期最多可收 ${showYuan(feeYuan(unpaidFen))}`}
          rules={[
            { required: true, whitespace: true, message: FEE_MSG.amountRequired },
            {
              validator: async (_, v: string | undefined) => {
                const text = (v ?? '').trim();
                if (!text) return;
                if (text.length > 10) throw new Error(FEE_MSG.amountLength);
                const fen = feeFen(text);
                if (fen === null) throw new Error(FEE_MSG.amountPattern);
                if (fen <= 0) throw new Error(FEE_MSG.amountPositive);
                if (fen > unpaidFen) throw new Error(FEE_MSG.overpay(feeYuan(unpaidFen)));
              },
            },
          ]}
        >
          <Input prefix="¥" suffix="元" maxLength={10} autoComplete="off" placeholder="如 1200.00" />
        </Form.Item>
        <Form.Item name="payDate" label="收款日期" rules={[{ required: true, message: FEE_MSG.dateRequired }]}>
          <DatePicker
            style={{ width: '100%' }}
            allowClear={false}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            placeholder="请选择收款日期"
          />
        </Form.Item>
        <Form.Item name="payMethod" label="收款方式" rules={[{ required: true, message: FEE_MSG.methodRequired }]}>
          <Select options={PAY_METHODS.map((m) => ({ ...m }))} placeholder="请选择收款方式" />
        </Form.Item>
        <Form.Item name="payer" label="付款人" rules={[{ max: 50, message: '付款人不能超过50个字符' }]}>
          <Input count={{ max: 50, show: true }} placeholder="付款单位或个人" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="receiptNo"
          label="收据编号"
          rules={[
            { max: 30, message: '收据编号不能超过30个字符' },
            { pattern: /^[\w\-/]*$/, message: '收据编号只能包含字母、数字、-、_、/' },
          ]}
        >
          <Input count={{ max: 30, show: true }} placeholder="选填，同一机构内不可重复" autoComplete="off" />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注不能超过200个字符' }]}>
          <Input.TextArea count={{ max: 200, show: true }} rows={2} placeholder="选填" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
