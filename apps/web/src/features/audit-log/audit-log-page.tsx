import {
  AUDIT_EXPORT_MAX,
  AUDIT_KIND_LABELS,
  type AuditItem,
  auditLogListCall,
  auditOptionsCall,
  fieldLabel,
  platformAuditLogListCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from '../../lib/feedback';
import { usePagedList } from '../../lib/paging';
import { call } from '../../lib/request';
import { downloadFile } from '../customer/api';
import './audit-log.css';

const KIND_OPTIONS = Object.entries(AUDIT_KIND_LABELS).map(([value, label]) => ({ value, label }));

const when = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');

/** A detail as people read it: before → after for changes, the other particulars as key: value. */
function DetailText({ detail }: { detail: Record<string, unknown> }) {
  const show = (v: unknown) =>
    v === null || v === undefined || v === '' ? '（空）' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const { before, after, ...rest } = detail;
  const lines: string[] = [];
  if (before !== undefined || after !== undefined) {
    const b = (before && typeof before === 'object' ? before : { 值: before }) as Record<string, unknown>;
    const a = (after && typeof after === 'object' ? after : { 值: after }) as Record<string, unknown>;
    for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (JSON.stringify(b[k]) !== JSON.stringify(a[k])) lines.push(`${fieldLabel(k)}：${show(b[k])} → ${show(a[k])}`);
    }
  }
  for (const [k, v] of Object.entries(rest)) lines.push(`${fieldLabel(k)}：${show(v)}`);
  if (lines.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  const text = lines.join('；');
  return (
    <Tooltip title={<div style={{ whiteSpace: 'pre-wrap' }}>{lines.join('\n')}</div>}>
      <span className="dzy-audit-detail">{text}</span>
    </Tooltip>
  );
}

type Range = [Dayjs | null, Dayjs | null] | null;

/** 操作日志: the agency's audit log (or, for the platform operator, the platform's events). */
function AuditLogList({ platform }: { platform: boolean }) {
  const [range, setRange] = useState<Range>(null);
  const [userId, setUserId] = useState<number | undefined>();
  const [kind, setKind] = useState('');
  const [enterpriseId, setEnterpriseId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const options = useQuery({
    queryKey: ['audit', 'options', keyword],
    queryFn: () => call(auditOptionsCall, { keyword }),
    enabled: !platform,
    staleTime: 30_000,
  });
  const filter = {
    ...(range?.[0] ? { dateFrom: range[0].format('YYYY-MM-DD') } : {}),
    ...(range?.[1] ? { dateTo: range[1].format('YYYY-MM-DD') } : {}),
    ...(userId ? { userId } : {}),
    kind,
  };
  const agencyList = usePagedList(
    auditLogListCall,
    { ...filter, ...(enterpriseId ? { enterpriseId } : {}) },
    { enabled: !platform },
  );
  const platformList = usePagedList(platformAuditLogListCall, filter, { enabled: platform });
  const list = platform ? platformList : agencyList;
  const [exporting, setExporting] = useState(false);

  const exportAll = async () => {
    setExporting(true);
    const q = new URLSearchParams(
      Object.entries({ ...filter, ...(enterpriseId ? { enterpriseId } : {}) }).map(([k, v]) => [k, String(v)]),
    );
    const ok = await downloadFile(`files/audit/export?${q.toString()}`, '操作日志.xlsx');
    setExporting(false);
    if (ok) toast('success', '导出成功');
  };

  const columns = [
    { title: '时间', dataIndex: 'at', key: 'at', width: 170, render: when },
    {
      title: '操作人',
      dataIndex: 'userName',
      key: 'user',
      width: 120,
      render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: '操作',
      dataIndex: 'actionLabel',
      key: 'action',
      width: 180,
      render: (v: string, r: AuditItem) => <Tooltip title={r.action}>{v}</Tooltip>,
    },
    ...(platform
      ? [{ title: '对象', dataIndex: 'target', key: 'target', width: 160, ellipsis: true }]
      : [
          {
            title: '客户',
            dataIndex: 'enterpriseName',
            key: 'client',
            width: 200,
            ellipsis: true,
            render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
          },
        ]),
    {
      title: '详情（变更前 → 变更后）',
      dataIndex: 'detail',
      key: 'detail',
      render: (d: Record<string, unknown>) => <DetailText detail={d} />,
    },
    { title: 'IP', dataIndex: 'ip', key: 'ip', width: 130 },
  ];

  return (
    <Card title={platform ? '平台日志' : '操作日志'} variant="borderless" className="dzy-audit-page">
      <Space wrap className="dzy-audit-filters">
        <DatePicker.RangePicker
          value={range}
          onChange={(v) => setRange(v as Range)}
          allowEmpty={[true, true]}
          placeholder={['开始日期', '结束日期']}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
        />
        {!platform && (
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="操作人"
            style={{ width: 160 }}
            value={userId}
            onChange={setUserId}
            options={(options.data?.members ?? []).map((m) => ({ value: m.userId, label: m.name }))}
          />
        )}
        <Select
          allowClear
          placeholder="操作类型"
          style={{ width: 150 }}
          value={kind || undefined}
          onChange={(v) => setKind(v ?? '')}
          options={KIND_OPTIONS}
        />
        {!platform && (
          <Select
            allowClear
            showSearch
            filterOption={false}
            onSearch={(v) => setKeyword(v.trim())}
            placeholder="客户（输入名称搜索）"
            style={{ width: 240 }}
            value={enterpriseId}
            onChange={setEnterpriseId}
            options={(options.data?.clients ?? []).map((c) => ({ value: c.id, label: c.qymc }))}
          />
        )}
        {!platform && (
          <Tooltip title={`按当前筛选条件导出，最多 ${AUDIT_EXPORT_MAX} 条`}>
            <Button loading={exporting} onClick={() => void exportAll()}>
              导出
            </Button>
          </Tooltip>
        )}
      </Space>
      <Table<AuditItem>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        columns={columns}
        pagination={{ ...list.pagination, pageSizeOptions: [20, 50, 100] }}
        scroll={{ x: 1000 }}
        tableLayout="fixed"
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        操作日志至少保留180天（6个月），超过保留期的记录每天自动清理；密码等凭据以掩码显示。
      </Typography.Paragraph>
    </Card>
  );
}

export function AuditLogPage() {
  return <AuditLogList platform={false} />;
}

export function PlatformAuditLogPage() {
  return <AuditLogList platform />;
}
