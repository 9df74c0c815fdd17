import {
  addMonths,
  INVOICE_POOL_MSG,
  type InvoiceRunStatus,
  POOL_RUN_KIND_NAMES,
  sendTaskToFpPoolCall,
} from '@dzy/shared';
import { Button, Modal, Progress, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { runDone } from '../api';

/** A run's progress: bar, counts, and the failures' dialog when some failed. */
export function RunProgress({ run, onShowFailures }: { run: InvoiceRunStatus; onShowFailures?: () => void }) {
  const done = runDone(run);
  return (
    <div className="dzy-pool-progress" data-testid="pool-run-progress">
      <Typography.Text strong>
        {POOL_RUN_KIND_NAMES[run.kind]} {run.month}
      </Typography.Text>
      <Progress
        percent={run.rate}
        status={done ? (run.failNum > 0 ? 'exception' : 'success') : 'active'}
        size="small"
      />
      <Space size={12}>
        <span data-testid="pool-run-counts">
          {done ? '已完成' : '进行中'}：成功 <b className="dzy-batch-ok">{run.successNum}</b> 户，失败{' '}
          <b className={run.failNum > 0 ? 'dzy-pool-neg' : ''}>{run.failNum}</b> 户，共 {run.totalNum} 户
          {run.kind === 'collect' ? `，发票 ${run.invoiceNum} 张` : ''}
        </span>
        {run.failNum > 0 && onShowFailures && (
          <Button size="small" danger onClick={onShowFailures} data-testid="pool-show-failures">
            查看失败企业
          </Button>
        )}
      </Space>
    </div>
  );
}

/**
 * The tax-retrieval error dialog (business.md §2, §4): the failed clients with a reason each and a
 * checkbox; 重试 needs one chosen (请选择企业) and collects them again inside the same run — the call
 * sends the month after the selected one, type '1', isSave 0 (docs/decisions-15-pool.md "Retry").
 */
export function FailDialog({
  run,
  open,
  onClose,
  onRetried,
  canRetry,
}: {
  run: InvoiceRunStatus;
  open: boolean;
  onClose: () => void;
  onRetried: (taskId: string) => void;
  canRetry: boolean;
}) {
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    if (chosen.length === 0) {
      toast('warning', INVOICE_POOL_MSG.chooseEnterprise);
      return;
    }
    setBusy(true);
    try {
      const r = await call(sendTaskToFpPoolCall, {
        type: '1',
        isSave: 0,
        month: addMonths(run.month, 1),
        aeiIds: chosen,
        taskId: run.taskId,
      });
      if (r) {
        toast('success', `已重新采集 ${r.total} 户`);
        setChosen([]);
        onRetried(r.taskId);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="取数失败企业"
      open={open}
      onCancel={onClose}
      width={760}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>关闭</Button>
          {canRetry && (
            <Button type="primary" loading={busy} onClick={retry} data-testid="pool-retry">
              重试
            </Button>
          )}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        以下企业 {run.month} 的发票未能从电子税务局取得，勾选后点「重试」重新采集。
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="aeiId"
        pagination={false}
        scroll={{ y: 400 }}
        dataSource={run.fail}
        rowSelection={
          canRetry ? { selectedRowKeys: chosen, onChange: (keys) => setChosen(keys.map(Number)) } : undefined
        }
        columns={[
          { title: '序号', key: 'no', width: 60, render: (_, __, i) => i + 1 },
          { title: '企业名称', dataIndex: 'qymc', key: 'qymc', width: 240, ellipsis: true },
          { title: '税号', dataIndex: 'qysh', key: 'qysh', width: 180 },
          { title: '失败原因', dataIndex: 'msg', key: 'msg' },
        ]}
      />
    </Modal>
  );
}
