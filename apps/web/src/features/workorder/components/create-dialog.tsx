import { chooserListCall, WO_MSG, woAddCall, woOrderNumCall, woServiceCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Radio, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useWoTemplates, WO_KEYS } from '../api';

interface Values {
  source: 'template' | 'contract';
  enterpriseId?: number;
  templateId?: number;
  contractLineId?: number;
  remark?: string;
}

/** 新建工单: for a client, from a template or from a contract's service item; the number is shown beforehand. */
export function CreateDialog({
  open,
  client,
  contract,
  onClose,
  onCreated,
}: {
  open: boolean;
  /** Fixed client (from the client's drawer or a contract). */
  client?: { id: number; qymc: string } | null;
  /** From a contract (合同 → 发起工单): its lines only, one of them chosen when `lineId` is given. */
  contract?: { id: number; contractNo: string; lineId?: number } | null;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);
  const source = Form.useWatch('source', form) ?? 'template';
  const enterpriseId = Form.useWatch('enterpriseId', form) ?? client?.id;
  const lineId = Form.useWatch('contractLineId', form);
  const templates = useWoTemplates(true);
  const orderNo = useQuery({
    queryKey: ['workorder', 'num', open],
    queryFn: () => call(woOrderNumCall, {}),
    enabled: open,
  });
  const clients = useQuery({
    queryKey: ['workorder', 'clients', search],
    queryFn: () => call(chooserListCall, { pageNum: 1, pageSize: 50, ...(search ? { qymc: search } : {}) }),
    enabled: open && !client,
  });
  const lineQuery = contract ? { contractId: contract.id } : { enterpriseId };
  const lines = useQuery({
    queryKey: WO_KEYS.lines(lineQuery),
    queryFn: () => call(woServiceCall, lineQuery),
    enabled: open && Boolean(contract || enterpriseId) && source === 'contract',
  });

  useEffect(() => {
    if (open)
      form.setFieldsValue({
        source: contract ? 'contract' : 'template',
        enterpriseId: client?.id,
        templateId: undefined,
        contractLineId: contract?.lineId,
        remark: '',
      });
  }, [open, client, contract, form]);

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const body =
        v.source === 'contract'
          ? {
              contractLineId: v.contractLineId,
              // A line whose service item has no linked template starts with the one chosen here.
              ...(chosenLine && !chosenLine.templateId && v.templateId ? { templateId: v.templateId } : {}),
              remark: v.remark ?? '',
            }
          : { enterpriseId: client?.id ?? v.enterpriseId, templateId: v.templateId, remark: v.remark ?? '' };
      const r = await call(woAddCall, body);
      if (!r) return;
      toast('success', `${WO_MSG.added}，工单编号 ${r.orderNo}`);
      onCreated(r.id);
      onClose();
    } catch {
      // shown by the request client
    } finally {
      setSaving(false);
    }
  };

  // Every line not started yet; one without a linked template asks for a template below.
  const usable = (lines.data ?? []).filter((l) => !l.workOrderId);
  const chosenLine = usable.find((l) => l.lineId === lineId);

  return (
    <Modal
      open={open}
      title="新建工单"
      width={620}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        工单编号：<span data-testid="wo-next-no">{orderNo.data?.orderNo ?? '…'}</span>（保存时生成）
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        // The form mounts with the dialog (destroyOnHidden): a contract's line is chosen from the start.
        initialValues={{
          source: contract ? 'contract' : 'template',
          enterpriseId: client?.id,
          contractLineId: contract?.lineId,
        }}
      >
        {client ? (
          <Form.Item label="客户">
            <Input value={client.qymc} disabled />
          </Form.Item>
        ) : (
          <Form.Item name="enterpriseId" label="客户" rules={[{ required: true, message: WO_MSG.clientRequired }]}>
            <Select
              showSearch={{ filterOption: false, onSearch: setSearch }}
              placeholder="输入企业名称或税号搜索"
              loading={clients.isFetching}
              options={(clients.data?.list ?? []).map((c) => ({ value: c.id, label: c.qymc }))}
              aria-label="客户"
            />
          </Form.Item>
        )}
        <Form.Item name="source" label="发起方式">
          <Radio.Group
            options={[
              { value: 'template', label: '按工单模板' },
              { value: 'contract', label: '按合同服务项目' },
            ]}
          />
        </Form.Item>
        {source === 'template' ? (
          <Form.Item name="templateId" label="工单模板" rules={[{ required: true, message: WO_MSG.templateRequired }]}>
            <Select
              placeholder="请选择工单模板"
              aria-label="工单模板"
              options={(templates.data ?? []).map((t) => ({
                value: t.id,
                label: `${t.name}（${t.steps.length}步，约${t.totalDays}天）`,
              }))}
            />
          </Form.Item>
        ) : (
          <>
            {(contract || enterpriseId) && !lines.isPending && usable.length === 0 && (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 12 }}
                title={
                  contract
                    ? `合同 ${contract.contractNo} 的服务项目都已发起过工单`
                    : '该客户的合同中没有可发起工单的服务项目（合同须为待提交或执行中，且服务项目尚未发起过工单）'
                }
              />
            )}
            <Form.Item
              name="contractLineId"
              label="合同服务项目"
              rules={[{ required: true, message: '请选择合同服务项目' }]}
            >
              <Select
                placeholder={enterpriseId ? '请选择合同服务项目' : '请先选择客户'}
                aria-label="合同服务项目"
                options={usable.map((l) => ({
                  value: l.lineId,
                  label: `${l.contractNo} · ${l.serviceName} → ${l.templateId ? l.templateName : '未关联工单模板'}`,
                }))}
              />
            </Form.Item>
            {chosenLine && !chosenLine.templateId && (
              <Form.Item
                name="templateId"
                label="工单模板"
                extra="该服务项目未关联工单模板，请选择一个（在工单模板中关联后会自动带出）"
                rules={[{ required: true, message: WO_MSG.templateRequired }]}
              >
                <Select
                  placeholder="请选择工单模板"
                  aria-label="工单模板"
                  options={(templates.data ?? []).map((t) => ({
                    value: t.id,
                    label: `${t.name}（${t.steps.length}步，约${t.totalDays}天）`,
                  }))}
                />
              </Form.Item>
            )}
          </>
        )}
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注不能超过200个字符' }]}>
          <Input.TextArea rows={2} maxLength={200} showCount placeholder="选填" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
