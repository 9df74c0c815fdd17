import { updateItemCall } from '@dzy/shared';
import { Alert, Button, Descriptions, Drawer, Form, Space } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { formatMoney } from '../../../lib/money';
import { call } from '../../../lib/request';
import type { PlanItem } from '../api';
import { ClientCell, periodOf, SourceTag, taxName } from './item-cells';
import { formKindOf, formValuesOf, ItemForm, sbsjOf } from './item-form';

/**
 * 编辑 a return's figures: a form per tax type (validated here, and by the server with the same rules);
 * 保存 recomputes 收入总额 and 应补(退)税额; 设为零申报 files it with no figures.
 */
export function ItemDrawer({
  item,
  onClose,
  onSaved,
}: {
  item: PlanItem | null;
  onClose: () => void;
  onSaved: (item: PlanItem) => void;
}) {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const kind = item ? formKindOf(item.taxType, item.sbsj, item.nsrlx) : 'given';
  useEffect(() => {
    if (!item) return;
    form.resetFields();
    form.setFieldsValue(formValuesOf(kind, item.sbsj));
  }, [item, kind, form]);

  const save = async (body: { sbsj?: Record<string, unknown>; zero?: boolean }) => {
    if (!item) return;
    setBusy(true);
    try {
      const next = await call(updateItemCall, { itemId: item.itemId, ...body });
      if (next) {
        toast('success', body.zero ? '已设为零申报' : '已保存');
        onSaved(next);
      }
    } catch {
      // the server's message was shown
    } finally {
      setBusy(false);
    }
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await save({ sbsj: sbsjOf(kind, values as Record<string, unknown>) });
  };

  return (
    <Drawer
      open={item !== null}
      onClose={onClose}
      title={item ? `编辑申报数据 · ${taxName(item.taxType)}` : ''}
      width={kind === 'grsds' || kind === 'yhs' ? 640 : 480}
      destroyOnHidden
      data-testid="item-drawer"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>取消</Button>
          {item?.source !== 'zero' && (
            <Button loading={busy} onClick={() => void save({ zero: true })}>
              设为零申报
            </Button>
          )}
          <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="item-save">
            保存
          </Button>
        </Space>
      }
    >
      {item && (
        <>
          <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="企业">
              <ClientCell item={item} />
            </Descriptions.Item>
            <Descriptions.Item label="所属期">
              {periodOf(item)}（申报期限 {item.sbqx}）
            </Descriptions.Item>
            <Descriptions.Item label="来源">
              <SourceTag item={item} />
            </Descriptions.Item>
            <Descriptions.Item label="当前金额">
              收入总额 {formatMoney(item.srze)}
              {item.taxType === 'cwbb' || item.taxType === 'gsnb' ? '' : `，应补(退)税额 ${formatMoney(item.ybtse)}`}
              {item.estimate ? '（预估）' : ''}
            </Descriptions.Item>
          </Descriptions>
          {item.source === 'zero' && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message="当前按零申报；保存录入的数据后改为按数据申报"
            />
          )}
          {item.state === 'needsInput' && item.msg && (
            <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={item.msg} />
          )}
          <Form form={form} layout="vertical" requiredMark="optional" disabled={busy}>
            <ItemForm kind={kind} form={form} />
          </Form>
        </>
      )}
    </Drawer>
  );
}
