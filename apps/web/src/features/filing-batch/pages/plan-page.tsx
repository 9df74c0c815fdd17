import {
  CloudDownloadOutlined,
  DollarOutlined,
  LeftOutlined,
  MessageOutlined,
  RedoOutlined,
  SendOutlined,
} from '@ant-design/icons';
import {
  FILING_BATCH_MSG,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPES,
  type FilingTaxType,
  ITEM_STATES,
  type ItemState,
  PLAN_STATE_NAMES,
  payPlanCall,
  planListCall,
  retryPlanCall,
  sendSbqrCall,
  updateItemCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { FilteredMarker, SearchBar, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { formatMoney } from '../../../lib/money';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { downloadPost } from '../../contract-fee/api';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import {
  BATCH_KEYS,
  EVIDENCE_FILES,
  type FilingPlan,
  ITEM_STATE_NAMES,
  type PlanItem,
  planItemsCall,
  RUN_KIND_NAMES,
} from '../api';
import { ConfirmFileDialog } from '../components/confirm-file-dialog';
import {
  ClientCell,
  ConfirmCell,
  ItemStateCell,
  MoneyCell,
  periodOf,
  SourceTag,
  taxName,
  taxShort,
} from '../components/item-cells';
import { ItemDrawer } from '../components/item-drawer';
import { UpdateDialog } from '../components/update-dialog';
import { type FollowedRun, followRun, useFollowedRun } from '../followed-run';
import '../filing-batch.css';

const NO_TAX: readonly string[] = ['cwbb', 'gsnb'];
const KIND_NAMES = { multi: '批量申报', grsds: '个税批量申报' } as const;
const time = (iso: string) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '');

/** 申报计划 (/declare/sbjh, menu 608): the user's plans; ?planId=N one plan's returns. */
export function PlanPage() {
  const [params] = useSearchParams();
  const planId = Number(params.get('planId'));
  useDocumentTitle('申报计划');
  return (
    <LinkedAgencyGuard>
      {Number.isInteger(planId) && planId > 0 ? <PlanDetail planId={planId} /> : <PlanList />}
    </LinkedAgencyGuard>
  );
}

// --- the list of plans ---------------------------------------------------------------------------

function PlanList() {
  const list = usePagedList(planListCall, {}, { queryKey: [...BATCH_KEYS.plans] });
  const columns: ListColumn<FilingPlan>[] = [
    {
      title: '申报计划',
      key: 'planId',
      width: 240,
      render: (_, p) => (
        <Link to={`/declare/sbjh?planId=${p.planId}`} data-testid={`plan-${p.planId}`}>
          {KIND_NAMES[p.kind]} · {p.kind === 'grsds' ? '所属期' : '申报月份'} {p.filingMonth}
        </Link>
      ),
    },
    {
      title: '状态',
      key: 'state',
      width: 150,
      render: (_, p) =>
        p.runState === 'running' && p.runKind ? (
          <Tag color="processing">{RUN_KIND_NAMES[p.runKind]}中</Tag>
        ) : (
          <Tag color={p.state === 'cancelled' ? 'default' : p.state === 'ready' ? 'blue' : 'processing'}>
            {PLAN_STATE_NAMES[p.state]}
          </Tag>
        ),
    },
    { title: '申报表', key: 'itemNum', dataIndex: 'itemNum', width: 90, align: 'right' },
    {
      title: '已申报',
      key: 'filedNum',
      width: 90,
      align: 'right',
      render: (_, p) => <span className="dzy-batch-ok">{p.filedNum}</span>,
    },
    {
      title: '失败',
      key: 'failedNum',
      width: 90,
      align: 'right',
      render: (_, p) => (p.failedNum > 0 ? <span className="dzy-batch-bad">{p.failedNum}</span> : 0),
    },
    { title: '创建人', key: 'userName', dataIndex: 'userName', width: 110, ellipsis: true },
    { title: '创建时间', key: 'createdAt', width: 160, render: (_, p) => time(p.createdAt) },
    {
      title: '操作',
      key: 'action',
      width: 90,
      render: (_, p) => <Link to={`/declare/sbjh?planId=${p.planId}`}>查看</Link>,
    },
  ];
  return (
    <div className="dzy-plan-page">
      <div className="dzy-plan-head">
        <Typography.Text type="secondary">
          在「申报清册」中点击「批量申报」或「个税批量申报」生成申报计划；核对金额后确认申报。
        </Typography.Text>
      </div>
      <ListTable<FilingPlan>
        card
        pageKey="filing-plans"
        nameKey="planId"
        actionKey="action"
        rowKey="planId"
        size="small"
        loading={list.isLoading}
        columns={columns}
        dataSource={list.data?.list ?? []}
        empty={
          <span>
            暂无申报计划，请在<Link to="/declare/sbqc">申报清册</Link>中生成
          </span>
        }
        pagination={list.pagination}
      />
    </div>
  );
}

// --- one plan ------------------------------------------------------------------------------------

interface SearchValues {
  keyword?: string;
  state?: ItemState;
  taxType?: FilingTaxType;
}

function Sum({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string | number;
  tone?: 'ok' | 'bad' | 'warn';
  testId?: string;
}) {
  return (
    <div className="dzy-plan-sum" data-testid={testId}>
      <span className="dzy-plan-sum-label">{label}</span>
      <span
        className={`dzy-plan-sum-value${tone === 'ok' ? ' dzy-batch-ok' : tone === 'bad' ? ' dzy-batch-bad' : ''}`}
        style={tone === 'warn' ? { color: '#fa8c16' } : undefined}
      >
        {value}
      </span>
    </div>
  );
}

function PlanDetail({ planId }: { planId: number }) {
  const { modal } = App.useApp();
  const can = useHasPerm();
  const qc = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [filter, setFilter] = useState<SearchValues & { flaggedOnly: boolean }>({ flaggedOnly: false });
  const [selected, setSelected] = useState<Map<number, PlanItem>>(new Map());
  const [editing, setEditing] = useState<PlanItem | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [updating, setUpdating] = useState<{ aeiId: number; qymc: string }[] | null>(null);
  const run = useFollowedRun();

  const list = usePagedList(
    planItemsCall,
    {
      planId,
      keyword: filter.keyword ?? '',
      flaggedOnly: filter.flaggedOnly,
      ...(filter.state ? { state: filter.state } : {}),
      ...(filter.taxType ? { taxType: filter.taxType } : {}),
    },
    { queryKey: [...BATCH_KEYS.items, planId], pageSize: 20 },
  );
  const data = list.data;
  const plan = data?.plan;
  const sums = data?.sums;
  const refresh = () => void qc.invalidateQueries({ queryKey: BATCH_KEYS.items });

  // A run of this plan still going when the page opens (a reload, another browser): followed as the ball.
  const [resumed, setResumed] = useState(false);
  useEffect(() => {
    if (!resumed && plan) {
      setResumed(true);
      if (plan.runState === 'running' && plan.redisKey && plan.runKind && run?.redisKey !== plan.redisKey)
        followRun({ redisKey: plan.redisKey, planId, kind: plan.runKind });
    }
  }, [plan, planId, resumed, run]);

  const chosen = useMemo(() => [...selected.values()], [selected]);
  // While a run of this plan goes on (the server says so; read again when the followed run ends).
  const locked = plan?.state !== 'ready' || plan?.runState === 'running';
  const canPlan = can(['declare:filing:plan']);

  // --- row actions ------------------------------------------------------------------------------
  const patch = async (item: PlanItem, body: { zero?: boolean; drop?: boolean }, done: string) => {
    try {
      const r = await call(updateItemCall, { itemId: item.itemId, ...body });
      if (r) {
        toast('success', done);
        refresh();
      }
    } catch {
      // told by the request client
    }
  };
  const drop = (item: PlanItem) =>
    modal.confirm({
      title: '移出本次申报',
      content: `${item.qymc} 的${taxName(item.taxType)}（${periodOf(item)}）将不在本计划中申报，之后可恢复。确定移出吗？`,
      okText: '移出',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => patch(item, { drop: true }, FILING_BATCH_MSG.dropped),
    });

  // --- plan actions -----------------------------------------------------------------------------
  const follow = (r: FollowedRun, msg: string) => {
    toast('success', msg);
    setSelected(new Map());
    followRun(r);
    refresh();
  };
  const retry = () =>
    modal.confirm({
      title: '重试失败',
      content: `将重新申报 ${sums?.failed ?? 0} 张申报失败的申报表（已逾期的附逾期申报告知办理逾期申报）。确定重试吗？`,
      okText: '重新申报',
      cancelText: '取消',
      onOk: async () => {
        const r = await call(retryPlanCall, { planId, lateNotice: true }).catch(() => null);
        if (r) follow({ redisKey: r.redisKey, planId, kind: 'file' }, FILING_BATCH_MSG.retryStarted);
      },
    });
  const pay = () => {
    const ids = chosen.filter((i) => i.state === 'filed' && i.payState !== 'paid').map((i) => i.itemId);
    if (chosen.length > 0 && ids.length === 0) {
      toast('warning', FILING_BATCH_MSG.nothingToPay);
      return;
    }
    modal.confirm({
      title: '批量缴款',
      content:
        ids.length > 0
          ? `将通过三方协议从企业账户扣缴所选 ${ids.length} 张已申报申报表的税款。确定缴款吗？`
          : '将通过三方协议从企业账户扣缴本计划中已申报且应补税额大于0的全部税款。确定缴款吗？',
      okText: '确定缴款',
      cancelText: '取消',
      onOk: async () => {
        const r = await call(payPlanCall, { planId, ...(ids.length > 0 ? { itemIds: ids } : {}) }).catch(() => null);
        if (r) follow({ redisKey: r.redisKey, planId, kind: 'pay' }, FILING_BATCH_MSG.payStarted);
      },
    });
  };
  const sendConfirm = async () => {
    const aeiIds = [...new Set(chosen.map((i) => i.aeiId))];
    const r = await call(sendSbqrCall, { planId, aeiIds }).catch(() => null);
    if (!r) return;
    refresh();
    modal.info({
      title: '发送客户确认',
      width: 560,
      okText: '知道了',
      content: (
        <div className="dzy-plan-confirm">
          <Typography.Paragraph>已向 {r.sent} 家企业的联系人发送确认短信。</Typography.Paragraph>
          {r.skipped.length > 0 && (
            <>
              <Typography.Text strong>以下企业未发送：</Typography.Text>
              <ul>
                {r.skipped.map((s) => (
                  <li key={s.aeiId}>
                    {s.qymc}：<Typography.Text type="secondary">{s.reason}</Typography.Text>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ),
    });
  };
  const download = async () => {
    const aeiIds = [...new Set(chosen.map((i) => i.aeiId))];
    const ok = await downloadPost(EVIDENCE_FILES.downloadSbjtFiles, `申报回执_${plan?.filingMonth ?? ''}.zip`, {
      planId,
      ...(aeiIds.length > 0 ? { aeiIds } : {}),
    });
    if (ok) toast('success', '已下载');
  };
  const iitChosen = chosen.filter((i) => i.taxType === 'grsds' && i.state !== 'filed' && i.state !== 'submitting');

  // --- search -----------------------------------------------------------------------------------
  const fields: SearchField[] = [
    { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
    {
      name: 'state',
      label: '申报状态',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={ITEM_STATES.filter((s) => s !== 'pending').map((s) => ({ value: s, label: ITEM_STATE_NAMES[s] }))}
        />
      ),
    },
    {
      name: 'taxType',
      label: '税种',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={FILING_TAX_TYPES.map((t) => ({ value: t, label: FILING_TAX_TYPE_NAMES[t] }))}
        />
      ),
    },
  ];
  const { flaggedOnly: _f, ...shown } = filter;

  // --- table ------------------------------------------------------------------------------------
  const editable = (i: PlanItem) =>
    canPlan && !locked && !['filed', 'submitting', 'dropped', 'pending'].includes(i.state);
  const columns: ListColumn<PlanItem>[] = [
    { title: '企业名称', key: 'qymc', width: 186, render: (_, i) => <ClientCell item={i} /> },
    {
      title: '税种 / 来源',
      key: 'taxType',
      width: 128,
      render: (_, i) => (
        <div>
          <Tooltip title={taxName(i.taxType)}>
            <span>{taxShort(i.taxType)}</span>
          </Tooltip>{' '}
          <span className="dzy-plan-sub">{periodOf(i)}</span>
          <div>
            <SourceTag item={i} />
          </div>
        </div>
      ),
    },
    {
      title: '收入总额',
      key: 'srze',
      width: 120,
      align: 'right',
      render: (_, i) => <MoneyCell value={i.srze} prev={i.prevSrze} />,
    },
    {
      title: '应补(退)税额',
      key: 'ybtse',
      width: 124,
      align: 'right',
      render: (_, i) => (
        <div>
          <MoneyCell value={i.ybtse} prev={i.prevYbtse} noTax={NO_TAX.includes(i.taxType)} />
          {i.flagged && (
            <Tooltip title="与上期相比变化超过设定比例，请核对">
              <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid="flagged">
                差异较大
              </Tag>
            </Tooltip>
          )}
        </div>
      ),
    },
    {
      title: '申报 / 缴款状态',
      key: 'state',
      width: 206,
      render: (_, i) => <ItemStateCell item={i} pay />,
    },
    { title: '客户确认', key: 'confirmState', width: 84, render: (_, i) => <ConfirmCell item={i} /> },
    {
      title: '操作',
      key: 'action',
      width: 140,
      render: (_, i) =>
        i.state === 'dropped' ? (
          canPlan && !locked ? (
            <Button
              type="link"
              size="small"
              className="dzy-plan-act"
              onClick={() => void patch(i, { drop: false }, '已恢复')}
            >
              恢复
            </Button>
          ) : null
        ) : editable(i) ? (
          <Space size={0} wrap>
            <Button
              type="link"
              size="small"
              className="dzy-plan-act"
              onClick={() => setEditing(i)}
              data-testid="edit-item"
            >
              编辑
            </Button>
            {i.taxType === 'grsds' ? (
              <Button
                type="link"
                size="small"
                className="dzy-plan-act"
                onClick={() => setUpdating([{ aeiId: i.aeiId, qymc: i.qymc }])}
              >
                更新
              </Button>
            ) : (
              i.source !== 'zero' && (
                <Button
                  type="link"
                  size="small"
                  className="dzy-plan-act"
                  onClick={() => void patch(i, { zero: true }, '已设为零申报')}
                >
                  零申报
                </Button>
              )
            )}
            <Button type="link" size="small" className="dzy-plan-act" danger onClick={() => drop(i)}>
              移除
            </Button>
          </Space>
        ) : null,
    },
  ];

  const percentPaid = sums && sums.filed > 0 ? `${sums.paid}/${sums.filed}` : '0';
  return (
    <div className="dzy-plan-page">
      <div className="dzy-plan-head">
        <div className="dzy-plan-head-row">
          <Space size={12} wrap>
            <Link to="/declare/sbjh">
              <LeftOutlined /> 申报计划
            </Link>
            {plan && (
              <>
                <Typography.Text strong>
                  {KIND_NAMES[plan.kind]} · {plan.kind === 'grsds' ? '所属期' : '申报月份'} {plan.filingMonth}
                </Typography.Text>
                <Tag color={plan.state === 'cancelled' ? 'default' : 'blue'}>{PLAN_STATE_NAMES[plan.state]}</Tag>
                <Typography.Text type="secondary">
                  {plan.userName} 创建于 {time(plan.createdAt)}
                </Typography.Text>
              </>
            )}
          </Space>
          <Space size={8} wrap>
            {can(['declare:filing:submit']) && (
              <>
                <Button
                  type="primary"
                  icon={<SendOutlined />}
                  disabled={locked}
                  onClick={() => setConfirming(true)}
                  data-testid="confirm-plan"
                >
                  确认申报{chosen.length > 0 ? `（${chosen.length}）` : ''}
                </Button>
                <Button icon={<RedoOutlined />} disabled={locked || !sums?.failed} onClick={retry}>
                  重试失败
                </Button>
              </>
            )}
            {can(['declare:filing:pay']) && (
              <Button icon={<DollarOutlined />} disabled={locked || !sums?.filed} onClick={pay} data-testid="pay-plan">
                批量缴款
              </Button>
            )}
            {can(['declare:filing:confirm']) && (
              <Tooltip title={chosen.length === 0 ? '请先勾选企业' : undefined}>
                <Button
                  icon={<MessageOutlined />}
                  disabled={locked || chosen.length === 0}
                  onClick={() => void sendConfirm()}
                >
                  发送客户确认
                </Button>
              </Tooltip>
            )}
            {canPlan && iitChosen.length > 0 && (
              <Button
                disabled={locked}
                onClick={() =>
                  setUpdating([...new Map(iitChosen.map((i) => [i.aeiId, { aeiId: i.aeiId, qymc: i.qymc }])).values()])
                }
              >
                更新个税数据
              </Button>
            )}
            <Button icon={<CloudDownloadOutlined />} disabled={!sums?.filed} onClick={() => void download()}>
              下载回执
            </Button>
          </Space>
        </div>
        {sums && (
          <div className="dzy-plan-sums" data-testid="plan-sums">
            <Sum label="申报表" value={sums.num} />
            <Sum label="收入总额" value={formatMoney(sums.srze)} />
            <Sum label="应补(退)税额" value={formatMoney(sums.ybtse)} testId="sum-ybtse" />
            <Sum label="差异较大" value={sums.flagged} tone={sums.flagged ? 'warn' : undefined} />
            <Sum
              label="待补录"
              value={sums.needsInput}
              tone={sums.needsInput ? 'warn' : undefined}
              testId="sum-needs-input"
            />
            <Sum label="待客户确认" value={sums.waitingClient} />
            <Sum label="已申报" value={sums.filed} tone="ok" testId="sum-filed" />
            <Sum label="申报失败" value={sums.failed} tone={sums.failed ? 'bad' : undefined} testId="sum-failed" />
            <Sum label="已缴款" value={percentPaid} />
          </div>
        )}
      </div>
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        onSearch={(v) =>
          setFilter((f) => ({
            flaggedOnly: f.flaggedOnly,
            keyword: v.keyword?.trim() || undefined,
            state: v.state,
            taxType: v.taxType,
          }))
        }
        onReset={() => setFilter({ flaggedOnly: false })}
        marker={
          <FilteredMarker
            values={shown}
            onClear={() => {
              form.resetFields();
              setFilter((f) => ({ flaggedOnly: f.flaggedOnly }));
            }}
          />
        }
      />
      <ListTable<PlanItem>
        card
        pageKey="filing-plan-items"
        nameKey="qymc"
        actionKey="action"
        rowKey="itemId"
        size="small"
        className="dzy-plan-table"
        loading={list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading}
        columns={columns}
        dataSource={data?.list ?? []}
        rowClassName={(i) => (i.flagged ? 'dzy-plan-flagged' : '')}
        empty={
          filter.keyword || filter.state || filter.taxType || filter.flaggedOnly ? '没有符合条件的申报表' : '暂无申报表'
        }
        extra={
          <Checkbox
            checked={filter.flaggedOnly}
            onChange={(e) => setFilter((f) => ({ ...f, flaggedOnly: e.target.checked }))}
            data-testid="flagged-only"
          >
            仅看差异较大
          </Checkbox>
        }
        rowSelection={{
          selectedRowKeys: [...selected.keys()],
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) =>
            setSelected((prev) => {
              const next = new Map<number, PlanItem>();
              for (const k of _keys as number[]) {
                const row = rows.find((r) => r?.itemId === k) ?? prev.get(k);
                if (row) next.set(k, row);
              }
              return next;
            }),
        }}
        selection={
          selected.size > 0
            ? { count: selected.size, unit: '张申报表', onClear: () => setSelected(new Map()) }
            : undefined
        }
        pagination={{ ...list.pagination, showQuickJumper: true }}
      />
      <ItemDrawer
        item={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
      <ConfirmFileDialog
        open={confirming}
        planId={planId}
        chosen={chosen.length > 0 ? chosen : null}
        waitingClient={sums?.waitingClient ?? 0}
        onClose={() => setConfirming(false)}
        onStarted={(r) => follow(r, FILING_BATCH_MSG.confirmStarted)}
      />
      <UpdateDialog
        open={updating !== null}
        planId={planId}
        clients={updating ?? []}
        onClose={() => setUpdating(null)}
        onUpdated={refresh}
      />
    </div>
  );
}
