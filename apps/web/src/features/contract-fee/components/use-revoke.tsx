import { type ChargeItem, FEE_MSG, revokeChargeCall } from '@dzy/shared';
import { App, Input, Typography } from 'antd';
import { useCallback } from 'react';
import { act, showYuan } from '../api';

/** 撤销收款 with a confirmation (and an optional reason, kept in the audit log). */
export function useRevoke(onDone: () => void) {
  const { modal } = App.useApp();
  return useCallback(
    (c: ChargeItem) => {
      let reason = '';
      modal.confirm({
        title: '撤销收款',
        width: 440,
        content: (
          <div>
            <Typography.Paragraph>
              确定撤销 {c.payDate} 收到「{c.qymc}」的 <b>{showYuan(c.amount)}</b>{' '}
              吗？撤销后该期未收金额将恢复，记录保留并标记为已撤销。
            </Typography.Paragraph>
            <Input.TextArea
              rows={2}
              maxLength={100}
              showCount
              placeholder="撤销原因（选填）"
              onChange={(e) => {
                reason = e.target.value;
              }}
            />
          </div>
        ),
        okText: '撤销',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: async () => {
          const r = await act(revokeChargeCall, { id: c.id, reason: reason.trim() }, FEE_MSG.revoked);
          if (r.ok) onDone();
        },
      });
    },
    [modal, onDone],
  );
}
