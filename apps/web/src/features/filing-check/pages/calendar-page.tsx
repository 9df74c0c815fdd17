import {
  type CalendarItem,
  calendarCall,
  calendarDayCall,
  FILING_STATE_COLORS,
  FILING_STATE_NAMES,
  FILING_TAX_TYPE_NAMES,
  type FilingState,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Badge, Calendar, Card, Drawer, Input, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { periodLabel } from '../period';

/** 征期日历 /declare/zqrl: each deadline day of this filing month and the next with the returns due. */
export function CalendarPage() {
  useDocumentTitle('征期日历');
  const [value, setValue] = useState<Dayjs>(dayjs());
  const month = value.startOf('month');
  const [day, setDay] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const cal = useQuery({
    queryKey: ['filing-check', 'calendar', month.format('YYYY-MM')],
    queryFn: () => call(calendarCall, { filingMonth: month.format('YYYY-MM') }),
  });
  const list = useQuery({
    enabled: day !== null,
    queryKey: ['filing-check', 'calendar-day', day, keyword, page],
    queryFn: () => call(calendarDayCall, { date: day ?? '', keyword, ...page }),
  });
  const byDate = new Map((cal.data?.days ?? []).map((d) => [d.date, d]));
  const published = new Set(Object.values(cal.data?.deadlines ?? {}));
  return (
    <Card variant="borderless" title="征期日历" className="dzy-zqrl">
      <Typography.Paragraph type="secondary">
        本申报月与下月每个申报截止日应申报的户次（已同步申报清册的企业按电子税务局的税费种认定，其余按纳税人类型推算）；
        截止日前 {cal.data?.remindDays ?? 3} 天向负责人发送未申报提醒。
        {cal.data ? ` 共 ${cal.data.clientNum} 家企业。` : ''}
      </Typography.Paragraph>
      <Calendar
        value={value}
        mode="month"
        onPanelChange={(v) => setValue(v)}
        onSelect={(d, info) => {
          setValue(d);
          if (info.source !== 'date') return;
          const key = d.format('YYYY-MM-DD');
          if (byDate.has(key)) {
            setDay(key);
            setPage({ pageNum: 1, pageSize: 20 });
          }
        }}
        cellRender={(d, info) => {
          if (info.type !== 'date') return info.originNode;
          const key = d.format('YYYY-MM-DD');
          const hit = byDate.get(key);
          if (!hit) return null;
          return (
            <div data-testid={`zqrl-${key}`} className={published.has(key) ? 'dzy-zqrl-deadline' : ''}>
              {published.has(key) && <Tag color="red">申报截止</Tag>}
              <div>
                <Badge status="processing" text={`应申报 ${hit.count}`} />
              </div>
              <div>
                <Badge status="warning" text={`未申报 ${hit.unfiled}`} />
              </div>
            </div>
          );
        }}
      />
      <Drawer open={day !== null} onClose={() => setDay(null)} title={`${day ?? ''} 截止的申报`} size="large">
        <Input.Search
          allowClear
          placeholder="企业名称或税号"
          style={{ maxWidth: 320, marginBottom: 12 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage({ ...page, pageNum: 1 });
          }}
        />
        <Table<CalendarItem>
          rowKey={(r) => `${r.aeiId}:${r.type}:${r.skssqq}`}
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          scroll={{ x: 640 }}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showTotal: (n) => `共 ${n} 条`,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
          columns={[
            { title: '企业名称', dataIndex: 'qymc', width: 220, ellipsis: true },
            {
              title: '税种',
              dataIndex: 'type',
              width: 170,
              render: (t: CalendarItem['type']) => FILING_TAX_TYPE_NAMES[t],
            },
            { title: '所属期', width: 110, render: (_: unknown, r) => periodLabel(r.skssqq, r.skssqz) },
            {
              title: '状态',
              dataIndex: 'state',
              width: 100,
              render: (s: FilingState | '') =>
                s ? <Tag color={FILING_STATE_COLORS[s]}>{FILING_STATE_NAMES[s]}</Tag> : <Tag>未同步</Tag>,
            },
            { title: '负责人', dataIndex: 'allocateUserName', width: 100 },
          ]}
        />
      </Drawer>
    </Card>
  );
}
