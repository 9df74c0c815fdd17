import {
  CHOOSER_PAGE_SIZE,
  chooserListCall,
  TAX_DATA_MSG,
  TAX_DATA_TABS,
  type TaxDataTab,
  taxpayerInfoCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Empty, Select, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { cacheGet, cacheRemove, cacheSet } from '../../../lib/local-cache';
import { call } from '../../../lib/request';
import { TAX_DATA_KEYS } from '../components/tab-frame';
import {
  ArrearsTab,
  CreditTab,
  FiledTab,
  PaymentsTab,
  PersonsTab,
  SocialTab,
  TaxpayerTab,
  UnfiledTab,
} from '../components/tabs';
import '../declare-data.css';

const TAB_PAGES: Record<TaxDataTab, (p: { aeiId: number }) => React.JSX.Element> = {
  nsrxx: TaxpayerTab,
  fzr: PersonsTab,
  ysb: FiledTab,
  wsb: UnfiledTab,
  jk: PaymentsTab,
  qs: ArrearsTab,
  sb: SocialTab,
  xy: CreditTab,
};

const LAST_VIEWED = 'taxdata.lastViewed';

/**
 * 税务数据 /declare/sjcx: choose an enterprise in the user's data scope (by name or tax number; the
 * client book's 税务数据 opens it with ?aeiId=), then one tab per kind of data, each with where and
 * when it was collected and a live query.
 */
export function TaxDataPage() {
  const [params, setParams] = useSearchParams();
  const aeiId = Number(params.get('aeiId')) || null;
  const tab = (TAX_DATA_TABS.find((t) => t.key === params.get('tab'))?.key ?? 'nsrxx') as TaxDataTab;
  const [q, setQ] = useState('');
  const options = useQuery({
    queryKey: ['declare-data', 'chooser', q],
    queryFn: () => call(chooserListCall, { pageNum: 1, pageSize: CHOOSER_PAGE_SIZE, ...(q ? { qymc: q } : {}) }),
  });
  // The chosen one may be outside the first page of the list: its name comes with its data (the same
  // cached reply the first tab shows).
  const chosen = useQuery({
    queryKey: TAX_DATA_KEYS.tab(taxpayerInfoCall.path, aeiId ?? 0),
    enabled: aeiId !== null,
    queryFn: () => call(taxpayerInfoCall, { aeiId: aeiId ?? 0, live: false }),
  });
  const list = options.data?.list ?? [];
  const opts = [...list];
  const head = chosen.data;
  if (head && !opts.some((e) => e.id === head.aeiId)) {
    opts.unshift({ id: head.aeiId, qymc: head.qymc, qysh: head.qysh, qybm: '', agency_id: 0, allocate_user: null });
  }
  const choose = (next: { aeiId?: number; tab?: TaxDataTab }) => {
    const p = new URLSearchParams(params);
    if (next.aeiId !== undefined) p.set('aeiId', String(next.aeiId));
    if (next.tab) p.set('tab', next.tab);
    setParams(p, { replace: true });
  };
  // Opened from the menu: the enterprise viewed last (this user, this browser; signing out forgets it),
  // else the first one in scope that has a tax number, rather than an empty page. A remembered one that
  // is no longer in scope is forgotten and the first one shown instead.
  const first = list.find((e) => e.qysh)?.id;
  const remembered = cacheGet<number>(LAST_VIEWED);
  const staleMemory = chosen.isError && aeiId !== null && aeiId === remembered;
  useEffect(() => {
    if (staleMemory) cacheRemove(LAST_VIEWED);
    const next = staleMemory ? first : aeiId === null ? (remembered ?? first) : undefined;
    if (next !== undefined && next !== aeiId) choose({ aeiId: next });
  });
  // Remembered as soon as it is opened (leaving before its data arrives still counts as viewing it); one
  // the server refuses is forgotten again above.
  useEffect(() => {
    if (aeiId !== null && !chosen.isError) cacheSet(LAST_VIEWED, aeiId);
  }, [aeiId, chosen.isError]);
  const Page = TAB_PAGES[tab];
  return (
    <div className="dzy-taxdata">
      <div className="dzy-card dzy-taxdata-head">
        <span className="dzy-taxdata-field-label">企业</span>
        <Select
          showSearch
          className="dzy-taxdata-chooser"
          data-testid="taxdata-enterprise"
          placeholder="输入企业名称或税号搜索"
          value={aeiId ?? undefined}
          filterOption={false}
          onSearch={(v) => setQ(v.trim())}
          onChange={(v: number) => choose({ aeiId: v })}
          loading={options.isFetching}
          notFoundContent={options.isFetching ? '搜索中…' : '没有匹配的企业'}
          options={opts.map((e) => ({
            value: e.id,
            label: `${e.qymc}（${e.qysh || '无税号'}）`,
            disabled: !e.qysh,
          }))}
        />
        <Typography.Text type="secondary">只列出您有权查看的企业；没有税号的企业无法查询</Typography.Text>
      </div>
      <div className="dzy-card dzy-taxdata-body">
        {aeiId === null ? (
          <Empty description={`${TAX_DATA_MSG.chooseEnterprise}后查看其税务数据`} style={{ padding: 64 }} />
        ) : (
          <Tabs
            activeKey={tab}
            onChange={(k) => choose({ tab: k as TaxDataTab })}
            destroyOnHidden
            items={TAX_DATA_TABS.map((t) => ({
              key: t.key,
              label: t.label,
              children: t.key === tab ? <Page key={`${aeiId}-${tab}`} aeiId={aeiId} /> : null,
            }))}
          />
        )}
      </div>
    </div>
  );
}
