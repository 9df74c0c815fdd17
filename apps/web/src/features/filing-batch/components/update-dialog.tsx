import {
  FILING_BATCH_MSG,
  FILING_UPDATE_EMPTY_POLLS,
  FILING_UPDATE_POLL_MS,
  runRateCall,
  updateGssbCall,
} from '@dzy/shared';
import { Button, List, Progress, Space, Steps, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../../lib/request';
import { ProgressBall } from './progress-ball';

export interface UpdateClient {
  aeiId: number;
  qymc: string;
}

/** One client's outcome: loading, then done (load false) or error (isErr, 数据更新失败) — tax-bureau.md §4. */
interface Outcome extends UpdateClient {
  load: boolean;
  isErr: boolean;
  message: string;
}

const sleep = (ms: number) => new Promise((ok) => window.setTimeout(ok, ms));

/**
 * 更新 (tax-bureau.md §2, §4 individual update): 1 confirm the clients, 2 client after client — start
 * an update run for one client and poll it every 2 s; 10 polls without an outcome → 数据更新失败 and the
 * next client — 3 the success and failure tables. Expanded (Bulletin) or shrunk to the ball (Ball).
 */
export function UpdateDialog({
  open,
  planId,
  clients,
  onClose,
  onUpdated,
}: {
  open: boolean;
  planId: number;
  clients: UpdateClient[];
  onClose: () => void;
  /** A client's figures changed: the plan is read again. */
  onUpdated: () => void;
}) {
  const [step, setStep] = useState(0);
  const [shrunk, setShrunk] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const alive = useRef(0);

  useEffect(() => {
    if (!open) {
      alive.current += 1;
      setStep(0);
      setShrunk(false);
      setOutcomes([]);
    }
  }, [open]);

  const start = async () => {
    const run = ++alive.current;
    setStep(1);
    const list: Outcome[] = clients.map((c) => ({ ...c, load: true, isErr: false, message: '' }));
    setOutcomes([...list]);
    const settle = (i: number, isErr: boolean, message: string) => {
      list[i] = { ...(list[i] as Outcome), load: false, isErr, message };
      if (run === alive.current) setOutcomes([...list]);
    };
    for (let i = 0; i < list.length; i++) {
      if (run !== alive.current) return;
      const c = list[i] as Outcome;
      const started = await call(updateGssbCall, { planId, aeiId: c.aeiId }, { handle: 'all' }).catch((e: Error) => e);
      if (started instanceof Error || !started) {
        settle(i, true, started instanceof Error ? started.message : FILING_BATCH_MSG.updateFailed);
        continue;
      }
      let settled = false;
      for (let empty = 0; empty < FILING_UPDATE_EMPTY_POLLS && !settled; empty++) {
        await sleep(FILING_UPDATE_POLL_MS);
        if (run !== alive.current) return;
        const r = await call(runRateCall, { redisKey: started.redisKey }, { handle: 'all' }).catch(() => null);
        if (r && (r.state !== 'running' || r.completeNum >= r.totalNum)) {
          settled = true;
          if (r.successNum > 0) settle(i, false, '数据已更新');
          else settle(i, true, FILING_BATCH_MSG.updateFailed);
          onUpdated();
        }
      }
      if (!settled) settle(i, true, FILING_BATCH_MSG.updateFailed);
    }
    if (run === alive.current) setStep(2);
  };

  const done = outcomes.filter((o) => !o.load).length;
  const percent = outcomes.length ? Math.floor((done * 100) / outcomes.length) : 0;
  const ok = outcomes.filter((o) => !o.load && !o.isErr);
  const bad = outcomes.filter((o) => !o.load && o.isErr);
  const table = (rows: Outcome[], fail: boolean) => (
    <Table<Outcome>
      size="small"
      rowKey="aeiId"
      dataSource={rows}
      pagination={false}
      scroll={{ y: 240 }}
      locale={{ emptyText: fail ? '没有失败的企业' : '没有成功的企业' }}
      columns={[
        { title: '企业名称', dataIndex: 'qymc', key: 'qymc' },
        {
          title: '状态',
          key: 'state',
          width: 110,
          render: () => <Tag color={fail ? 'error' : 'success'}>{fail ? '更新失败' : '更新成功'}</Tag>,
        },
        {
          title: '说明',
          dataIndex: 'message',
          key: 'message',
          width: 200,
          render: (v: string) => <span className={fail ? 'dzy-plan-msg' : undefined}>{v}</span>,
        },
      ]}
    />
  );

  return (
    <ProgressBall
      open={open}
      shrunk={shrunk && step === 1}
      shrinkable={step === 1}
      onShrink={() => setShrunk(true)}
      onExpand={() => setShrunk(false)}
      onClose={onClose}
      title="更新个税申报数据"
      percent={percent}
      done={step === 2}
      width={640}
      testId="update-dialog"
      footer={
        step === 0 ? (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" onClick={() => void start()} disabled={clients.length === 0}>
              开始更新
            </Button>
          </Space>
        ) : step === 1 ? (
          <Button onClick={() => setShrunk(true)}>后台运行</Button>
        ) : (
          <Button type="primary" onClick={onClose}>
            完成
          </Button>
        )
      }
    >
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 20 }}
        items={[{ title: '确认企业' }, { title: '更新中' }, { title: '更新结果' }]}
      />
      {step === 0 && (
        <>
          <Typography.Paragraph>
            将为以下 <b>{clients.length}</b> 家企业重新获取最近一次已申报月份的人员和工资，并重新计算本期申报数据：
          </Typography.Paragraph>
          <List
            size="small"
            bordered
            style={{ maxHeight: 260, overflow: 'auto' }}
            dataSource={clients}
            renderItem={(c) => <List.Item>{c.qymc}</List.Item>}
          />
        </>
      )}
      {step === 1 && (
        <div className="dzy-batch-progress">
          <Progress percent={percent} status="active" />
          <List
            size="small"
            style={{ maxHeight: 260, overflow: 'auto' }}
            dataSource={outcomes}
            renderItem={(o) => (
              <List.Item
                extra={
                  o.load ? (
                    <Tag color="processing">更新中</Tag>
                  ) : o.isErr ? (
                    <Tag color="error">{o.message}</Tag>
                  ) : (
                    <Tag color="success">更新成功</Tag>
                  )
                }
              >
                {o.qymc}
              </List.Item>
            )}
          />
        </div>
      )}
      {step === 2 && (
        <>
          <div className="dzy-batch-section-title">
            成功 <Tag color="success">{ok.length}</Tag>
          </div>
          {table(ok, false)}
          <div className="dzy-batch-section dzy-batch-section-title">
            失败 <Tag color="error">{bad.length}</Tag>
          </div>
          {table(bad, true)}
        </>
      )}
    </ProgressBall>
  );
}
