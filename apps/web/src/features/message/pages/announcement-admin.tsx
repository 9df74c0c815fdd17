import { DeleteOutlined, NotificationOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type AdminAnnouncement,
  ANNOUNCE_TITLE_MAX,
  checkMobile,
  createChatSessionCall,
  deleteAnnouncementCall,
  getCompartmentInfoCall,
  listAnnouncementsAdminCall,
  publishAnnouncementCall,
  SYSTEM_MSG_MAX,
  sendSystemMsgCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { MESSAGE_KEYS } from '../api';
import { AnnouncementDialog } from '../components/announcement-dialog';
import '../message.css';

const EXAMPLE = `<h3>春节放假安排</h3>
<p>2月9日至2月17日放假，<strong>2月18日</strong>起正常服务。</p>
<p style="text-align:right">代账云运营团队</p>`;

function useProvinces() {
  return useQuery({
    queryKey: ['message', 'provinces'],
    queryFn: async () => (await call(getCompartmentInfoCall, { dataType: 1 }))?.dataArray ?? [],
    staleTime: Number.POSITIVE_INFINITY,
  });
}

interface PublishValues {
  messageTitle: string;
  sssf: string;
  messageInfo: string;
}

function PublishDialog({ open, onClose }: { open: boolean; onClose: (published: boolean) => void }) {
  const [form] = Form.useForm<PublishValues>();
  const provinces = useProvinces();
  const [saving, setSaving] = useState(false);
  const html = Form.useWatch('messageInfo', form) ?? '';

  const submit = async (v: PublishValues) => {
    setSaving(true);
    try {
      await call(publishAnnouncementCall, {
        messageTitle: v.messageTitle.trim(),
        messageInfo: v.messageInfo,
        sssf: v.sssf ?? '',
      });
      toast('success', '发布成功');
      form.resetFields();
      onClose(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="发布系统公告"
      open={open}
      width={866}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="发布"
      confirmLoading={saving}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ sssf: '' }} onFinish={(v) => void submit(v)}>
        <Row gutter={16}>
          <Col span={16}>
            <Form.Item
              name="messageTitle"
              label="公告标题"
              rules={[
                { required: true, whitespace: true, message: '请输入公告标题' },
                { max: ANNOUNCE_TITLE_MAX, message: `公告标题不能超过${ANNOUNCE_TITLE_MAX}个字符` },
              ]}
            >
              <Input maxLength={ANNOUNCE_TITLE_MAX} showCount placeholder="如：春节放假安排" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="sssf" label="发布范围">
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={provinces.isPending}
                options={[
                  { value: '', label: '全部机构' },
                  ...(provinces.data ?? []).map((p) => ({ value: p.code, label: p.name })),
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="messageInfo"
              label="公告内容（HTML）"
              extra="支持段落、标题、加粗、列表、表格、链接、图片与背景图（style 中的 background-image）；脚本、事件与外部框架会在发布时被移除。"
              rules={[{ required: true, whitespace: true, message: '请输入公告内容' }]}
            >
              <Input.TextArea rows={12} placeholder={EXAMPLE} className="dzy-html-input" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <div className="dzy-preview-label">预览</div>
            {/* The operator's own draft, shown in a sandbox without scripts until the server sanitises it. */}
            <iframe
              title="公告预览"
              sandbox=""
              srcDoc={html || '<p style="color:#999">在左侧输入内容后在此预览</p>'}
              className="dzy-preview"
            />
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

function SystemMessageCard() {
  const [form] = Form.useForm<{ phone: string; content: string }>();
  const [sending, setSending] = useState(false);
  const send = async (v: { phone: string; content: string }) => {
    setSending(true);
    try {
      const r = await call(sendSystemMsgCall, { phone: v.phone.trim(), content: v.content.trim() });
      toast('success', `已发送（${r?.count ?? 0} 条）`);
      form.resetFields();
    } catch {
      // Told by the request client.
    } finally {
      setSending(false);
    }
  };
  return (
    <Card variant="borderless" title="发送系统提醒" className="dzy-admin-card">
      <Typography.Paragraph type="secondary">
        提醒出现在该用户的铃铛与「系统提醒」中，所在的每个机构各一条。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void send(v)}>
        <Form.Item
          name="phone"
          label="用户手机号"
          required
          rules={[
            {
              validator: async (_, v: string) => {
                const e = checkMobile((v ?? '').trim());
                if (e) throw new Error(e);
              },
            },
          ]}
        >
          <Input maxLength={11} placeholder="11位手机号" />
        </Form.Item>
        <Form.Item
          name="content"
          label="提醒内容"
          rules={[
            { required: true, whitespace: true, message: '请输入提醒内容' },
            { max: SYSTEM_MSG_MAX, message: `提醒内容不能超过${SYSTEM_MSG_MAX}个字符` },
          ]}
        >
          <Input.TextArea rows={3} maxLength={SYSTEM_MSG_MAX} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={sending}>
          发送
        </Button>
      </Form>
    </Card>
  );
}

function ChatSessionCard() {
  const [form] = Form.useForm<{ phone: string; qysh?: string; url?: string }>();
  const [sending, setSending] = useState(false);
  const send = async (v: { phone: string; qysh?: string; url?: string }) => {
    setSending(true);
    try {
      await call(createChatSessionCall, {
        phone: v.phone.trim(),
        qysh: (v.qysh ?? '').trim(),
        url: (v.url ?? '').trim(),
      });
      toast('success', '已发起会话，对方页面会弹出接入提示');
      form.resetFields();
    } catch {
      // Told by the request client.
    } finally {
      setSending(false);
    }
  };
  return (
    <Card variant="borderless" title="发起客服会话" className="dzy-admin-card">
      <Typography.Paragraph type="secondary">
        用户在线时立即弹出「您当前有会话待接受，是否接入」，30 分钟内未处理则不再提示。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void send(v)}>
        <Form.Item
          name="phone"
          label="用户手机号"
          required
          rules={[
            {
              validator: async (_, v: string) => {
                const e = checkMobile((v ?? '').trim());
                if (e) throw new Error(e);
              },
            },
          ]}
        >
          <Input maxLength={11} placeholder="11位手机号" />
        </Form.Item>
        <Form.Item name="qysh" label="咨询企业税号（可选）" rules={[{ max: 20, message: '企业税号不能超过20个字符' }]}>
          <Input count={{ max: 20, show: true }} />
        </Form.Item>
        <Form.Item
          name="url"
          label="会话链接（可选）"
          rules={[{ pattern: /^https?:\/\/\S+$/i, message: '请输入 http:// 或 https:// 开头的链接' }]}
        >
          <Input placeholder="https://" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={sending}>
          发起会话
        </Button>
      </Form>
    </Card>
  );
}

/** 系统公告 for platform operators: publish to every agency or one province, list, delete; reminders and chat. */
export function AnnouncementAdmin() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const provinces = useProvinces();
  const [publishing, setPublishing] = useState(false);
  const [shown, setShown] = useState<AdminAnnouncement | null>(null);
  const [filter, setFilter] = useState<{ keyword?: string; sssf: string }>({ sssf: 'all' });
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [order, setOrder] = useState<'ascend' | 'descend'>('descend');
  const params = { ...page, ...filter, sortOrder: order };
  const list = useQuery({
    queryKey: [...MESSAGE_KEYS.adminAnnouncements, params],
    queryFn: () => call(listAnnouncementsAdminCall, params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.adminAnnouncements });

  const remove = (a: AdminAnnouncement) =>
    modal.confirm({
      title: '删除公告',
      content: `确认删除「${a.messageTitle}」？删除后所有机构都将看不到这条公告。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(deleteAnnouncementCall, { id: a.id });
          toast('success', '删除成功');
        } catch {
          // Told by the request client.
        }
        void refresh();
      },
    });

  const columns: TableProps<AdminAnnouncement>['columns'] = [
    {
      title: '公告标题',
      dataIndex: 'messageTitle',
      render: (v: string, r) => (
        <button type="button" className="dzy-link-button" onClick={() => setShown(r)}>
          {v}
        </button>
      ),
    },
    {
      title: '发布范围',
      dataIndex: 'provinceName',
      width: 140,
      render: (v: string, r) => <Tag color={r.sssf ? 'blue' : 'green'}>{v}</Tag>,
    },
    { title: '发布人', dataIndex: 'publisherName', width: 120 },
    {
      title: '发布时间',
      dataIndex: 'fbTime',
      key: 'fbTime',
      width: 170,
      sorter: true,
      sortOrder: order,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 90,
      render: (_, r) => (
        <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(r)}>
          删除
        </Button>
      ),
    },
  ];

  return (
    <div className="dzy-announce-admin">
      <Card
        variant="borderless"
        title={
          <span>
            <NotificationOutlined style={{ marginInlineEnd: 8 }} />
            系统公告
          </span>
        }
        extra={
          <Space wrap>
            <Input.Search
              allowClear
              placeholder="公告标题"
              style={{ width: 200 }}
              onSearch={(v) => {
                setFilter((f) => ({ ...f, keyword: v.trim() || undefined }));
                setPage((p) => ({ ...p, pageNo: 1 }));
              }}
            />
            <Select
              style={{ width: 150 }}
              value={filter.sssf}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v: string) => {
                setFilter((f) => ({ ...f, sssf: v }));
                setPage((p) => ({ ...p, pageNo: 1 }));
              }}
              options={[
                { value: 'all', label: '全部范围' },
                { value: '', label: '全部机构' },
                ...(provinces.data ?? []).map((p) => ({ value: p.code, label: p.name })),
              ]}
            />
            <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setPublishing(true)}>
              发布公告
            </Button>
          </Space>
        }
      >
        <Table<AdminAnnouncement>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          locale={{ emptyText: '暂无公告' }}
          onChange={(p, _f, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            setOrder(s?.order === 'ascend' ? 'ascend' : 'descend');
            setPage({ pageNo: p.pageSize !== page.pageSize ? 1 : (p.current ?? 1), pageSize: p.pageSize ?? 20 });
          }}
          pagination={{
            current: page.pageNo,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: ['20', '50', '100'],
            showTotal: (n) => `共 ${n} 条`,
          }}
        />
      </Card>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <SystemMessageCard />
        </Col>
        <Col xs={24} lg={12}>
          <ChatSessionCard />
        </Col>
      </Row>
      <PublishDialog
        open={publishing}
        onClose={(published) => {
          setPublishing(false);
          if (published) void refresh();
        }}
      />
      <AnnouncementDialog announcement={shown} onClose={() => setShown(null)} />
    </div>
  );
}
