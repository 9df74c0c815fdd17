import { BankOutlined } from '@ant-design/icons';
import {
  AGENCY_APPLY_PENDING_MSG,
  AGENCY_NAME_TAKEN_MSG,
  AGENCY_TAX_RE,
  CODE,
  checkMobile,
  getUserKjgcRelationCall,
  KJGC_MSG,
  saveKjgcApplyInfoCall,
  selectPersonalAgencyInfoCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Form, Input, Modal, Row } from 'antd';
import { useState } from 'react';
import { toast } from '../../lib/feedback';
import { codeInput, taxNumberInput, textInput } from '../../lib/form-rules';
import { ApiError, call } from '../../lib/request';
import { ORG_KEYS, useAgencyRelation } from '../org/api';
import { AgencyPlaceFields } from '../org/components/create-agency-dialog';
import '../org/org.css';

/** The same key as the 会计工厂管理 page's relation query, so both refresh together. */
export const KJGC_RELATION_KEY = ['kjgc', 'relation'] as const;

interface Values {
  agencyName: string;
  agencyTax: string;
  region: string[];
  address: string;
  agencyScale: number;
  staffNum: number;
  link?: string;
  linkPhone?: string;
}

function useKjgcRelation(enabled = true) {
  return useQuery({
    queryKey: KJGC_RELATION_KEY,
    queryFn: () => call(getUserKjgcRelationCall, {}, { handle: 'all' }),
    enabled,
    staleTime: 30_000,
  });
}

/**
 * 申请成为会计工厂 (saveKjgcApplyInfo): the fields and rules of the call, reviewed by the platform on
 * 入驻审核; while it waits the button says so and the form is read-only.
 */
export function KjgcApplyButton({ block }: { block?: boolean }) {
  const [open, setOpen] = useState(false);
  const relation = useKjgcRelation();
  const pending = relation.data?.applyStatus === 0;
  return (
    <>
      <Button icon={<BankOutlined />} block={block} onClick={() => setOpen(true)}>
        {pending ? '会计工厂申请审核中' : '申请成为会计工厂'}
      </Button>
      <KjgcApplyDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export function KjgcApplyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const relation = useKjgcRelation(open);
  const agencyRelation = useAgencyRelation();
  const [submitting, setSubmitting] = useState(false);
  const pending = relation.data?.applyStatus === 0;
  // One application at a time (the server refuses a second): an agency application waiting blocks this one.
  const otherPending = !pending && agencyRelation.data?.agencyApplyStatus === 0;
  const locked = pending || otherPending;

  const nameFree = async (_: unknown, value: unknown) => {
    const name = typeof value === 'string' ? value.trim() : '';
    if (!name) return;
    const r = await call(selectPersonalAgencyInfoCall, { agencyName: name }, { handle: 'all' }).catch(() => null);
    if (r?.exists) throw new Error(AGENCY_NAME_TAKEN_MSG);
  };

  // Spaces pasted around a name or address go when the field is left, so what is shown is what is sent.
  const trimOnBlur = (name: 'agencyName' | 'link') => () => {
    const v: unknown = form.getFieldValue(name);
    if (typeof v === 'string' && v !== v.trim()) form.setFieldValue(name, v.trim());
  };

  const submit = async (values: Values) => {
    const [sssf = '', ssds = '', ssqx = ''] = values.region;
    const link = values.link?.trim() ?? '';
    const linkPhone = values.linkPhone ?? '';
    setSubmitting(true);
    try {
      await call(
        saveKjgcApplyInfoCall,
        {
          agencyName: values.agencyName.trim(),
          agencyTax: values.agencyTax,
          address: values.address.trim(),
          agencyScale: values.agencyScale,
          staffNum: values.staffNum,
          sssf,
          ssds,
          ssqx,
          ...(link ? { link } : {}),
          ...(linkPhone ? { linkPhone } : {}),
        },
        { handle: [CODE.CONFLICT] },
      );
      toast('success', KJGC_MSG.applyOk, 5000);
      // The dialog stays open: the values read-only under the pending notice once the relation is refetched.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: KJGC_RELATION_KEY }),
        queryClient.invalidateQueries({ queryKey: ORG_KEYS.relation }),
      ]);
    } catch (err) {
      if (err instanceof ApiError && !err.handled) {
        if (err.message === AGENCY_NAME_TAKEN_MSG) form.setFields([{ name: 'agencyName', errors: [err.message] }]);
        else toast('warning', err.message);
        if (err.message === AGENCY_APPLY_PENDING_MSG) void relation.refetch();
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      title="申请成为会计工厂"
      open={open}
      onCancel={onClose}
      width={650}
      destroyOnHidden
      centered
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {locked ? '关闭' : '取消'}
        </Button>,
        <Button key="ok" type="primary" loading={submitting} disabled={locked} onClick={() => form.submit()}>
          提交申请
        </Button>,
      ]}
    >
      {pending && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="您的会计工厂申请已提交，正在等待平台审核，审核结果将以短信通知您。"
        />
      )}
      {otherPending && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={AGENCY_APPLY_PENDING_MSG} />}
      {relation.data?.applyStatus === 2 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`您上次提交的会计工厂申请未通过审核${relation.data.applyReason ? `：${relation.data.applyReason}` : ''}，请核对信息后重新提交。`}
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark
        disabled={locked}
        className="dzy-create-agency"
        validateTrigger={['onChange', 'onBlur']}
      >
        <Form.Item
          label="会计工厂名称"
          name="agencyName"
          normalize={textInput}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: '请输入会计工厂名称' },
            { max: 50, message: '会计工厂名称不能超过50个字符' },
            { validator: nameFree, validateTrigger: 'onBlur' },
          ]}
        >
          <Input
            placeholder="请输入会计工厂名称（与营业执照一致）"
            count={{ max: 50, show: true }}
            onBlur={trimOnBlur('agencyName')}
          />
        </Form.Item>
        <Form.Item
          label="税号"
          name="agencyTax"
          normalize={taxNumberInput}
          rules={[
            { required: true, message: '请输入税号' },
            { pattern: AGENCY_TAX_RE, message: '税号为6-20位数字或字母', validateTrigger: 'onBlur' },
          ]}
        >
          <Input placeholder="请输入税号（6-20位数字或字母）" maxLength={20} />
        </Form.Item>
        <AgencyPlaceFields open={open} />
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              label="联系人"
              name="link"
              rules={[{ max: 20, message: '联系人不能超过20个字符' }]}
              extra="不填则为您本人"
            >
              <Input placeholder="请输入联系人" maxLength={20} onBlur={trimOnBlur('link')} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              label="联系电话"
              name="linkPhone"
              normalize={codeInput}
              rules={[
                {
                  validator: async (_, v: unknown) => {
                    const phone = typeof v === 'string' ? v : '';
                    const problem = phone ? checkMobile(phone) : null;
                    if (problem) throw new Error(problem);
                  },
                  validateTrigger: 'onBlur',
                },
              ]}
              extra="不填则为您的登录手机号"
            >
              <Input placeholder="请输入手机号" maxLength={20} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <div className="dzy-create-agency-note">
        提交后由平台审核，审核结果将以短信通知您；审核通过后您将成为该会计工厂的管理员，可在会计工厂管理中关联代理机构。
      </div>
    </Modal>
  );
}
