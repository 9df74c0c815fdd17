import { confirmPlanCall, FILING_BATCH_MSG, planItemsCall, taxFenToYuan, taxYuanToFen } from '@dzy/shared';
import { Alert, Checkbox, Modal, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../lib/money';
import { call } from '../../../lib/request';
import type { PlanItem } from '../api';
import { periodOf, taxName } from './item-cells';
import type { FollowedRun } from './run-ball';

/** The returns 确认申报 would file: the chosen rows that are 待申报, or every 待申报 return of the plan. */
async function plannedOf(planId: number, chosen: PlanItem[] | null): Promise<PlanItem[]> {
  if (chosen) return chosen.filter((i) => i.state === 'planned');
  const out: PlanItem[] = [];
  let cursor: string | undefined;
  for (let pageNum = 1; pageNum <= 1000; pageNum++) {
    const r = await call(planItemsCall, {
      planId,
      state: 'planned',
      keyword: '',
      flaggedOnly: false,
      pageNum,
      pageSize: 100,
      ...(cursor ? { cursor } : {}),
    });
    if (!r) break;
    out.push(...r.list);
    if (out.length >= r.total || r.list.length === 0) break;
    cursor = r.cursor?.next ?? undefined;
  }
  return out;
}

/**
 * 确认申报: one dialog with the returns to file, the total tax, the flagged ones, the ones waiting for
 * the client, and the overdue ones with the 逾期申报告知 checkbox (required to go on when there are any).
 */
export function ConfirmFileDialog({
  planId,
  chosen,
  waitingClient,
  open,
  onClose,
  onStarted,
}: {
  planId: number;
  /** The rows chosen on the page; null = every 待申报 return. */
  chosen: PlanItem[] | null;
  waitingClient: number;
  open: boolean;
  onClose: () => void;
  onStarted: (run: FollowedRun) => void;
}) {
  const [items, setItems] = useState<PlanItem[] | null>(null);
  const [late, setLate] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setItems(null);
    setLate(false);
    let alive = true;
    void plannedOf(planId, chosen)
      .then((list) => alive && setItems(list))
      .catch(() => alive && setItems([]));
    return () => {
      alive = false;
    };
  }, [open, planId, chosen]);

  const list = items ?? [];
  const total = taxFenToYuan(list.reduce((s, i) => s + (taxYuanToFen(i.ybtse) ?? 0), 0));
  const flagged = list.filter((i) => i.flagged).length;
  const overdue = list.filter((i) => i.overdue);
  const go = async () => {
    setBusy(true);
    try {
      const r = await call(confirmPlanCall, {
        planId,
        ...(chosen ? { itemIds: list.map((i) => i.itemId) } : {}),
        lateNotice: overdue.length > 0 && late,
      });
      if (r) {
        onClose();
        onStarted({ redisKey: r.redisKey, planId, kind: 'file' });
      }
    } catch {
      // told by the request client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={FILING_BATCH_MSG.confirmTitle}
      width={600}
      okText="确认申报"
      cancelText="取消"
      onCancel={onClose}
      onOk={() => void go()}
      confirmLoading={busy}
      okButtonProps={{ disabled: !items || list.length === 0 || (overdue.length > 0 && !late) }}
      maskClosable={false}
      destroyOnHidden
    >
      <div data-testid="confirm-file" className="dzy-plan-confirm">
        {!items ? (
          <Spin />
        ) : list.length === 0 ? (
          <Alert type="warning" showIcon message={FILING_BATCH_MSG.nothingToFile} />
        ) : (
          <>
            <Typography.Paragraph>
              {FILING_BATCH_MSG.confirmText(list.length, formatMoney(total), flagged, waitingClient)}
            </Typography.Paragraph>
            {overdue.length > 0 && (
              <>
                <Alert type="warning" showIcon message={FILING_BATCH_MSG.confirmLate(overdue.length)} />
                <ul>
                  {overdue.map((i) => (
                    <li key={i.itemId}>
                      {i.qymc} · {taxName(i.taxType)} · {periodOf(i)}（期限 {i.sbqx}）
                    </li>
                  ))}
                </ul>
                <Checkbox checked={late} onChange={(e) => setLate(e.target.checked)} data-testid="late-notice">
                  我已阅读并确认逾期申报告知，同意办理逾期申报
                </Checkbox>
              </>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
