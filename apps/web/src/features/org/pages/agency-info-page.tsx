import { BankOutlined, EditOutlined, ReloadOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import {
  AGENCY_SCALE_OPTIONS,
  type AgencyInfo,
  checkMobile,
  getAgencyInfoCall,
  scaleLabel,
  updateAgencyInfoCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useDict } from '../../dicts/use-dict';
import { ORG_KEYS } from '../api';
import { STAFF_NUM_OPTIONS } from '../components/create-agency-dialog';
import '../org.css';
import { SecurityCard } from '../../two-factor/security-card';

const SCALE_FALLBACK = AGENCY_SCALE_OPTIONS.map((o) => ({ code: String(o.value), label: o.label }));

interface EditValues {
  address: string;
  link: string;
  linkPhone: string;
  agencyScale: number;
  staffNum: number;
}

function EditDialog({ info, open, onClose }: { info: AgencyInfo; open: boolean; onClose: () => void }) {
  // 机构规模 as the operator keeps it, like the create-agency dialog.
  const scaleOptions = useDict('agency_scale', SCALE_FALLBACK)
    .filter((o) => /^\d+$/.test(o.code))
    .map((o) => ({ value: Number(o.code), label: o.label }));
  const [form] = Form.useForm<EditValues>();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const save = async (v: EditValues) => {
    setSaving(true);
    try {
      const next = await call(updateAgencyInfoCall, {
        address: v.address.trim(),
        link: (v.link ?? '').trim(),
        linkPhone: (v.linkPhone ?? '').trim(),
        agencyScale: v.agencyScale,
        staffNum: v.staffNum,
      });
      if (next) queryClient.setQueryData(ORG_KEYS.agencyInfo, next);
      toast('success', '保存成功');
      onClose();
    } catch {
      // Told by the request client; the dialog stays open with what was typed.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="编辑机构信息"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      width={650}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<EditValues>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{
          address: info.address,
          link: info.link,
          linkPhone: info.linkPhone,
          agencyScale: info.agencyScale ?? undefined,
          staffNum: info.staffNum ?? undefined,
        }}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="机构名称" tooltip="机构名称与税号不可修改">
              <Input value={info.agencyName} disabled />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="税号">
              <Input value={info.agencyTax} disabled />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label="详细地址"
          name="address"
          rules={[{ required: true, whitespace: true, message: '请输入地址' }]}
        >
          <Input count={{ max: 100, show: true }} placeholder="请输入地址" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="联系人" name="link" rules={[{ max: 20, message: '联系人不能超过20个字符' }]}>
              <Input count={{ max: 20, show: true }} placeholder="请输入联系人" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              label="联系电话"
              name="linkPhone"
              rules={[
                {
                  validator: async (_, v: unknown) => {
                    const s = typeof v === 'string' ? v.trim() : '';
                    const msg = s ? checkMobile(s) : null;
                    if (msg) throw new Error(msg);
                  },
                },
              ]}
            >
              <Input maxLength={11} placeholder="请输入手机号" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="机构规模" name="agencyScale" rules={[{ required: true, message: '请选择机构规模' }]}>
              <Select options={scaleOptions} placeholder="请选择机构规模" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="会计人数" name="staffNum" rules={[{ required: true, message: '请选择会计人数' }]}>
              <Select options={STAFF_NUM_OPTIONS} placeholder="请选择会计人数" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

function Stat({ icon, label, value, color }: { icon: React.ReactNode; label: string; value: number; color: string }) {
  return (
    <div className="dzy-agency-stat">
      <span className="dzy-agency-stat-icon" style={{ color, background: `${color}14` }}>
        {icon}
      </span>
      <div>
        <div className="dzy-agency-stat-label">{label}</div>
        <div className="dzy-agency-stat-value">{value.toLocaleString('zh-CN')}</div>
      </div>
    </div>
  );
}

/** 代理机构信息 (/nested/manage/agency-info): the agency, its counts, and editing for administrators. */
export function AgencyInfoPage() {
  const scales = useDict('agency_scale', SCALE_FALLBACK);
  useDocumentTitle('代理机构信息');
  const [editing, setEditing] = useState(false);
  const info = useQuery({ queryKey: ORG_KEYS.agencyInfo, queryFn: () => call(getAgencyInfoCall, {}) });

  if (info.isPending) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (info.isError || !info.data) {
    return (
      <Card variant="borderless">
        <Empty description="机构信息加载失败">
          <Button icon={<ReloadOutlined />} onClick={() => void info.refetch()}>
            重新加载
          </Button>
        </Empty>
      </Card>
    );
  }
  const a = info.data;
  const region = [a.sssfmc, a.ssdsmc, a.ssqxmc].filter(Boolean).join(' / ');
  return (
    <div className="dzy-agency-page">
      <Card variant="borderless">
        <div className="dzy-agency-head">
          <span className="dzy-agency-logo">
            <BankOutlined />
          </span>
          <div style={{ minWidth: 0, flex: 1 }}>
            <div className="dzy-agency-name">
              <Typography.Title level={4} style={{ margin: 0 }} ellipsis={{ tooltip: a.agencyName }}>
                {a.agencyName}
              </Typography.Title>
              <Tag color="blue" variant="filled">
                {a.orgTypeName}
              </Tag>
            </div>
            <div className="dzy-agency-sub">税号：{a.agencyTax}</div>
          </div>
          {a.editable ? (
            <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>
              编辑信息
            </Button>
          ) : (
            <Typography.Text type="secondary">您所在的会计工厂关联的代理机构，仅可查看</Typography.Text>
          )}
        </div>
        <div className="dzy-agency-stats">
          <Stat icon={<UserOutlined />} label="员工数" value={a.staffCount} color="#fa8c16" />
          <Stat icon={<TeamOutlined />} label="客户数" value={a.clientCount} color="#1677ff" />
        </div>
      </Card>
      <Card title="基本信息" variant="borderless">
        <Descriptions column={2} bordered size="middle" styles={{ label: { width: 140 } }}>
          <Descriptions.Item label="机构名称">{a.agencyName}</Descriptions.Item>
          <Descriptions.Item label="税号">{a.agencyTax}</Descriptions.Item>
          <Descriptions.Item label="机构类型">{a.orgTypeName}</Descriptions.Item>
          <Descriptions.Item label="所在地区">{region || '—'}</Descriptions.Item>
          <Descriptions.Item label="详细地址" span={2}>
            {a.address || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="联系人">{a.link || '—'}</Descriptions.Item>
          <Descriptions.Item label="联系电话">{a.linkPhone || '—'}</Descriptions.Item>
          <Descriptions.Item label="机构规模">
            {scales.find((o) => o.code === String(a.agencyScale))?.label || scaleLabel(a.agencyScale) || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="会计人数">{scaleLabel(a.staffNum) || '—'}</Descriptions.Item>
          <Descriptions.Item label="入驻时间">{dayjs(a.createdAt).format('YYYY-MM-DD')}</Descriptions.Item>
        </Descriptions>
      </Card>
      {a.editable && <SecurityCard />}
      {a.editable && <EditDialog info={a} open={editing} onClose={() => setEditing(false)} />}
    </div>
  );
}
