import {
  type Arrear,
  arrearsCall,
  CREDIT_FIRST_YEAR,
  creditScoresCall,
  filedReturnsCall,
  paymentsCall,
  QYXZ_NAMES,
  responsiblePersonsCall,
  socialInsuranceCall,
  sumYuan,
  TAX_DATA_MSG,
  type TaxReturn,
  taxpayerInfoCall,
  unfiledReturnsCall,
} from '@dzy/shared';
import { Button, DatePicker, Descriptions, Empty, Modal, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { formatMoney, maskLong } from '../../../lib/money';
import { TabFrame, useTaxTab } from './tab-frame';

const money = (v: string) => <span className="dzy-money">{formatMoney(v)}</span>;
const period = (a: string, b: string) => (a && b ? `${a} 至 ${b}` : a || b || '-');
const empty = (text: string) => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} /> });

type Range = [Dayjs, Dayjs];

/** A stored range ("" when none) or the default one. */
const rangeOf = (a: string | undefined, b: string | undefined, fallback: Range): Range =>
  a && b ? [dayjs(a), dayjs(b)] : fallback;

// --- 纳税人信息 ----------------------------------------------------------------------------------

export function TaxpayerTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(taxpayerInfoCall, aeiId);
  const info = t.data?.info;
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({})}
      emptyHint={TAX_DATA_MSG.neverChecked}
    >
      {info ? (
        <>
          <Descriptions bordered size="small" column={2} className="dzy-taxdata-desc" data-testid="taxpayer-info">
            <Descriptions.Item label="纳税人名称">{info.qymc}</Descriptions.Item>
            <Descriptions.Item label="纳税人识别号">{info.qysh}</Descriptions.Item>
            <Descriptions.Item label="登记序号">{info.djxh}</Descriptions.Item>
            <Descriptions.Item label="纳税人状态">
              <Tag color={info.nsrzt === '正常' ? 'green' : 'red'}>{info.nsrzt}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="纳税人类型">{QYXZ_NAMES[info.qyxz] ?? info.qyxz}</Descriptions.Item>
            <Descriptions.Item label="法定代表人">{info.fddbrxm}</Descriptions.Item>
            <Descriptions.Item label="主管税务机关">{info.swjgmc}</Descriptions.Item>
            <Descriptions.Item label="税务机关代码">{info.swjgdm}</Descriptions.Item>
            <Descriptions.Item label="登记日期">{info.djrq}</Descriptions.Item>
            <Descriptions.Item label="注册地址">{info.zcdz}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ margin: '20px 0 12px' }}>
            税费种认定
          </Typography.Title>
          <Table
            rowKey={(r) => `${r.zsxmDm}-${r.nsqx}`}
            size="small"
            pagination={false}
            dataSource={t.data?.sfzhd ?? []}
            locale={empty('暂无税费种认定')}
            columns={[
              { title: '征收项目', dataIndex: 'zsxmMc' },
              { title: '征收项目代码', dataIndex: 'zsxmDm', width: 160 },
              { title: '纳税期限', dataIndex: 'nsqxMc', width: 160 },
            ]}
          />
        </>
      ) : (
        <Empty description={TAX_DATA_MSG.neverChecked} />
      )}
    </TabFrame>
  );
}

// --- 负责人 --------------------------------------------------------------------------------------

export function PersonsTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(responsiblePersonsCall, aeiId);
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({})}
      emptyHint={TAX_DATA_MSG.notCollected}
    >
      <Table
        rowKey={(r) => `${r.sfbm}-${r.xm}`}
        size="middle"
        pagination={false}
        dataSource={t.data?.list ?? []}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.notCollected : '暂无负责人')}
        columns={[
          { title: '身份', dataIndex: 'sfmc', width: 160 },
          { title: '姓名', dataIndex: 'xm', width: 160 },
          { title: '证件号码', dataIndex: 'zjhm' },
          { title: '联系电话', dataIndex: 'lxdh' },
        ]}
      />
    </TabFrame>
  );
}

// --- 已申报 / 未申报 -------------------------------------------------------------------------------

const returnColumns = (filed: boolean): TableProps<TaxReturn>['columns'] => [
  { title: '征收项目', dataIndex: 'zsxmMc' },
  { title: '税款所属期', key: 'ssq', render: (_, r) => period(r.skssqq, r.skssqz), width: 240 },
  filed
    ? { title: '申报日期', dataIndex: 'sbrq', width: 140 }
    : { title: '申报期限', dataIndex: 'sbqx', width: 140, render: (v?: string) => v || '-' },
  { title: '应补（退）税额（元）', dataIndex: 'ybtse', align: 'right', width: 200, render: money },
];

export function FiledTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(filedReturnsCall, aeiId);
  const [range, setRange] = useState<Range>([dayjs().startOf('year'), dayjs()]);
  useEffect(() => {
    if (t.data?.sbrqq) setRange((prev) => rangeOf(t.data?.sbrqq, t.data?.sbrqz, prev));
  }, [t.data?.sbrqq, t.data?.sbrqz]);
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({ sbrqq: range[0].format('YYYY-MM-DD'), sbrqz: range[1].format('YYYY-MM-DD') })}
      emptyHint={TAX_DATA_MSG.neverChecked}
      fields={<RangeField label="申报日期" value={range} onChange={setRange} />}
    >
      <Table
        rowKey={(r) => `${r.zsxmDm}-${r.skssqq}-${r.sbrq ?? ''}`}
        size="middle"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={t.data?.list ?? []}
        locale={empty('暂无已申报记录')}
        columns={returnColumns(true)}
      />
    </TabFrame>
  );
}

export function UnfiledTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(unfiledReturnsCall, aeiId);
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({})}
      emptyHint={TAX_DATA_MSG.neverChecked}
    >
      <Table
        rowKey={(r) => `${r.zsxmDm}-${r.skssqq}`}
        size="middle"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={t.data?.list ?? []}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.neverChecked : '没有未申报的税费')}
        columns={returnColumns(false)}
      />
    </TabFrame>
  );
}

// --- 缴款记录 -------------------------------------------------------------------------------------

function RangeField({
  label,
  value,
  onChange,
  picker,
}: {
  label: string;
  value: Range;
  onChange: (r: Range) => void;
  picker?: 'month' | 'year';
}) {
  return (
    <span className="dzy-taxdata-field">
      <span className="dzy-taxdata-field-label">{label}</span>
      <DatePicker.RangePicker
        value={value}
        picker={picker}
        allowClear={false}
        disabledDate={(d) => d.isAfter(dayjs(), 'day') || (picker === 'year' && d.year() < CREDIT_FIRST_YEAR)}
        onChange={(v) => {
          if (v?.[0] && v[1]) onChange([v[0], v[1]]);
        }}
        data-testid={`range-${label}`}
      />
    </span>
  );
}

export function PaymentsTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(paymentsCall, aeiId);
  const [range, setRange] = useState<Range>([dayjs().subtract(1, 'year').add(1, 'day'), dayjs()]);
  useEffect(() => {
    if (t.data?.jkrqq) setRange((prev) => rangeOf(t.data?.jkrqq, t.data?.jkrqz, prev));
  }, [t.data?.jkrqq, t.data?.jkrqz]);
  const list = t.data?.list ?? [];
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({ jkrqq: range[0].format('YYYY-MM-DD'), jkrqz: range[1].format('YYYY-MM-DD') })}
      emptyHint={TAX_DATA_MSG.notCollected}
      fields={<RangeField label="缴款日期" value={range} onChange={setRange} />}
    >
      <Table
        rowKey={(r) => `${r.dzsphm}-${r.zsxmMc}`}
        size="middle"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={list}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.notCollected : '该区间内没有缴款记录')}
        columns={[
          { title: '征收项目', dataIndex: 'zsxmMc' },
          { title: '税款所属期', key: 'ssq', render: (_, r) => period(r.skssqq, r.skssqz), width: 240 },
          { title: '缴款日期', dataIndex: 'jkrq', width: 130 },
          {
            title: '电子税票号码',
            dataIndex: 'dzsphm',
            width: 190,
            render: (v: string) => (
              <Tooltip title={v}>
                <span className="dzy-mono">{maskLong(v)}</span>
              </Tooltip>
            ),
          },
          { title: '实缴金额（元）', dataIndex: 'sjje', align: 'right', width: 180, render: money },
        ]}
        summary={() =>
          list.length > 0 && (
            <Table.Summary.Row className="dzy-taxdata-sum">
              <Table.Summary.Cell index={0} colSpan={4}>
                合计（{list.length} 笔）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                <span data-testid="payments-total">{formatMoney(t.data?.hjje)}</span>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </TabFrame>
  );
}

// --- 欠税 ---------------------------------------------------------------------------------------

interface ArrearGroup {
  zsxmMc: string;
  count: number;
  qsje: string;
  znj: string;
  hj: string;
  overdue: boolean;
  rows: Arrear[];
}

function groupArrears(list: readonly Arrear[]): ArrearGroup[] {
  const by = new Map<string, Arrear[]>();
  for (const a of list) by.set(a.zsxmMc, [...(by.get(a.zsxmMc) ?? []), a]);
  return [...by].map(([zsxmMc, rows]) => ({
    zsxmMc,
    count: rows.length,
    qsje: sumYuan(rows.map((r) => r.qsje)),
    znj: sumYuan(rows.map((r) => r.znj)),
    hj: sumYuan(rows.flatMap((r) => [r.qsje, r.znj])),
    overdue: rows.some((r) => r.overdue),
    rows,
  }));
}

export function ArrearsTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(arrearsCall, aeiId);
  const [detail, setDetail] = useState<ArrearGroup | 'all' | null>(null);
  const groups = groupArrears(t.data?.list ?? []);
  const detailRows = detail === 'all' ? (t.data?.list ?? []) : (detail?.rows ?? []);
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({})}
      emptyHint={TAX_DATA_MSG.neverChecked}
    >
      {groups.length > 0 && (
        <div className="dzy-taxdata-stats" data-testid="arrears-stats">
          <div>
            <span>欠税金额合计（元）</span>
            <b>{formatMoney(t.data?.qsjeHj)}</b>
          </div>
          <div>
            <span>滞纳金合计（元）</span>
            <b>{formatMoney(t.data?.znjHj)}</b>
          </div>
          <div>
            <span>合计（元）</span>
            <b className="dzy-taxdata-danger">{formatMoney(t.data?.hj)}</b>
          </div>
          <Button onClick={() => setDetail('all')}>查看全部明细</Button>
        </div>
      )}
      <Table<ArrearGroup>
        rowKey="zsxmMc"
        size="middle"
        pagination={false}
        dataSource={groups}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.neverChecked : '没有欠税')}
        columns={[
          { title: '征收项目', dataIndex: 'zsxmMc' },
          { title: '笔数', dataIndex: 'count', width: 90, align: 'right' },
          { title: '欠税金额（元）', dataIndex: 'qsje', align: 'right', width: 170, render: money },
          { title: '滞纳金（元）', dataIndex: 'znj', align: 'right', width: 150, render: money },
          { title: '合计（元）', dataIndex: 'hj', align: 'right', width: 170, render: money },
          {
            title: '状态',
            dataIndex: 'overdue',
            width: 100,
            render: (v: boolean) => (v ? <Tag color="red">已逾期</Tag> : <Tag color="orange">欠税</Tag>),
          },
          {
            title: '操作',
            key: 'op',
            width: 90,
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setDetail(r)}>
                明细
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={detail !== null}
        title={detail === 'all' ? '欠税明细（全部）' : `欠税明细：${detail?.zsxmMc ?? ''}`}
        width={860}
        footer={<Button onClick={() => setDetail(null)}>关闭</Button>}
        onCancel={() => setDetail(null)}
        destroyOnHidden
      >
        <Table<Arrear>
          rowKey={(r) => `${r.zsxmMc}-${r.skssqq}-${r.skssqz}`}
          size="small"
          data-testid="arrears-detail"
          pagination={{ pageSize: 200, hideOnSinglePage: true }}
          dataSource={detailRows}
          columns={[
            { title: '征收项目', dataIndex: 'zsxmMc' },
            { title: '税款所属期', key: 'ssq', render: (_, r) => period(r.skssqq, r.skssqz), width: 230 },
            { title: '欠税金额（元）', dataIndex: 'qsje', align: 'right', width: 150, render: money },
            { title: '滞纳金（元）', dataIndex: 'znj', align: 'right', width: 130, render: money },
            {
              title: '逾期',
              dataIndex: 'overdue',
              width: 80,
              render: (v: boolean) => (v ? <Tag color="red">是</Tag> : <Tag>否</Tag>),
            },
          ]}
          summary={() => (
            <Table.Summary.Row className="dzy-taxdata-sum">
              <Table.Summary.Cell index={0} colSpan={2}>
                合计（{detailRows.length} 笔）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {formatMoney(sumYuan(detailRows.map((r) => r.qsje)))}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {formatMoney(sumYuan(detailRows.map((r) => r.znj)))}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} />
            </Table.Summary.Row>
          )}
        />
      </Modal>
    </TabFrame>
  );
}

// --- 单位社保 -------------------------------------------------------------------------------------

export function SocialTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(socialInsuranceCall, aeiId);
  const [range, setRange] = useState<Range>([dayjs().subtract(5, 'month').startOf('month'), dayjs().startOf('month')]);
  useEffect(() => {
    if (t.data?.ssqq) setRange((prev) => rangeOf(t.data?.ssqq, t.data?.ssqz, prev));
  }, [t.data?.ssqq, t.data?.ssqz]);
  const list = t.data?.list ?? [];
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={() => t.live.mutate({ ssqq: range[0].format('YYYY-MM'), ssqz: range[1].format('YYYY-MM') })}
      emptyHint={TAX_DATA_MSG.notCollected}
      fields={<RangeField label="所属月份" value={range} onChange={setRange} picker="month" />}
    >
      <Table
        rowKey={(r) => `${r.ssq}-${r.xzmc}`}
        size="middle"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={list}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.notCollected : '该区间内没有单位社保缴费')}
        columns={[
          { title: '所属月份', dataIndex: 'ssq', width: 120 },
          { title: '险种', dataIndex: 'xzmc' },
          { title: '缴费基数（元）', dataIndex: 'jfjs', align: 'right', width: 170, render: money },
          { title: '单位缴费（元）', dataIndex: 'dwjfje', align: 'right', width: 170, render: money },
          { title: '个人缴费（元）', dataIndex: 'grjfje', align: 'right', width: 170, render: money },
        ]}
        summary={() =>
          list.length > 0 && (
            <Table.Summary.Row className="dzy-taxdata-sum">
              <Table.Summary.Cell index={0} colSpan={3}>
                合计
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {formatMoney(t.data?.dwjfjeHj)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {formatMoney(t.data?.grjfjeHj)}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
    </TabFrame>
  );
}

// --- 纳税信用 -------------------------------------------------------------------------------------

const JB_COLORS: Record<string, string> = { A: 'green', B: 'blue', M: 'cyan', C: 'orange', D: 'red' };

export function CreditTab({ aeiId }: { aeiId: number }) {
  const t = useTaxTab(creditScoresCall, aeiId);
  const lastYear = dayjs().subtract(1, 'year');
  const [range, setRange] = useState<Range>([lastYear.subtract(4, 'year'), lastYear]);
  useEffect(() => {
    const years = t.data?.PjndList ?? [];
    if (years.length > 0) setRange([dayjs(`${years[0]}-01-01`), dayjs(`${years[years.length - 1]}-01-01`)]);
  }, [t.data?.PjndList]);
  const query = () => {
    const from = range[0].year();
    const to = range[1].year();
    if (to - from + 1 > 10) {
      toast('warning', TAX_DATA_MSG.yearsTooMany);
      return;
    }
    t.live.mutate({ PjndList: Array.from({ length: to - from + 1 }, (_, i) => String(from + i)) });
  };
  return (
    <TabFrame
      head={t.data}
      pending={t.pending}
      querying={t.live.isPending}
      onLive={query}
      emptyHint={TAX_DATA_MSG.notCollected}
      fields={<RangeField label="评价年度" value={range} onChange={setRange} picker="year" />}
    >
      <Table
        rowKey="pjnd"
        size="middle"
        pagination={false}
        dataSource={t.data?.list ?? []}
        locale={empty(t.data?.source === 'none' ? TAX_DATA_MSG.notCollected : '所选年度没有信用评价')}
        columns={[
          { title: '评价年度', dataIndex: 'pjnd', width: 160 },
          { title: '评价得分', dataIndex: 'pf', align: 'right', width: 160 },
          {
            title: '信用级别',
            dataIndex: 'jb',
            render: (v: string) => <Tag color={JB_COLORS[v] ?? 'default'}>{v} 级</Tag>,
          },
        ]}
      />
    </TabFrame>
  );
}
