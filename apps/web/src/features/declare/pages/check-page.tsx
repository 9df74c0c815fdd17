import { PauseCircleOutlined, PlayCircleOutlined, SelectOutlined } from '@ant-design/icons';
import {
  CHECK_MSG,
  CHECK_SELECT_MAX,
  type ChooserItem,
  checkQyshCountCall,
  defaultSsq,
  IS_CHECKS,
  lastCheckInfoCall,
  SSQ_MIN,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Progress, Radio, Space, Tabs, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Auth } from '../../../components/auth';
import { EnterpriseChooser } from '../../../components/enterprise-chooser/enterprise-chooser';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { DECLARE_KEYS } from '../api';
import { ResultTable } from '../components/result-table';
import { SummaryLogs } from '../components/summary-logs';
import { useCheckMachine } from '../use-check-machine';
import '../declare.css';

const MIN_MONTH = dayjs(`${SSQ_MIN}-01`);

/** 报税检查 (/declare/bssz): check many enterprises at the e-tax bureau in the background and read the outcomes. */
export function CheckPage() {
  useDocumentTitle('报税检查');
  return (
    <LinkedAgencyGuard>
      <CheckPageBody />
    </LinkedAgencyGuard>
  );
}

function CheckPageBody() {
  const { modal } = App.useApp();
  const m = useCheckMachine({
    onBlocked: (list) =>
      modal.warning({
        title: CHECK_MSG.blockedTitle,
        width: 560,
        content: (
          <div className="dzy-check-blocked">
            <Typography.Paragraph type="secondary">
              合同提醒设置中「申报」为提醒并限制操作：这些企业须续费或新建合同后才能检查，其余企业照常检查。
            </Typography.Paragraph>
            <ul>
              {list.map((b) => (
                <li key={b.aeiId}>
                  <Typography.Text strong>{b.qymc}</Typography.Text>
                  <Typography.Text type="danger">{b.warning}</Typography.Text>
                </li>
              ))}
            </ul>
          </div>
        ),
        okText: '知道了',
      }),
  });
  const [ssq, setSsq] = useState<Dayjs>(dayjs(`${defaultSsq()}-01`));
  const [scope, setScope] = useState<'all' | 'selected'>('all');
  const [chosen, setChosen] = useState<ChooserItem[]>([]);
  const [picking, setPicking] = useState(false);
  const [tab, setTab] = useState('results');

  const qyshCount = useQuery({ queryKey: DECLARE_KEYS.qyshCount, queryFn: () => call(checkQyshCountCall, {}) });
  const last = useQuery({
    queryKey: [...DECLARE_KEYS.all, 'last', m.batchId],
    queryFn: () => call(lastCheckInfoCall, {}),
  });
  const running = m.isChecks === IS_CHECKS.started;
  const maxMonth = dayjs(`${defaultSsq()}-01`);

  const run = (list: ChooserItem[]) => {
    void m.start({ ssq: ssq.format('YYYY-MM'), scope, aeiIds: scope === 'selected' ? list.map((c) => c.id) : [] });
    setTab('results');
  };
  const start = () => {
    if (scope === 'selected' && chosen.length === 0) setPicking(true);
    else run(chosen);
  };
  const stop = () =>
    modal.confirm({
      title: '停止检查',
      content: '停止后，尚未检查的企业将不再检查，已完成的结果会保留。确定停止吗？',
      okText: '停止检查',
      okButtonProps: { danger: true },
      cancelText: '继续检查',
      onOk: () => m.stop(),
    });
  const retry = async (aeiIds: number[]) => {
    const ok = await m.start({ ssq: m.rate?.ssq ?? ssq.format('YYYY-MM'), scope: 'selected', aeiIds });
    if (ok) setTab('results');
    return ok;
  };

  const r = m.rate;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" className="dzy-check-panel" title="报税检查">
        <div className="dzy-check-form">
          <span className="dzy-check-form-item">
            <span className="dzy-check-form-label">所属期</span>
            <DatePicker
              picker="month"
              allowClear={false}
              value={ssq}
              disabled={running}
              onChange={(v) => v && setSsq(v)}
              disabledDate={(d) => d.isBefore(MIN_MONTH, 'month') || d.isAfter(maxMonth, 'month')}
              data-testid="check-ssq"
            />
          </span>
          <span className="dzy-check-form-item">
            <span className="dzy-check-form-label">检查范围</span>
            <Radio.Group value={scope} disabled={running} onChange={(e) => setScope(e.target.value)}>
              <Radio value="all">全部企业{qyshCount.data ? `（${qyshCount.data.totalNum} 家）` : ''}</Radio>
              <Radio value="selected">选择企业</Radio>
            </Radio.Group>
            {scope === 'selected' && (
              <Button icon={<SelectOutlined />} disabled={running} onClick={() => setPicking(true)}>
                {chosen.length > 0 ? `已选 ${chosen.length} 家` : '选择企业'}
              </Button>
            )}
          </span>
          <Auth perms={['declare:check:run']}>
            <Space>
              {running ? (
                <Button danger icon={<PauseCircleOutlined />} onClick={stop}>
                  停止检查
                </Button>
              ) : (
                <Button type="primary" icon={<PlayCircleOutlined />} onClick={start}>
                  开始检查
                </Button>
              )}
            </Space>
          </Auth>
        </div>
        {m.isChecks !== IS_CHECKS.idle && r && (
          <div className="dzy-check-progress" data-testid="check-progress">
            <Tag color={running ? 'processing' : 'success'}>
              {running ? '检查中' : r.state === 'stopped' ? '已停止' : '检查完成'}
            </Tag>
            <Progress percent={r.rate} status={running ? 'active' : 'success'} />
            <span className="dzy-check-figures">
              <span>
                已完成 <b data-testid="complete-num">{r.completeNum}</b> / {r.totalNum}
              </span>
              <span>
                成功 <b style={{ color: '#52c41a' }}>{r.successNum}</b>
              </span>
              <span>
                失败 <b style={{ color: '#ff4d4f' }}>{r.failNum}</b>
              </span>
            </span>
          </div>
        )}
        {m.isChecks === IS_CHECKS.idle && last.data && (
          <Typography.Text type="secondary" data-testid="last-check">
            上次检查：{dayjs(last.data.createdAt).format('YYYY-MM-DD HH:mm')}，所属期 {last.data.ssq}，共{' '}
            {last.data.totalNum} 家，成功 {last.data.successNum} 家，失败 {last.data.failNum} 家
            {last.data.state === 'stopped' ? '（已停止）' : ''}
          </Typography.Text>
        )}
      </Card>
      <Card variant="borderless">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'results',
              label: '检查结果',
              children: <ResultTable key={m.batchId ?? 0} batchId={m.batchId} ssq={r?.ssq} />,
            },
            {
              key: 'failed',
              label: `失败列表${r && r.failNum > 0 ? `（${r.failNum}）` : ''}`,
              children: (
                <ResultTable
                  key={m.batchId ?? 0}
                  batchId={m.batchId}
                  ssq={r?.ssq}
                  failed
                  running={running}
                  onRetry={retry}
                />
              ),
            },
            { key: 'logs', label: '检查记录', children: <SummaryLogs /> },
          ]}
        />
      </Card>
      <EnterpriseChooser
        multiple
        max={CHECK_SELECT_MAX}
        title="选择企业"
        open={picking}
        initial={chosen}
        onCancel={() => setPicking(false)}
        // Choosing enterprises here is for checking them: confirming the choice starts the check.
        okText="开始检查"
        onOk={(list) => {
          setChosen(list);
          setPicking(false);
          run(list);
        }}
      />
    </Space>
  );
}
