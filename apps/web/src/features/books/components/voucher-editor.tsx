import { SaveOutlined } from '@ant-design/icons';
import {
  type BookAccount,
  type BookInfo,
  nextNumberCall,
  saveTemplateCall,
  saveVoucherCall,
  type Voucher,
  yuanTextToFen,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Input, InputNumber, Modal, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { TemplatePicker } from './template-picker';
import { accountLabel, blankRow, type GridRow, gridProblem, rowsToLines, VoucherGrid } from './voucher-grid';

const fenText = (f: number) => (f ? (f / 100).toFixed(2) : '');

function rowsOf(v: Voucher | null, chart: readonly BookAccount[]): GridRow[] {
  if (!v) return [blankRow(), blankRow(), blankRow(), blankRow()];
  const byId = new Map(chart.map((a) => [a.id, a]));
  const rows = v.lines.map((l) => {
    const a = byId.get(l.accountId);
    return {
      ...blankRow(),
      summary: l.summary,
      accountId: l.accountId,
      accountText: a ? accountLabel(a) : `${l.accountCode} ${l.accountName}`,
      auxItemId: l.auxItemId,
      debit: fenText(l.debit),
      credit: fenText(l.credit),
    };
  });
  return rows.length < 4 ? [...rows, ...Array.from({ length: 4 - rows.length }, blankRow)] : rows;
}

/** The date a new voucher starts with: today inside the book's open period, else that period's last day. */
function defaultDate(book: BookInfo): string {
  const today = dayjs().format('YYYY-MM-DD');
  if (today.slice(0, 7) === book.currentPeriod) return today;
  return dayjs(`${book.currentPeriod}-01`).endOf('month').format('YYYY-MM-DD');
}

/**
 * 录入凭证 / 修改凭证: the voucher's head (记字第N号, 日期, 附单据) over the grid; 保存 (Ctrl+S), 保存并新增
 * (Ctrl+Enter … as 柠檬云: F12), 存为常用凭证 and 从常用凭证.
 */
export function VoucherEditor({
  open,
  book,
  chart,
  voucher,
  onClose,
}: {
  open: boolean;
  book: BookInfo;
  chart: readonly BookAccount[];
  /** null: a new voucher. */
  voucher: Voucher | null;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const [rows, setRows] = useState<GridRow[]>(() => rowsOf(voucher, chart));
  const [vdate, setVdate] = useState(voucher?.vdate ?? defaultDate(book));
  const [attachments, setAttachments] = useState(voucher?.attachments ?? 0);
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const [templateName, setTemplateName] = useState<string | null>(null);
  const locked = voucher?.review === 'reviewed' || (voucher ? voucher.period < book.currentPeriod : false);

  useEffect(() => {
    if (!open) return;
    setRows(rowsOf(voucher, chart));
    setVdate(voucher?.vdate ?? defaultDate(book));
    setAttachments(voucher?.attachments ?? 0);
    setTried(false);
  }, [open, voucher, chart, book]);

  const period = vdate.slice(0, 7);
  const next = useQuery({
    queryKey: [nextNumberCall.path, book.bookId, period],
    queryFn: () => call(nextNumberCall, { bookId: book.bookId, period }),
    enabled: open && !voucher,
  });
  const number = voucher ? voucher.number : next.data?.number;
  const problem = gridProblem(rows);
  const started = rowsToLines(rows).length > 0;

  const save = async (andNew: boolean) => {
    setTried(true);
    if (problem) {
      toast('warning', problem);
      return;
    }
    setSaving(true);
    try {
      const saved = await call(saveVoucherCall, {
        bookId: book.bookId,
        ...(voucher ? { voucherId: voucher.id } : {}),
        vdate,
        attachments,
        lines: rowsToLines(rows),
      });
      if (!saved) return;
      toast('success', `已保存 ${saved.word}-${saved.number}`);
      await qc.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith('books/') || String(q.queryKey[0]).startsWith('user/setUp'),
      });
      if (andNew) {
        setRows(rowsOf(null, chart));
        setTried(false);
        setTimeout(() => document.querySelector<HTMLInputElement>('[data-cell="0:summary"] input')?.focus(), 50);
      } else onClose();
    } catch {
      /* told by the client */
    } finally {
      setSaving(false);
    }
  };

  const saveTemplate = async () => {
    const name = templateName?.trim();
    if (!name) return;
    const byId = new Map(chart.map((a) => [a.id, a]));
    const lines = rowsToLines(rows)
      .filter((l) => l.accountId)
      .map((l) => ({
        summary: l.summary,
        code: byId.get(l.accountId)?.code ?? '',
        debit: Number.isNaN(l.debit) ? 0 : l.debit,
        credit: Number.isNaN(l.credit) ? 0 : l.credit,
      }));
    try {
      await call(saveTemplateCall, { name, lines });
      toast('success', '已存为常用凭证');
      setTemplateName(null);
    } catch {
      /* told */
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      width={1080}
      title={voucher ? '修改凭证' : '录入凭证'}
      destroyOnHidden
      maskClosable={false}
      footer={
        locked ? (
          <Button onClick={onClose}>关闭</Button>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button onClick={() => setTemplateName('')} disabled={!started}>
              存为常用凭证
            </Button>
            {voucher ? null : (
              <Button loading={saving} onClick={() => save(true)} data-testid="save-new">
                保存并新增
              </Button>
            )}
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={saving}
              onClick={() => save(false)}
              data-testid="save-voucher"
            >
              保存
            </Button>
          </Space>
        )
      }
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: shortcuts (Ctrl+S, F12) for the inputs inside */}
      <div
        className="dzy-voucher-editor"
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
            e.preventDefault();
            void save(false);
          } else if (e.key === 'F12') {
            e.preventDefault();
            void save(true);
          }
        }}
      >
        <div className="dzy-voucher-head">
          <Space size="large" wrap>
            <span className="dzy-voucher-no" data-testid="voucher-no">
              记 字 第 <strong>{number ?? '—'}</strong> 号
            </span>
            <span>
              日期{' '}
              <DatePicker
                allowClear={false}
                value={dayjs(vdate)}
                disabled={Boolean(voucher) && locked}
                disabledDate={(d) =>
                  d.format('YYYY-MM') < book.currentPeriod || (voucher ? d.format('YYYY-MM') !== voucher.period : false)
                }
                onChange={(d) => d && setVdate(d.format('YYYY-MM-DD'))}
                data-testid="voucher-date"
              />
            </span>
            <span>
              附单据{' '}
              <InputNumber
                min={0}
                max={999}
                precision={0}
                value={attachments}
                disabled={locked}
                onChange={(v) => setAttachments(Number(v ?? 0))}
                style={{ width: 72 }}
                data-testid="voucher-attachments"
              />{' '}
              张
            </span>
          </Space>
          <Space>
            {locked ? null : (
              <TemplatePicker
                bookId={book.bookId}
                onApply={(lines) => {
                  const byId = new Map(chart.map((a) => [a.id, a]));
                  const applied = lines.map((l) => {
                    const a = byId.get(l.accountId);
                    return {
                      ...blankRow(),
                      summary: l.summary,
                      accountId: l.accountId,
                      accountText: a ? accountLabel(a) : '',
                      debit: fenText(l.debit),
                      credit: fenText(l.credit),
                    };
                  });
                  setRows(
                    applied.length < 4
                      ? [...applied, ...Array.from({ length: 4 - applied.length }, blankRow)]
                      : applied,
                  );
                }}
              />
            )}
            <Typography.Text type="secondary" className="dzy-voucher-keys">
              Enter 下一格 · = 自动配平 · Ctrl+S 保存 · F12 保存并新增
            </Typography.Text>
          </Space>
        </div>
        {voucher?.review === 'reviewed' ? (
          <Alert type="info" showIcon message="凭证已审核，如需修改请先反审核" style={{ marginBottom: 8 }} />
        ) : null}
        <VoucherGrid bookId={book.bookId} chart={chart} rows={rows} onChange={setRows} readOnly={locked} />
        <div className="dzy-voucher-problem" data-testid="voucher-problem">
          {(tried || (started && problem?.startsWith('借贷不平衡'))) && problem ? (
            <Alert type="warning" showIcon message={problem} />
          ) : null}
        </div>
        {voucher ? (
          <Typography.Text type="secondary">
            制单人：{voucher.creatorName}
            {voucher.reviewerName ? `　审核人：${voucher.reviewerName}` : ''}
          </Typography.Text>
        ) : null}
      </div>
      <Modal
        open={templateName !== null}
        title="存为常用凭证"
        onCancel={() => setTemplateName(null)}
        onOk={saveTemplate}
        okText="保存"
        okButtonProps={{ disabled: !templateName?.trim() }}
      >
        <Input
          placeholder="常用凭证名称，如：计提工资"
          maxLength={40}
          value={templateName ?? ''}
          onChange={(e) => setTemplateName(e.target.value)}
        />
      </Modal>
    </Modal>
  );
}

export { yuanTextToFen };
