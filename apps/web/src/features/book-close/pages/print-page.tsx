import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  BOOK_PRINT_FILES,
  BOOK_PRINT_POLL_MS,
  PRINT_CLIENT_STATE_NAMES,
  PRINT_ITEM_NAMES,
  PRINT_ITEMS,
  PRINT_LAYOUT_NAMES,
  type PrintClient,
  type PrintClientState,
  type PrintItem,
  type PrintLayout,
  type PrintRun,
  printClientsCall,
  printRunsCall,
  printStartCall,
  type ReportBook,
  reportBooksCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call, showSessionExpired } from '../../../lib/request';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import './print-page.css';

/**
 * 批量打印 (/account/print): vouchers (A4 two a page / A5 one a page), ledgers and statements of many clients
 * over a period range, rendered on the server as one PDF per client in the background; the runs list shows
 * each run's progress and offers 下载 when it is done (the PDF, or a zip of PDFs for several clients), and
 * 明细 gives every client's outcome with its reason (未建账, 没有凭证 …).
 */
export function PrintPage() {
  useDocumentTitle('批量打印');
  return (
    <LinkedAgencyGuard>
      <PrintBody />
    </LinkedAgencyGuard>
  );
}

function PrintBody() {
  const [tab, setTab] = useState('new');
  return (
    <div className="dzy-bprint-page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'new', label: '新建打印', children: <NewRun onStarted={() => setTab('runs')} /> },
          { key: 'runs', label: '打印任务', children: <Runs /> },
        ]}
      />
    </div>
  );
}

const lastMonth = () => dayjs().subtract(1, 'month').format('YYYY-MM');

function NewRun({ onStarted }: { onStarted: () => void }) {
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const [range, setRange] = useState<[string, string]>(() => [lastMonth(), lastMonth()]);
  const [items, setItems] = useState<PrintItem[]>(['vouchers']);
  const [layout, setLayout] = useState<PrintLayout>('a4');
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const books = usePagedList(reportBooksCall, { keyword });
  const columns: ListColumn<ReportBook>[] = [
    { key: 'qymc', title: '企业名称', width: 280, dataIndex: 'qymc', ellipsis: true },
    { key: 'qysh', title: '税号', width: 200, dataIndex: 'qysh' },
    {
      key: 'standard',
      title: '会计准则',
      width: 130,
      render: (_: unknown, r: ReportBook) => (r.standard === 'small2013' ? '小企业会计准则' : '企业会计准则'),
    },
    { key: 'startPeriod', title: '建账期间', width: 100, dataIndex: 'startPeriod' },
    { key: 'currentPeriod', title: '当前期间', width: 100, dataIndex: 'currentPeriod' },
  ];

  const start = async (scope: 'all' | 'selected') => {
    if (items.length === 0) {
      toast('warning', '请至少选择一项打印内容');
      return;
    }
    setBusy(true);
    try {
      const data = await call(printStartCall, {
        scope,
        aeiIds: scope === 'selected' ? selected : [],
        from: range[0],
        to: range[1],
        items,
        layout,
      });
      if (!data) return;
      const left = data.noQysh.length + data.blocked.length;
      toast(
        'success',
        `已开始打印 ${data.total} 户${left ? `，${left} 户未打印（原因见任务明细）` : ''}，完成后可在“打印任务”中下载`,
      );
      setSelected([]);
      await qc.invalidateQueries({ queryKey: [printRunsCall.path] });
      onStarted();
    } finally {
      setBusy(false);
    }
  };
  const startAll = () =>
    modal.confirm({
      title: '打印全部客户？',
      content: `将在后台为全部服务中的客户生成 ${range[0]} 至 ${range[1]} 的打印文件，客户较多时需要一些时间。`,
      okText: '开始打印',
      cancelText: '取消',
      onOk: () => start('all'),
    });

  return (
    <div className="dzy-bprint-body">
      <Card size="small" title="打印设置">
        <Form layout="vertical" className="dzy-bprint-form">
          <Form.Item label="会计期间" required>
            <DatePicker.RangePicker
              picker="month"
              allowClear={false}
              value={[dayjs(`${range[0]}-01`), dayjs(`${range[1]}-01`)]}
              onChange={(v) => {
                if (v?.[0] && v[1]) setRange([v[0].format('YYYY-MM'), v[1].format('YYYY-MM')]);
              }}
              data-testid="print-range"
            />
          </Form.Item>
          <Form.Item
            label="打印内容"
            required
            validateStatus={items.length === 0 ? 'error' : undefined}
            help={items.length === 0 ? '请至少选择一项打印内容' : undefined}
          >
            <Checkbox.Group
              value={items}
              onChange={(v) => setItems(v as PrintItem[])}
              options={PRINT_ITEMS.map((k) => ({ value: k, label: PRINT_ITEM_NAMES[k] }))}
              data-testid="print-items"
            />
          </Form.Item>
          <Form.Item label="凭证版式">
            <Radio.Group
              value={layout}
              onChange={(e) => setLayout(e.target.value as PrintLayout)}
              disabled={!items.includes('vouchers')}
            >
              <Radio value="a4">{PRINT_LAYOUT_NAMES.a4}</Radio>
              <Radio value="a5">{PRINT_LAYOUT_NAMES.a5}</Radio>
            </Radio.Group>
          </Form.Item>
        </Form>
      </Card>
      <div className="dzy-bprint-bar">
        <Input.Search
          allowClear
          placeholder="企业名称或税号"
          style={{ width: 260 }}
          onSearch={(v) => setKeyword(v.trim())}
        />
        <Space wrap>
          <Button onClick={startAll} loading={busy}>
            打印全部客户
          </Button>
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={selected.length === 0}
            loading={busy}
            onClick={() => void start('selected')}
            data-testid="print-start"
          >
            打印所选{selected.length ? `（${selected.length}）` : ''}
          </Button>
        </Space>
      </div>
      <ListTable
        card
        pageKey="book-print-clients"
        rowKey="aeiId"
        nameKey="qymc"
        size="small"
        columns={columns}
        dataSource={books.data?.list ?? []}
        loading={books.isLoading}
        pagination={books.pagination}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (k) => setSelected(k.map(Number)),
          preserveSelectedRowKeys: true,
        }}
        selection={{ count: selected.length, unit: '家客户', onClear: () => setSelected([]) }}
        empty={<Empty description="没有已建账的客户，请先在账套管理中建账" />}
      />
    </div>
  );
}

/** GETs a file and saves it under the server's name; a refusal shows its message. */
async function downloadGet(path: string, fallbackName: string) {
  try {
    const res = await fetch(`/api/${path}`, { credentials: 'same-origin' });
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok || type.includes('json')) {
      const reply = (await res.json().catch(() => null)) as { msg?: string } | null;
      if (res.status === 403) showSessionExpired();
      else toast('warning', reply?.msg || '下载失败，请稍后重试');
      return;
    }
    const blob = await res.blob();
    const star = /filename\*=UTF-8''([^;]+)/i.exec(res.headers.get('content-disposition') ?? '')?.[1];
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = star ? decodeURIComponent(star) : fallbackName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  } catch {
    toast('error', '网络连接失败，请检查网络后重试');
  }
}

const RUN_STATE: Record<PrintRun['state'], [string, string]> = {
  running: ['打印中', 'processing'],
  done: ['已完成', 'success'],
  stopped: ['已停止', 'default'],
};

function Runs() {
  const runs = usePagedList(printRunsCall, {}, { pageSize: 10 });
  const [detail, setDetail] = useState<PrintRun | null>(null);
  const running = (runs.data?.list ?? []).some((r) => r.state === 'running');
  const { refetch } = runs;
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void refetch(), BOOK_PRINT_POLL_MS);
    return () => clearInterval(t);
  }, [running, refetch]);
  const columns: ListColumn<PrintRun>[] = [
    {
      key: 'createdAt',
      title: '提交时间',
      width: 140,
      render: (_: unknown, r: PrintRun) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm'),
    },
    {
      key: 'progress',
      title: '进度',
      width: 220,
      render: (_: unknown, r: PrintRun) => (
        <div className="dzy-bprint-progress">
          <Progress
            percent={r.rate}
            size="small"
            status={r.state === 'running' ? 'active' : r.failNum ? 'exception' : 'success'}
          />
          <Typography.Text type="secondary" className="dzy-bprint-counts">
            共 {r.totalNum} 户：已生成 {r.okNum}
            {r.emptyNum ? `，无内容 ${r.emptyNum}` : ''}
            {r.failNum ? `，失败 ${r.failNum}` : ''}
          </Typography.Text>
        </div>
      ),
    },
    {
      key: 'state',
      title: '状态',
      width: 80,
      render: (_: unknown, r: PrintRun) => <Tag color={RUN_STATE[r.state][1]}>{RUN_STATE[r.state][0]}</Tag>,
    },
    {
      key: 'period',
      title: '会计期间',
      width: 130,
      render: (_: unknown, r: PrintRun) => (r.from === r.to ? r.from : `${r.from} 至 ${r.to}`),
    },
    {
      key: 'items',
      title: '打印内容',
      width: 200,
      ellipsis: (r: PrintRun) => r.items.map((k) => PRINT_ITEM_NAMES[k]).join('、'),
      render: (_: unknown, r: PrintRun) =>
        r.items.map((k) => (k === 'vouchers' ? `凭证（${r.layout.toUpperCase()}）` : PRINT_ITEM_NAMES[k])).join('、'),
    },
    { key: 'userName', title: '提交人', width: 90, dataIndex: 'userName', ellipsis: true },
    {
      key: 'action',
      title: '操作',
      width: 130,
      render: (_: unknown, r: PrintRun) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => setDetail(r)}>
            明细
          </Button>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            disabled={!r.fileName}
            title={r.state === 'running' ? '打印完成后可下载' : r.fileName ? r.fileName : '没有生成文件'}
            onClick={() => void downloadGet(`${BOOK_PRINT_FILES.download}?runId=${r.runId}`, r.fileName)}
            data-testid={`print-download-${r.runId}`}
          >
            下载
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="print-runs">
      <ListTable
        card
        pageKey="book-print-runs"
        rowKey="id"
        nameKey="createdAt"
        actionKey="action"
        size="small"
        columns={columns}
        dataSource={runs.data?.list ?? []}
        loading={runs.isLoading}
        pagination={runs.pagination}
        empty={<Empty description="还没有打印任务" />}
      />
      {detail ? <RunClients run={detail} onClose={() => setDetail(null)} /> : null}
    </div>
  );
}

const CLIENT_TAG: Record<PrintClientState, string> = {
  ok: 'green',
  empty: 'default',
  skipped: 'orange',
  failed: 'red',
  pending: 'blue',
};

function RunClients({ run, onClose }: { run: PrintRun; onClose: () => void }) {
  const [state, setState] = useState<PrintClientState | 'all'>('all');
  const list = usePagedList(printClientsCall, { runId: run.runId, ...(state === 'all' ? {} : { state }) });
  return (
    <Modal
      open
      width={760}
      title={`打印明细（${run.from === run.to ? run.from : `${run.from} 至 ${run.to}`}）`}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          关闭
        </Button>
      }
    >
      <Select
        style={{ width: 160, marginBottom: 8 }}
        value={state}
        onChange={(v) => setState(v)}
        options={[
          { value: 'all', label: '全部' },
          ...(['ok', 'empty', 'skipped', 'failed', 'pending'] as const).map((k) => ({
            value: k,
            label: PRINT_CLIENT_STATE_NAMES[k],
          })),
        ]}
      />
      <Table<PrintClient>
        size="small"
        rowKey="id"
        dataSource={list.data?.list ?? []}
        loading={list.isLoading}
        pagination={list.pagination}
        columns={[
          { key: 'qymc', title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
          {
            key: 'state',
            title: '结果',
            width: 110,
            render: (_: unknown, x) => <Tag color={CLIENT_TAG[x.state]}>{PRINT_CLIENT_STATE_NAMES[x.state]}</Tag>,
          },
          { key: 'msg', title: '说明', dataIndex: 'msg' },
        ]}
      />
    </Modal>
  );
}
