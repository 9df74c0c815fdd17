import { ShrinkOutlined } from '@ant-design/icons';
import { Button, Modal, Progress, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** What a batch shows while it runs (any run's progress: generate, file, pay, update). */
export interface BallRate {
  totalNum: number;
  successNum: number;
  failNum: number;
  completeNum: number;
  rate: number;
}

/** The figures under a progress bar: 已完成 n / N, 成功, 失败. */
export function RateFigures({ rate }: { rate: BallRate }) {
  return (
    <span className="dzy-batch-figures" data-testid="batch-figures">
      <span>
        已完成 <b data-testid="batch-complete">{rate.completeNum}</b> / {rate.totalNum}
      </span>
      <span>
        成功 <b className="dzy-batch-ok">{rate.successNum}</b>
      </span>
      <span>
        失败 <b className="dzy-batch-bad">{rate.failNum}</b>
      </span>
    </span>
  );
}

/**
 * A batch dialog that can shrink to a ball (tax-bureau.md §2): expanded it is a dialog (`children`);
 * shrunk it is a small round indicator floating at the bottom right with the percent, which a double
 * click expands again. `wide` widens the expanded dialog to 80 % of the window (the multi-tax dialog at
 * 100 %, §9).
 */
export function ProgressBall({
  open,
  shrunk,
  onShrink,
  onExpand,
  onClose,
  title,
  percent,
  done,
  wide,
  width = 640,
  wideWidth = '80%',
  footer,
  closable = true,
  shrinkable = true,
  children,
  testId = 'batch-dialog',
}: {
  open: boolean;
  shrunk: boolean;
  onShrink: () => void;
  onExpand: () => void;
  onClose: () => void;
  title: ReactNode;
  percent: number;
  done: boolean;
  wide?: boolean;
  width?: number;
  /** The expanded width when `wide` (default 80 % of the window). */
  wideWidth?: string;
  footer?: ReactNode;
  closable?: boolean;
  shrinkable?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  if (!open) return null;
  return (
    <>
      <Modal
        open={!shrunk}
        title={
          <div className="dzy-batch-title">
            <span>{title}</span>
            {shrinkable && (
              <Tooltip title="缩小为悬浮球，双击悬浮球可展开">
                <Button
                  type="text"
                  size="small"
                  icon={<ShrinkOutlined />}
                  onClick={onShrink}
                  aria-label="缩小"
                  data-testid="ball-shrink"
                />
              </Tooltip>
            )}
          </div>
        }
        width={wide ? wideWidth : width}
        maskClosable={false}
        closable={closable}
        keyboard={false}
        onCancel={onClose}
        footer={footer ?? null}
        destroyOnHidden={false}
        forceRender
        wrapClassName="dzy-batch-modal"
      >
        <div data-testid={testId}>{children}</div>
      </Modal>
      {shrunk && (
        <Tooltip title="双击展开" placement="left">
          <button
            type="button"
            className={`dzy-batch-ball${done ? ' dzy-batch-ball-done' : ''}`}
            data-testid="progress-ball"
            onDoubleClick={onExpand}
            aria-label={`进度 ${percent}%，双击展开`}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') onExpand();
            }}
          >
            <Progress
              type="circle"
              size={64}
              percent={percent}
              status={done ? 'success' : 'active'}
              format={(p) => <span className="dzy-batch-ball-text">{p}%</span>}
            />
          </button>
        </Tooltip>
      )}
    </>
  );
}
