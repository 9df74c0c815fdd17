import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PaperClipOutlined,
  StarFilled,
  StarOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MSG,
  type AttachmentItem,
  accessLogCall,
  CPBM,
  CUSTOMER_FILES,
  customerDetailCall,
  deleteAttachmentCall,
  HYDJ_NAMES,
  type NoteItem,
  noteCancelConcernCall,
  noteConcernCall,
  noteDeleteCall,
  noteGetStagingCall,
  noteListCall,
  noteSaveCall,
  noteStagingCall,
  QYXZ_NAMES,
  SERVICE_STATUS_NAMES,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Input,
  List,
  Popconfirm,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { ContractWarning } from '../../../components/contract-warning';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { ClientOrders } from '../../workorder/components/client-orders';
import { act, CUSTOMER_KEYS, downloadFile, uploadFile } from '../api';
import { BenefitTag } from './benefit-tag';
import { CredentialsPanel } from './credential-reveal';
import { MasterDataPanel } from './master-data-panel';

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.xlsx,.docx';
const _optionLabel = (options: readonly { value: string; label: string }[], v: string) =>
  options.find((o) => o.value === v)?.label ?? (v || '—');
const size = (n: number) =>
  n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`;

function NotesPanel({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const notes = useQuery({
    queryKey: CUSTOMER_KEYS.notes(id),
    queryFn: () => call(noteListCall, { enterpriseId: id, pageNo: 1, pageSize: 100 }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.notes(id) });
  // A half-written note is kept on the server (user/note/staging) and comes back when the drawer opens again.
  const [draftLoaded, setDraftLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    setDraftLoaded(false);
    call(noteGetStagingCall, { enterpriseId: id })
      .then((r) => {
        if (live && r?.content) setText(r.content);
      })
      .catch(() => undefined)
      .finally(() => live && setDraftLoaded(true));
    return () => {
      live = false;
    };
  }, [id]);
  useEffect(() => {
    if (!draftLoaded) return;
    const timer = setTimeout(() => {
      void call(noteStagingCall, { enterpriseId: id, content: text }).catch(() => undefined);
    }, 800);
    return () => clearTimeout(timer);
  }, [text, id, draftLoaded]);
  const save = async () => {
    if (!text.trim()) {
      toast('warning', '请输入记事内容');
      return;
    }
    setSaving(true);
    const r = await act(noteSaveCall, { enterpriseId: id, content: text.trim() }, '记事已保存');
    setSaving(false);
    if (r.ok) {
      setText('');
      void refresh();
    }
  };
  const toggle = async (n: NoteItem) => {
    const r = await act(n.concern ? noteCancelConcernCall : noteConcernCall, { id: n.id });
    if (r.ok) void refresh();
  };
  const remove = async (n: NoteItem) => {
    const r = await act(noteDeleteCall, { id: n.id }, '删除成功');
    if (r.ok) void refresh();
  };
  return (
    <>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={3}
        maxLength={500}
        showCount
        placeholder="记录与该客户有关的事项，如沟通结果、待办……"
      />
      <div style={{ textAlign: 'right', margin: '28px 0 12px' }}>
        <Button type="primary" loading={saving} onClick={save}>
          添加记事
        </Button>
      </div>
      <List<NoteItem>
        loading={notes.isPending}
        dataSource={notes.data?.list ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记事" /> }}
        renderItem={(n) => (
          <List.Item
            actions={[
              <Tooltip key="c" title={n.concern ? '取消关注' : '关注（置顶）'}>
                <Button
                  type="text"
                  size="small"
                  aria-label={n.concern ? '取消关注' : '关注'}
                  icon={n.concern ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
                  onClick={() => toggle(n)}
                />
              </Tooltip>,
              n.mine ? (
                <Popconfirm
                  key="d"
                  title="删除这条记事？"
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  onConfirm={() => remove(n)}
                >
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label="删除记事" />
                </Popconfirm>
              ) : null,
            ]}
          >
            <List.Item.Meta
              title={
                <Space size={8}>
                  <span>{n.userName}</span>
                  <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>
                    {dayjs(n.createdAt).format('YYYY-MM-DD HH:mm')}
                  </Typography.Text>
                  {n.concern && <Tag color="gold">已关注</Tag>}
                </Space>
              }
              description={<span style={{ whiteSpace: 'pre-wrap', color: 'rgba(0,0,0,0.88)' }}>{n.content}</span>}
            />
          </List.Item>
        )}
      />
    </>
  );
}

function AttachmentsPanel({ id, list }: { id: number; list: AttachmentItem[] }) {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.detail(id) });
  const choose = async (f: File) => {
    const ext = f.name.toLowerCase().slice(f.name.lastIndexOf('.'));
    if (!ACCEPT.split(',').includes(ext)) toast('warning', ATTACHMENT_MSG.badType);
    else if (f.size > ATTACHMENT_MAX_BYTES) toast('warning', ATTACHMENT_MSG.tooLarge);
    else {
      setUploading(true);
      const r = await uploadFile(`${CUSTOMER_FILES.attachmentUpload}?enterpriseId=${id}`, f);
      setUploading(false);
      if (r) {
        toast('success', '上传成功');
        void refresh();
      }
    }
    return Upload.LIST_IGNORE;
  };
  const remove = async (a: AttachmentItem) => {
    const r = await act(deleteAttachmentCall, { id: a.id }, '删除成功');
    if (r.ok) void refresh();
  };
  return (
    <>
      <Auth perms={['customer:edit']}>
        <Space style={{ marginBottom: 12 }}>
          <Upload accept={ACCEPT} showUploadList={false} beforeUpload={choose} maxCount={1}>
            <Button icon={<UploadOutlined />} loading={uploading}>
              上传附件
            </Button>
          </Upload>
          <Typography.Text type="secondary">PDF、JPG、PNG、XLSX、DOCX，单个不超过10MB</Typography.Text>
        </Space>
      </Auth>
      <Table<AttachmentItem>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={list}
        locale={{ emptyText: '暂无附件' }}
        columns={[
          {
            title: '文件名',
            dataIndex: 'fileName',
            ellipsis: true,
            render: (name: string) => (
              <Space size={6}>
                <PaperClipOutlined />
                {name}
              </Space>
            ),
          },
          { title: '大小', dataIndex: 'size', width: 80, render: size },
          { title: '上传人', dataIndex: 'uploadedByName', width: 90 },
          {
            title: '上传时间',
            dataIndex: 'createdAt',
            width: 140,
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: '操作',
            key: 'op',
            width: 110,
            render: (_: unknown, a) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<DownloadOutlined />}
                  onClick={() => downloadFile(`${CUSTOMER_FILES.attachmentDownload}/${a.id}`, a.fileName)}
                  aria-label={`下载${a.fileName}`}
                />
                <Auth perms={['customer:edit']}>
                  <Popconfirm
                    title={`删除附件“${a.fileName}”？`}
                    okText="删除"
                    okButtonProps={{ danger: true }}
                    cancelText="取消"
                    onConfirm={() => remove(a)}
                  >
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`删除${a.fileName}`}
                    />
                  </Popconfirm>
                </Auth>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

/** The enterprise's detail drawer: information, contacts, shareholders, credentials, attachments, notes. */
export function EnterpriseDrawer({
  id,
  onClose,
  onEdit,
  agencyQyzt,
  kjgc,
}: {
  id: number | null;
  onClose: () => void;
  onEdit: (id: number) => void;
  agencyQyzt: string;
  kjgc: boolean;
}) {
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: CUSTOMER_KEYS.detail(id ?? 0),
    queryFn: () => call(customerDetailCall, { id: id as number }),
    enabled: id !== null,
  });
  // Access tracking (esLog): each opening of an enterprise is recorded.
  useEffect(() => {
    if (id !== null) void call(accessLogCall, { enterprise_id: id, cpbm: CPBM.customer }).catch(() => undefined);
  }, [id]);
  const d = detail.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={720}
      title={
        d ? (
          <Space size={8} wrap>
            <span>{d.qymc}</span>
            <BenefitTag agencyQyzt={agencyQyzt} kjgc={kjgc} qyzt={d.qyzt} />
            {d.needUpdate && <Tag color="orange">需更新</Tag>}
          </Space>
        ) : (
          '企业详情'
        )
      }
      extra={
        d &&
        can(['customer:edit']) && (
          <Button icon={<EditOutlined />} onClick={() => onEdit(d.id)}>
            编辑
          </Button>
        )
      }
      destroyOnHidden
    >
      <Spin spinning={detail.isPending}>
        {/* Contract warning of the client book (reminder source kh), from the contract module. */}
        {d && <ContractWarning aeiId={d.id} ly="kh" />}
        {d && (
          <Tabs
            items={[
              {
                key: 'info',
                label: '基本信息',
                children: (
                  <Descriptions size="small" column={2} bordered>
                    <Descriptions.Item label="企业名称" span={2}>
                      {d.qymc}
                    </Descriptions.Item>
                    <Descriptions.Item label="企业税号">{d.qysh || <Tag color="red">缺少税号</Tag>}</Descriptions.Item>
                    <Descriptions.Item label="企业性质">{QYXZ_NAMES[d.qyxz] ?? '—'}</Descriptions.Item>
                    <Descriptions.Item label="所属地区">{d.regionName || '—'}</Descriptions.Item>
                    <Descriptions.Item label="开票分机号">{d.fjh || '—'}</Descriptions.Item>
                    <Descriptions.Item label="详细地址" span={2}>
                      {d.address || '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label="客户等级">{d.gradeName || '—'}</Descriptions.Item>
                    <Descriptions.Item label="负责人">{d.allocateUserName || '未分配'}</Descriptions.Item>
                    <Descriptions.Item label="标签" span={2}>
                      {d.labels.length
                        ? d.labels.map((l) => (
                            <Tag key={l.id} color={l.color}>
                              {l.name}
                            </Tag>
                          ))
                        : '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label="服务状态">
                      <Badge
                        status={d.serviceStatus === '1' ? 'success' : 'default'}
                        text={SERVICE_STATUS_NAMES[d.serviceStatus]}
                      />
                    </Descriptions.Item>
                    <Descriptions.Item label="会员">
                      {d.hydj_real
                        ? `${HYDJ_NAMES[d.hydj_real] ?? d.hydj_real}${d.hydqsj ? `，${d.hydqsj} 到期` : ''}`
                        : '—'}
                    </Descriptions.Item>
                    <Descriptions.Item label="创建时间">
                      {dayjs(d.createdAt).format('YYYY-MM-DD HH:mm')}
                    </Descriptions.Item>
                    <Descriptions.Item label="备注">{d.remark || '—'}</Descriptions.Item>
                  </Descriptions>
                ),
              },
              {
                key: 'contacts',
                label: `联系人（${d.contacts.length}）`,
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={d.contacts}
                    locale={{ emptyText: '暂无联系人' }}
                    columns={[
                      {
                        title: '姓名',
                        dataIndex: 'name',
                        render: (n: string, c) => (
                          <Space size={4}>
                            {n}
                            {c.isPrimary && <Tag color="blue">主要</Tag>}
                          </Space>
                        ),
                      },
                      { title: '职务', dataIndex: 'position', render: (v: string) => v || '—' },
                      { title: '手机号', dataIndex: 'mobile', render: (v: string) => v || '—' },
                      { title: '座机', dataIndex: 'landline', render: (v: string) => v || '—' },
                      { title: '邮箱', dataIndex: 'email', render: (v: string) => v || '—' },
                    ]}
                  />
                ),
              },
              {
                key: 'shareholders',
                label: '股东信息',
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={d.shareholders}
                    locale={{ emptyText: '暂无股东信息' }}
                    columns={[
                      { title: '股东名称', dataIndex: 'name' },
                      { title: '持股比例', dataIndex: 'share', width: 120, render: (v: number) => `${v.toFixed(2)}%` },
                    ]}
                  />
                ),
              },
              {
                key: 'login',
                label: '登录信息',
                children: <CredentialsPanel id={d.id} qymc={d.qymc} masked={d.credentials} />,
              },
              {
                key: 'files',
                label: `附件（${d.attachments.length}）`,
                children: <AttachmentsPanel id={d.id} list={d.attachments} />,
              },
              { key: 'notes', label: '记事', children: <NotesPanel id={d.id} /> },
              {
                key: 'bureau',
                label: d.needUpdate ? <Badge dot>税局比对</Badge> : '税局比对',
                children: (
                  <MasterDataPanel
                    id={d.id}
                    onChanged={() => void queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all })}
                  />
                ),
              },
              ...(can(['workorder:list:view'])
                ? [
                    {
                      key: 'workorders',
                      label: '工单',
                      children: <ClientOrders enterprise={{ id: d.id, qymc: d.qymc }} />,
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Spin>
    </Drawer>
  );
}
