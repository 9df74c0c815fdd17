import { CheckOutlined, CloseOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type AgencyApplyItem,
  APPLY_STATUS_NAMES,
  approveAgencyApplyCall,
  listAgencyApplyCall,
  ORG_PAGE_SIZES,
  ORG_TYPE_NAMES,
  rejectAgencyApplyCall,
  scaleLabel,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Space,
  Table,
  type TableProps,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { ORG_KEYS } from '../api';
import { WhiteOrderSection } from '../components/white-order-section';
import '../org.css';

type StatusTab = 'all' | '0' | '1' | '2';
type SortField = 'createdAt' | 'reviewedAt' | 'agencyName';
type SortOrder = 'ascend' | 'descend';

const STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };
const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

function RejectDialog({ item, onClose }: { item: AgencyApplyItem | null; onClose: (done: boolean) => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    if (!item) return;
    setSaving(true);
    try {
      await call(rejectAgencyApplyCall, { id: item.id, reason: reason.trim() });
      toast('success', '已驳回，已短信通知申请人');
      onClose(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title="驳回入驻申请"
      open={item !== null}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="确认驳回"
      okButtonProps={{ danger: true }}
      confirmLoading={saving}
      width={500}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph type="secondary">
        驳回「{item?.agencyName}」的申请，原因将以短信发送给申请人 {item?.applicantPhone}。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          label="驳回原因"
          name="reason"
          rules={[
            { required: true, whitespace: true, message: '请输入驳回原因' },
            { max: 200, message: '驳回原因不能超过200个字符' },
          ]}
        >
          <Input.TextArea rows={4} count={{ max: 200, show: true }} placeholder="例如：营业执照信息与税号不一致" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 入驻审核 (/platform/applications): agency applications by status; approve or reject with a reason. */
export function PlatformApplicationsPage() {
  useDocumentTitle('入驻审核');
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<StatusTab>('0');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [sort, setSort] = useState<{ field?: SortField; order?: SortOrder }>({});
  const [rejecting, setRejecting] = useState<AgencyApplyItem | null>(null);

  const params = {
    ...(tab === 'all' ? {} : { status: Number(tab) as 0 | 1 | 2 }),
    ...(keyword ? { keyword } : {}),
    ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}),
    ...page,
  };
  const list = useQuery({
    queryKey: [...ORG_KEYS.applications, params],
    queryFn: () => call(listAgencyApplyCall, params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ORG_KEYS.applications });

  const approve = (item: AgencyApplyItem) =>
    modal.confirm({
      title: '通过入驻申请',
      content: `确认通过「${item.agencyName}」的申请？通过后将创建该代理机构，申请人 ${item.applicantName || item.applicantPhone} 成为管理员，并收到短信通知。`,
      okText: '确认通过',
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(approveAgencyApplyCall, { id: item.id });
          toast('success', '审核通过，代理机构已创建');
        } catch {
          // Told by the request client (e.g. the name was taken meanwhile).
        }
        void refresh();
      },
    });

  const columns: TableProps<AgencyApplyItem>['columns'] = [
    {
      title: '代理机构',
      dataIndex: 'agencyName',
      key: 'agencyName',
      sorter: true,
      sortOrder: sort.field === 'agencyName' ? sort.order : null,
      render: (_, r) => (
        <div className="dzy-apply-name">
          <div>
            <Typography.Text strong>{r.agencyName}</Typography.Text>
            {r.agencyType !== 'dls' && (
              <Tag
                color={r.agencyType === 'kjgc' ? 'purple' : 'geekblue'}
                variant="filled"
                style={{ marginInlineStart: 6 }}
              >
                {ORG_TYPE_NAMES[r.agencyType]}
              </Tag>
            )}
          </div>
          <div className="dzy-muted">税号：{r.agencyTax}</div>
        </div>
      ),
    },
    {
      title: '地区 / 地址',
      key: 'region',
      width: 190,
      render: (_, r) => (
        <div>
          <div>{r.regionName}</div>
          <Typography.Text type="secondary" ellipsis={{ tooltip: r.address }} style={{ maxWidth: 170, fontSize: 12 }}>
            {r.address}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '规模 / 会计',
      key: 'scale',
      width: 100,
      render: (_, r) => (
        <div>
          <div>{scaleLabel(r.agencyScale)}</div>
          <div className="dzy-muted">{scaleLabel(r.staffNum)}</div>
        </div>
      ),
    },
    {
      title: '申请人 / 联系人',
      key: 'applicant',
      width: 170,
      render: (_, r) => (
        <div>
          <div>{r.applicantName ? `${r.applicantName} ${r.applicantPhone}` : r.applicantPhone}</div>
          <div className="dzy-muted">联系人：{[r.link, r.linkPhone].filter(Boolean).join(' ') || '—'}</div>
        </div>
      ),
    },
    {
      title: '申请时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: sort.field === 'createdAt' ? sort.order : null,
      width: 140,
      render: time,
    },
    {
      title: '状态 / 审核',
      dataIndex: 'reviewedAt',
      key: 'reviewedAt',
      sorter: true,
      sortOrder: sort.field === 'reviewedAt' ? sort.order : null,
      width: 150,
      render: (v: string | null, r) => {
        const tag = <Tag color={STATUS_COLOR[r.status]}>{APPLY_STATUS_NAMES[r.status]}</Tag>;
        return (
          <div>
            {r.status === 2 && r.reason ? <Tooltip title={`驳回原因：${r.reason}`}>{tag}</Tooltip> : tag}
            {v && (
              <div className="dzy-muted">
                {r.reviewerName} {dayjs(v).format('MM-DD HH:mm')}
              </div>
            )}
          </div>
        );
      },
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 150,
      render: (_, r) =>
        r.status === 0 ? (
          <Space size={0}>
            <Button type="link" size="small" icon={<CheckOutlined />} onClick={() => approve(r)}>
              通过
            </Button>
            <Button type="link" size="small" danger icon={<CloseOutlined />} onClick={() => setRejecting(r)}>
              驳回
            </Button>
          </Space>
        ) : r.status === 2 ? (
          <Typography.Text type="secondary" ellipsis={{ tooltip: r.reason }} style={{ maxWidth: 110, fontSize: 12 }}>
            {r.reason}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">已开通</Typography.Text>
        ),
    },
  ];

  const onChange: TableProps<AgencyApplyItem>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = (s?.columnKey as SortField | undefined) ?? undefined;
    setSort(s?.order ? { field, order: s.order } : {});
    setPage({
      pageNo: pagination.pageSize !== page.pageSize ? 1 : (pagination.current ?? 1),
      pageSize: pagination.pageSize ?? 20,
    });
  };

  const pending = list.data?.pendingCount ?? 0;
  return (
    <div className="dzy-platform-page">
      <Card
        variant="borderless"
        title="代理机构入驻审核"
        extra={
          <Space>
            <Input.Search
              allowClear
              placeholder="机构名称 / 税号 / 申请人手机号"
              style={{ width: 280 }}
              onSearch={(v) => {
                setKeyword(v.trim());
                setPage((p) => ({ ...p, pageNo: 1 }));
              }}
            />
            <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>
              刷新
            </Button>
          </Space>
        }
      >
        <Tabs
          activeKey={tab}
          onChange={(k) => {
            setTab(k as StatusTab);
            setPage((p) => ({ ...p, pageNo: 1 }));
          }}
          items={[
            {
              key: '0',
              label: (
                <span>
                  待审核 <Badge count={pending} size="small" overflowCount={999} />
                </span>
              ),
            },
            { key: '1', label: '已通过' },
            { key: '2', label: '已驳回' },
            { key: 'all', label: '全部' },
          ]}
        />
        <Table<AgencyApplyItem>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          onChange={onChange}
          scroll={{ x: 1060 }}
          locale={{ emptyText: tab === '0' ? '暂无待审核的申请' : '暂无数据' }}
          pagination={{
            current: page.pageNo,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: ORG_PAGE_SIZES.map(String),
            showTotal: (n) => `共 ${n} 条`,
          }}
        />
      </Card>
      <WhiteOrderSection />
      <RejectDialog
        item={rejecting}
        onClose={(done) => {
          setRejecting(null);
          if (done) void refresh();
        }}
      />
    </div>
  );
}
