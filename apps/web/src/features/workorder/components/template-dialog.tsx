import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  WO_MSG,
  WO_STEP_DAYS_MAX,
  WO_STEP_NAME_MAX,
  WO_STEPS_MAX,
  WO_TEMPLATE_NAME_MAX,
  type WoTemplate,
  type WoTemplateSaveBody,
  woTemplateAddCall,
  woTemplateServiceCall,
  woTemplateUpdateCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useStations } from '../api';

interface Values {
  name: string;
  remark: string;
  steps: { name: string; stationId: number | null; days: number }[];
  serviceIds: number[];
}

/** 新增/编辑工单模板: name, ordered steps (name, station, expected days), linked service items. */
export function TemplateDialog({
  open,
  template,
  onClose,
  onSaved,
}: {
  open: boolean;
  template: WoTemplate | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const stations = useStations();
  const services = useQuery({
    queryKey: ['workorder', 'services'],
    queryFn: () => call(woTemplateServiceCall, {}),
    enabled: open,
  });

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      template
        ? {
            name: template.name,
            remark: template.remark,
            steps: template.steps.map((s) => ({ name: s.name, stationId: s.stationId, days: s.days })),
            serviceIds: template.services.map((s) => s.id),
          }
        : { name: '', remark: '', steps: [{ name: '', stationId: null, days: 1 }], serviceIds: [] },
    );
  }, [open, template, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const body: WoTemplateSaveBody = {
      name: v.name,
      remark: v.remark ?? '',
      steps: v.steps.map((s) => ({ name: s.name, stationId: s.stationId ?? null, days: s.days })),
      serviceIds: v.serviceIds ?? [],
    };
    setSaving(true);
    try {
      if (template) await call(woTemplateUpdateCall, { ...body, id: template.id });
      else await call(woTemplateAddCall, body);
      toast('success', WO_MSG.saved);
      onSaved();
      onClose();
    } catch {
      // The request client showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={template ? '编辑工单模板' : '新增工单模板'}
      width={760}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="name"
          label="模板名称"
          rules={[
            { required: true, whitespace: true, message: WO_MSG.templateNameRequired },
            { max: WO_TEMPLATE_NAME_MAX, message: WO_MSG.templateNameTooLong },
          ]}
        >
          <Input placeholder="如：公司注册" maxLength={WO_TEMPLATE_NAME_MAX} showCount />
        </Form.Item>
        <Form.Item name="remark" label="模板说明">
          <Input placeholder="选填" maxLength={200} />
        </Form.Item>
        <Typography.Text strong>办理步骤</Typography.Text>
        <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
          按顺序办理；新建工单时，每步的处理人默认为该岗位的成员
        </Typography.Text>
        <Form.List
          name="steps"
          rules={[
            {
              validator: async (_r, v: unknown[]) => {
                if (!v || v.length === 0) throw new Error(WO_MSG.stepRequired);
                if (v.length > WO_STEPS_MAX) throw new Error(WO_MSG.tooManySteps);
              },
            },
          ]}
        >
          {(fields, { add, remove, move }, { errors }) => (
            <div className="dzy-wo-steps">
              {fields.map((f, i) => (
                <Space key={f.key} align="baseline" className="dzy-wo-step-row">
                  <span className="dzy-wo-step-no">{i + 1}</span>
                  <Form.Item
                    name={[f.name, 'name']}
                    rules={[
                      { required: true, whitespace: true, message: WO_MSG.stepNameRequired },
                      { max: WO_STEP_NAME_MAX, message: WO_MSG.stepNameTooLong },
                    ]}
                  >
                    <Input placeholder="步骤名称" style={{ width: 220 }} aria-label={`步骤${i + 1}名称`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'stationId']}>
                    <Select
                      allowClear
                      placeholder="默认岗位"
                      style={{ width: 160 }}
                      aria-label={`步骤${i + 1}岗位`}
                      options={(stations.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'days']}
                    rules={[
                      { required: true, type: 'integer', min: 1, max: WO_STEP_DAYS_MAX, message: WO_MSG.stepDays },
                    ]}
                  >
                    <InputNumber
                      min={1}
                      max={WO_STEP_DAYS_MAX}
                      precision={0}
                      suffix="天"
                      style={{ width: 110 }}
                      aria-label={`步骤${i + 1}预计天数`}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<ArrowUpOutlined />}
                    aria-label={`上移步骤${i + 1}`}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  />
                  <Button
                    type="text"
                    icon={<ArrowDownOutlined />}
                    aria-label={`下移步骤${i + 1}`}
                    disabled={i === fields.length - 1}
                    onClick={() => move(i, i + 1)}
                  />
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`删除步骤${i + 1}`}
                    disabled={fields.length === 1}
                    onClick={() => remove(f.name)}
                  />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ name: '', stationId: null, days: 1 })}
                block
              >
                添加步骤
              </Button>
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
        <Form.Item
          name="serviceIds"
          label="关联服务项目"
          tooltip="合同中含有这些服务项目时，可直接从合同发起本模板的工单；一个服务项目只能关联一个模板"
          style={{ marginTop: 16 }}
        >
          <Select
            mode="multiple"
            allowClear
            placeholder="选填"
            optionFilterProp="label"
            options={(services.data ?? []).map((s) => ({
              value: s.id,
              label:
                s.templateId && s.templateId !== template?.id
                  ? `${s.serviceName}（已关联${s.templateName}）`
                  : s.serviceName,
              disabled: Boolean(s.templateId && s.templateId !== template?.id),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
