import { confirmPlanCall, FILING_BATCH_MSG, planItemsCall, taxFenToYuan, taxYuanToFen } from '@dzy/shared';
import { Alert, Checkbox, Modal, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../lib/money';
import { call } from '../../../lib/request';
import type { PlanItem } from '../api';
import { periodOf, taxName } from './item-cells';
import type { FollowedRun } from './run-ball';

/** The overdue returns listed by name in the dialog at most (the count is always the whole). */
const OVERDUE_LISTED = 50;

interface ToFile {
  num: number;
  ybtse: string;
  flagged: number;
  /** Overdue returns: how many, and the first of them by name. */
  overdueNum: number;
  overdue: PlanItem[];
}

/**
 * What 确认申报 would file: the chosen rows that are 待申报, or every 待申报 return of the plan — counted
 * by the server (one call, whatever the plan's size), with the first overdue ones by name.
 */
async function toFileOf(planId: number, chosen: PlanItem[] | null): Promise<ToFile> {
  if (chosen) {
    const list = chosen.filter((i) => i.state === 'planned');
    const overdue = list.filter((i) => i.overdue);
    return {
      num: list.length,
      ybtse: taxFenToYuan(list.reduce((s, i) => s + (taxYuanToFen(i.ybtse) ?? 0), 0)),
      flagged: list.filter((i) => i.flagged).length,
      overdueNum: overdue.length,
      overdue: overdue.slice(0, OVERDUE_LISTED),
    };
  }
  const r = await call(planItemsCall, {
    planId,
    state: 'planned',
    keyword: '',
    flaggedOnly: false,
    overdueOnly: true,
    pageNum: 1,
    pageSize: OVERDUE_LISTED,
  });
  if (!r) return { num: 0, ybtse: '0.00', flagged: 0, overdueNum: 0, overdue: [] };
  const s = r.sums;
  return {
    num: s.toFile,
    ybtse: s.toFileYbtse,
    flagged: s.toFileFlagged,
    overdueNum: s.toFileOverdue,
    overdue: r.list,
  };
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
  const [items, setItems] = useState<ToFile | null>(null);
  const [late, setLate] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setItems(null);
    setLate(false);
    let alive = true;
    void toFileOf(planId, chosen)
      .then((t) => alive && setItems(t))
      .catch(() => alive && setItems({ num: 0, ybtse: '0.00', flagged: 0, overdueNum: 0, overdue: [] }));
    return () => {
      alive = false;
    };
  }, [open, planId, chosen]);

  const num = items?.num ?? 0;
  const overdueNum = items?.overdueNum ?? 0;
  const go = async () => {
    setBusy(true);
    try {
      const r = await call(confirmPlanCall, {
        planId,
        ...(chosen ? { itemIds: chosen.filter((i) => i.state === 'planned').map((i) => i.itemId) } : {}),
        lateNotice: overdueNum > 0 && late,
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
      okButtonProps={{ disabled: !items || num === 0 || (overdueNum > 0 && !late) }}
      maskClosable={false}
      destroyOnHidden
    >
      <div data-testid="confirm-file" className="dzy-plan-confirm">
        {!items ? (
          <Spin />
        ) : num === 0 ? (
          <Alert type="warning" showIcon message={FILING_BATCH_MSG.nothingToFile} />
        ) : (
          <>
            <Typography.Paragraph>
              {FILING_BATCH_MSG.confirmText(num, formatMoney(items.ybtse), items.flagged, waitingClient)}
            </Typography.Paragraph>
            {overdueNum > 0 && (
              <>
                <Alert type="warning" showIcon message={FILING_BATCH_MSG.confirmLate(overdueNum)} />
                <ul>
                  {items.overdue.map((i) => (
                    <li key={i.itemId}>
                      {i.qymc} · {taxName(i.taxType)} · {periodOf(i)}（期限 {i.sbqx}）
                    </li>
                  ))}
                  {overdueNum > items.overdue.length && <li>等共 {overdueNum} 张</li>}
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
