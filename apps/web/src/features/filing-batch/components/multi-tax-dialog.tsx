import { FILING_TAX_TYPE_NAMES, FILING_TAX_TYPES, type FilingTaxType } from '@dzy/shared';
import { App, Checkbox, Modal, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../../lib/request';
import { BATCH_MSG, type PlanCreateReply, planCreateCall } from '../api';
import { showLeftOut } from './left-out';

/**
 * 批量申报 (tax-bureau.md §2 multi-enterprise multi-tax dialog): the tax types to file for the chosen
 * clients (or all in scope) → 生成申报计划. The plan gets one item per return due and not filed yet.
 */
export function MultiTaxDialog({
  open,
  filingMonth,
  aeiIds,
  onClose,
  onStarted,
}: {
  open: boolean;
  filingMonth: string;
  /** The chosen clients; empty = every client in the user's scope. */
  aeiIds: number[];
  onClose: () => void;
  onStarted: (reply: PlanCreateReply) => void;
}) {
  const { modal } = App.useApp();
  const [types, setTypes] = useState<FilingTaxType[]>([...FILING_TAX_TYPES]);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (types.length === 0) {
      modal.warning({ title: '提示', content: BATCH_MSG.chooseTaxType, okText: '知道了' });
      return;
    }
    setBusy(true);
    try {
      const r = await call(planCreateCall, {
        filingMonth,
        kind: 'multi',
        scope: aeiIds.length > 0 ? 'selected' : 'all',
        aeiIds,
        taxTypes: types,
      });
      if (!r) return;
      onClose();
      onStarted(r);
      if (r.blocked.length > 0 || r.noQysh.length > 0) showLeftOut(modal, r);
    } catch {
      // told by the request client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="批量申报"
      width={560}
      okText="生成申报计划"
      cancelText="取消"
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      maskClosable={false}
      destroyOnHidden
    >
      <Typography.Paragraph>
        申报月份 <b>{filingMonth}</b>，
        {aeiIds.length > 0 ? (
          <>
            已选择 <b>{aeiIds.length}</b> 家企业
          </>
        ) : (
          '全部企业'
        )}
      </Typography.Paragraph>
      <div className="dzy-batch-section-title">
        <span>申报税种</span>
        <Checkbox
          checked={types.length === FILING_TAX_TYPES.length}
          indeterminate={types.length > 0 && types.length < FILING_TAX_TYPES.length}
          onChange={(e) => setTypes(e.target.checked ? [...FILING_TAX_TYPES] : [])}
        >
          全选
        </Checkbox>
      </div>
      <Checkbox.Group
        className="dzy-batch-types"
        value={types}
        onChange={(v) => setTypes(v as FilingTaxType[])}
        options={FILING_TAX_TYPES.map((t) => ({ value: t, label: FILING_TAX_TYPE_NAMES[t] }))}
      />
      <Typography.Paragraph type="secondary" className="dzy-batch-hint" style={{ marginTop: 12, marginBottom: 0 }}>
        只为本月应申报且尚未申报的税种生成申报计划（未申报、逾期未申报）；生成后先核对金额，确认后才会提交到电子税务局。
      </Typography.Paragraph>
    </Modal>
  );
}
