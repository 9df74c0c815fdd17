import { Button, Progress, Segmented, Space, Table, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePagedList } from '../../../lib/paging';
import { BATCH_KEYS, type PlanItem, planItemsCall, RUN_KIND_NAMES, type RunKind } from '../api';
import type { FollowedRun } from '../followed-run';
import { runDone, useRunRate } from '../use-run';
import { ClientCell, ItemStateCell, MoneyCell, PayCell, periodOf, SourceTag, taxName, taxShort } from './item-cells';
import { ProgressBall, RateFigures } from './progress-ball';

export type { FollowedRun };

/** Per-client per-return results of a plan (the dialog at 100 %), failures first when asked. */
export function RunResults({ planId, kind, version }: { planId: number; kind: RunKind; version: number }) {
  const [only, setOnly] = useState<'all' | 'failed'>('all');
  const failedState = kind === 'generate' ? 'planFailed' : kind === 'pay' ? undefined : 'rejected';
  const failedOnly = only === 'failed' && failedState !== undefined;
  const list = usePagedList(
    planItemsCall,
    {
      planId,
      keyword: '',
      flaggedOnly: false,
      ...(failedOnly ? { state: failedState } : {}),
    },
    { pageSize: 10, queryKey: [...BATCH_KEYS.items, 'run', version] },
  );
  const data = list.data;
  return (
    <div className="dzy-batch-section" data-testid="run-results">
      <div className="dzy-batch-section-title">
        <span>各企业申报结果</span>
        {failedState && (
          <Segmented
            size="small"
            value={only}
            onChange={(v) => setOnly(v as 'all' | 'failed')}
            options={[
              { value: 'all', label: '全部' },
              { value: 'failed', label: '仅看失败' },
            ]}
          />
        )}
      </div>
      <Table<PlanItem>
        size="small"
        rowKey="itemId"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        scroll={{ x: 870 }}
        pagination={{ ...list.pagination, size: 'small', showSizeChanger: false }}
        locale={{ emptyText: '暂无需要申报的税种' }}
        columns={[
          { title: '企业名称', key: 'qymc', width: 200, fixed: 'left', render: (_, r) => <ClientCell item={r} /> },
          {
            title: '税种',
            key: 'taxType',
            width: 110,
            render: (_, r) => (
              <div>
                <Tooltip title={taxName(r.taxType)}>
                  <span>{taxShort(r.taxType)}</span>
                </Tooltip>
                <div className="dzy-plan-sub">{periodOf(r)}</div>
              </div>
            ),
          },
          {
            title: kind === 'pay' ? '缴款状态' : '状态',
            key: 'state',
            width: 210,
            render: (_, r) => (kind === 'pay' ? <PayCell item={r} /> : <ItemStateCell item={r} />),
          },
          { title: '来源', key: 'source', width: 100, render: (_, r) => <SourceTag item={r} /> },
          {
            title: '收入总额',
            key: 'srze',
            width: 120,
            align: 'right',
            render: (_, r) => <MoneyCell value={r.srze} />,
          },
          {
            title: '应补(退)税额',
            key: 'ybtse',
            width: 120,
            align: 'right',
            render: (_, r) => <MoneyCell value={r.ybtse} />,
          },
        ]}
      />
    </div>
  );
}

/**
 * The progress of a run as a dialog that shrinks to the ball (double-click expands it); at 100 % it
 * widens to 80 % of the window with the per-client per-return results and a link to the plan.
 */
export function RunBall({
  run,
  onClose,
  onDone,
  inPlan = false,
  startShrunk = false,
}: {
  run: FollowedRun | null;
  onClose: () => void;
  onDone?: () => void;
  /** Shown on the plan page itself: no 查看申报计划. */
  inPlan?: boolean;
  startShrunk?: boolean;
}) {
  const [shrunk, setShrunk] = useState(startShrunk);
  const rate = useRunRate(run?.redisKey ?? null);
  const r = rate.data;
  const done = runDone(r);
  const navigate = useNavigate();
  const key = run?.redisKey;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per run when it ends
  useEffect(() => {
    if (done && key) onDone?.();
  }, [done, key]);
  if (!run) return null;
  const percent = r ? (done ? 100 : Math.min(99, r.rate)) : 0;
  const name = RUN_KIND_NAMES[run.kind];
  return (
    <ProgressBall
      open
      shrunk={shrunk}
      onShrink={() => setShrunk(true)}
      onExpand={() => setShrunk(false)}
      onClose={() => (done ? onClose() : setShrunk(true))}
      title={done ? `${name}完成` : `${name}中`}
      percent={percent}
      done={done}
      wide={done}
      testId="run-dialog"
      footer={
        done ? (
          <Space>
            <Button onClick={onClose}>关闭</Button>
            {!inPlan && (
              <Button
                type="primary"
                data-testid="open-plan"
                onClick={() => {
                  onClose();
                  navigate(`/declare/sbjh?planId=${run.planId}`);
                }}
              >
                查看申报计划
              </Button>
            )}
          </Space>
        ) : (
          <Button onClick={() => setShrunk(true)}>后台运行</Button>
        )
      }
    >
      <div className="dzy-batch-progress">
        <Progress percent={percent} status={done ? (r && r.failNum > 0 ? 'exception' : 'success') : 'active'} />
        {r && <RateFigures rate={r} />}
        {!done && (
          <Typography.Text type="secondary" className="dzy-batch-hint">
            正在逐户处理，可缩小为悬浮球继续其他工作，双击悬浮球展开。
          </Typography.Text>
        )}
      </div>
      {done && <RunResults planId={run.planId} kind={run.kind} version={r?.completeNum ?? 0} />}
    </ProgressBall>
  );
}
