import { PlusOutlined } from '@ant-design/icons';
import {
  BENEFIT_MENU,
  billingSummaryCall,
  CHOOSER_PAGE_SIZE,
  chooserListCall,
  INVOICE_OUT_FILES,
  INVOICE_OUT_MSG,
  OUT_KIND_NAMES,
  OUT_KINDS,
  OUT_STATE_NAMES,
  OUT_STATES,
  type OutInvoiceRow,
  outListCall,
  rateName,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Empty, Input, Select, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable, sortOf } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { cacheGet, cacheSet } from '../../../lib/local-cache';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { downloadPost } from '../../contract-fee/api';
import { useEquityGate } from '../../customer/components/equity-gate';
import { BatchDialog, DetailDrawer, openPdf, RedDialog } from '../components/dialogs';
import { IssueDrawer } from '../components/issue-drawer';
import '../invoice.css';

const LAST = 'invoice.xxfp.aeiId';
const STATE_COLORS: Record<string, string> = { normal: 'green', reversed: 'orange', void: 'default', red: 'red' };

/** 销项发票 /moreModuleCloudInvoice/xxfp: a client and month, the quota and totals, the list, issuing and 红冲. */
export function XxfpPage() {
  useDocumentTitle('销项发票');
  const can = useHasPerm();
  const gate = useEquityGate();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const aeiId = Number(params.get('aeiId')) || cacheGet<number>(LAST) || null;
  const [month, setMonth] = useState(dayjs().format('YYYY-MM'));
  const [q, setQ] = useState('');
  const [filter, setFilter] = useState({
    fplx: undefined as 'zp' | 'pp' | undefined,
    state: undefined as (typeof OUT_STATES)[number] | undefined,
    buyer: '',
    fphm: '',
    minJshj: '',
    maxJshj: '',
  });
  const [sort, setSort] = useState<{ sort: 'kprq' | 'jshj'; order: 'asc' | 'desc' }>({ sort: 'kprq', order: 'desc' });
  const [issuing, setIssuing] = useState(false);
  const [batch, setBatch] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [red, setRed] = useState<{ id: number; fphm: string; jshj: string; gfmc: string } | null>(null);

  const options = useQuery({
    queryKey: ['invoice', 'chooser', q],
    queryFn: () => call(chooserListCall, { pageNum: 1, pageSize: CHOOSER_PAGE_SIZE, ...(q ? { qymc: q } : {}) }),
  });
  const first = options.data?.list.find((e) => e.qysh)?.id ?? null;
  const chosen = aeiId ?? first;
  /** 红冲 asks the benefit check (权益) of the list's client first, then opens its dialog. */
  const openRed = (row: { id: number; fphm: string; jshj: string; gfmc: string }) =>
    chosen && gate(BENEFIT_MENU.invoiceRed, [chosen], () => setRed(row));
  const choose = (id: number) => {
    cacheSet(LAST, id);
    const p = new URLSearchParams(params);
    p.set('aeiId', String(id));
    setParams(p, { replace: true });
  };
  const summary = useQuery({
    queryKey: ['invoice', 'summary', chosen, month],
    enabled: chosen !== null,
    queryFn: () => call(billingSummaryCall, { aeiId: chosen ?? 0, month, live: true }),
  });
  const listFilter = {
    aeiId: chosen ?? 0,
    month,
    ...(filter.fplx ? { fplx: filter.fplx } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    buyer: filter.buyer,
    fphm: filter.fphm,
    ...(filter.minJshj ? { minJshj: filter.minJshj } : {}),
    ...(filter.maxJshj ? { maxJshj: filter.maxJshj } : {}),
    ...sort,
  };
  const list = usePagedList(outListCall, listFilter, { enabled: chosen !== null, queryKey: ['invoice', 'list'] });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['invoice'] });
  };
  const s = summary.data;
  const opts = [...(options.data?.list ?? [])];
  if (s && !opts.some((e) => e.id === s.aeiId)) {
    opts.unshift({ id: s.aeiId, qymc: s.qymc, qysh: s.qysh, qybm: '', agency_id: 0, allocate_user: null });
  }

  const columns: ListColumn<OutInvoiceRow>[] = [
    {
      key: 'fphm',
      title: '发票号码',
      width: 200,
      render: (_v, r) => (
        <Button type="link" size="small" className="dzy-list-name-link" onClick={() => setViewing(r.id)}>
          {r.fphm}
        </Button>
      ),
    },
    { key: 'kprq', title: '开票日期', width: 110, dataIndex: 'kprq', sorter: true },
    { key: 'fplx', title: '类型', width: 70, render: (_v, r) => OUT_KIND_NAMES[r.fplx] },
    {
      key: 'state',
      title: '状态',
      width: 90,
      render: (_v, r) => <Tag color={STATE_COLORS[r.state]}>{OUT_STATE_NAMES[r.state]}</Tag>,
    },
    { key: 'gfmc', title: '购买方', width: 220, dataIndex: 'gfmc', ellipsis: true },
    { key: 'gfsh', title: '购买方税号', width: 180, dataIndex: 'gfsh' },
    { key: 'hjje', title: '金额', width: 110, dataIndex: 'hjje', align: 'right' },
    { key: 'hjse', title: '税额', width: 100, dataIndex: 'hjse', align: 'right' },
    { key: 'jshj', title: '价税合计', width: 120, dataIndex: 'jshj', align: 'right', sorter: true },
    { key: 'slv', title: '税率', width: 90, dataIndex: 'slv' },
    { key: 'kpr', title: '开票人', width: 90, dataIndex: 'kpr', ellipsis: true },
    {
      key: 'op',
      title: '操作',
      width: 140,
      render: (_v, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => openPdf(r.id)}>
            PDF
          </Button>
          {can(['invoice:output:red']) && r.state === 'normal' && Number(r.jshj) > 0 ? (
            <Button type="link" size="small" danger onClick={() => openRed(r)}>
              红冲
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <div className="dzy-inv">
      <div className="dzy-card dzy-inv-head">
        <span className="dzy-inv-label">企业</span>
        <Select
          showSearch
          className="dzy-inv-chooser"
          placeholder="输入企业名称或税号搜索"
          value={chosen ?? undefined}
          filterOption={false}
          onSearch={(v) => setQ(v.trim())}
          onChange={(v: number) => choose(v)}
          notFoundContent={options.isFetching ? '搜索中…' : '没有匹配的企业'}
          options={opts.map((e) => ({ value: e.id, label: `${e.qymc}（${e.qysh || '无税号'}）`, disabled: !e.qysh }))}
          data-testid="invoice-enterprise"
        />
        <span className="dzy-inv-label">开票月份</span>
        <DatePicker
          picker="month"
          allowClear={false}
          value={dayjs(`${month}-01`)}
          onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
        />
        <div className="dzy-inv-actions">
          {can(['invoice:output:batch']) ? (
            <Button
              disabled={!chosen || Boolean(s?.blocked || s?.kpfsBlocked)}
              onClick={() => chosen && gate(BENEFIT_MENU.invoiceIssue, [chosen], () => setBatch(true))}
              data-testid="invoice-open-batch"
            >
              批量开票
            </Button>
          ) : null}
          <Button
            disabled={!chosen}
            onClick={() => downloadPost(INVOICE_OUT_FILES.export, `销项发票_${month}.xlsx`, listFilter)}
          >
            导出
          </Button>
          {can(['invoice:output:issue']) ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!chosen || !s || Boolean(s.blocked || s.kpfsBlocked)}
              onClick={() => chosen && gate(BENEFIT_MENU.invoiceIssue, [chosen], () => setIssuing(true))}
              data-testid="invoice-open-issue"
            >
              开具发票
            </Button>
          ) : null}
        </div>
      </div>
      {chosen === null ? (
        <div className="dzy-card">
          <Empty description={`${INVOICE_OUT_MSG.chooseEnterprise}后查看其销项发票`} style={{ padding: 64 }} />
        </div>
      ) : (
        <>
          {s?.blocked ? <Alert type="error" showIcon message={`${s.blocked}（开票已限制）`} /> : null}
          {s?.kpfsBlocked ? (
            <Alert type="warning" showIcon message={s.kpfsBlocked} data-testid="invoice-kpfs-blocked" />
          ) : null}
          <div className="dzy-card dzy-inv-stats" data-testid="invoice-summary">
            <Statistic title="本月发票" value={s?.count ?? 0} suffix="张" />
            <Statistic title="合计金额" value={s?.hjje ?? '0.00'} prefix="¥" />
            <Statistic title="合计税额" value={s?.hjse ?? '0.00'} prefix="¥" />
            <Statistic title="价税合计" value={s?.jshj ?? '0.00'} prefix="¥" />
            <Tooltip title={s?.quota ? `本月授信额度 ¥${s.quota.total}，已用 ¥${s.quota.used}` : s?.quotaMsg}>
              <Statistic
                title="剩余授信额度"
                value={s?.quota ? s.quota.remaining : '—'}
                prefix={s?.quota ? '¥' : undefined}
              />
            </Tooltip>
            <div className="dzy-inv-rates">
              {(s?.byRate ?? []).map((r) => (
                <Tag key={`${r.fplx}${r.slv}`}>
                  {OUT_KIND_NAMES[r.fplx]} {rateName(r.slv)}：¥{r.je} / 税 ¥{r.se}
                </Tag>
              ))}
            </div>
          </div>
          <div className="dzy-card dzy-inv-filters">
            <Select
              allowClear
              placeholder="发票类型"
              style={{ width: 110 }}
              value={filter.fplx}
              onChange={(v) => setFilter((f) => ({ ...f, fplx: v }))}
              options={OUT_KINDS.map((k) => ({ value: k, label: OUT_KIND_NAMES[k] }))}
            />
            <Select
              allowClear
              placeholder="状态"
              style={{ width: 110 }}
              value={filter.state}
              onChange={(v) => setFilter((f) => ({ ...f, state: v }))}
              options={OUT_STATES.map((k) => ({ value: k, label: OUT_STATE_NAMES[k] }))}
            />
            <Input.Search
              allowClear
              placeholder="购买方名称或税号"
              style={{ width: 200 }}
              onSearch={(v) => setFilter((f) => ({ ...f, buyer: v.trim() }))}
            />
            <Input.Search
              allowClear
              placeholder="发票号码"
              style={{ width: 200 }}
              onSearch={(v) => setFilter((f) => ({ ...f, fphm: v.trim() }))}
            />
            <Space.Compact>
              <Input
                placeholder="价税合计从"
                style={{ width: 110 }}
                onBlur={(e) => setFilter((f) => ({ ...f, minJshj: e.target.value.trim() }))}
              />
              <Input
                placeholder="至"
                style={{ width: 90 }}
                onBlur={(e) => setFilter((f) => ({ ...f, maxJshj: e.target.value.trim() }))}
              />
            </Space.Compact>
          </div>
          <ListTable<OutInvoiceRow>
            card
            pageKey="invoice-xxfp"
            rowKey="id"
            columns={columns}
            nameKey="fphm"
            actionKey="op"
            empty={<Empty description="本月没有销项发票" />}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            pagination={list.pagination}
            onChange={(_p, _f, sorter) => {
              const so = sortOf(sorter);
              setSort(
                so.order
                  ? { sort: so.field === 'jshj' ? 'jshj' : 'kprq', order: so.order === 'ascend' ? 'asc' : 'desc' }
                  : { sort: 'kprq', order: 'desc' },
              );
            }}
            summary={() =>
              list.data ? (
                <tr className="dzy-inv-sum">
                  <td colSpan={12}>
                    <Typography.Text strong>
                      合计：金额 ¥{list.data.sums.hjje}　税额 ¥{list.data.sums.hjse}　价税合计 ¥{list.data.sums.jshj}
                    </Typography.Text>
                  </td>
                </tr>
              ) : null
            }
          />
        </>
      )}
      {chosen !== null && s ? (
        <IssueDrawer
          open={issuing}
          aeiId={chosen}
          nsrlx={s.nsrlx}
          kpfs={s.kpfs}
          kpfsLabel={s.kpfsLabel}
          onClose={() => setIssuing(false)}
          onIssued={refresh}
        />
      ) : null}
      {chosen !== null ? (
        <BatchDialog open={batch} aeiId={chosen} onClose={() => setBatch(false)} onDone={refresh} />
      ) : null}
      <DetailDrawer
        id={viewing}
        onClose={() => setViewing(null)}
        onRed={
          can(['invoice:output:red'])
            ? (id) => {
                const row = list.data?.list.find((r) => r.id === id);
                if (row) openRed(row);
              }
            : undefined
        }
      />
      <RedDialog
        target={red}
        onClose={() => setRed(null)}
        onDone={() => {
          setViewing(null);
          refresh();
        }}
      />
    </div>
  );
}
