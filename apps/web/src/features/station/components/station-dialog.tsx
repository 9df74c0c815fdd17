import { STATION_NAME_MAX, type StationItem, saveStationCall } from '@dzy/shared';
import { Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';

/** 新增岗位 / 编辑岗位. `station` undefined closes it, null adds one. */
export function StationDialog({
  station,
  onClose,
}: {
  station: StationItem | null | undefined;
  onClose: (saved: boolean) => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const open = station !== undefined;

  useEffect(() => {
    if (open) form.setFieldsValue({ name: station?.name ?? '' });
  }, [open, station, form]);

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      await call(saveStationCall, { ...(station ? { id: station.id } : {}), name: name.trim() });
      toast('success', '保存成功');
      onClose(true);
    } catch {
      // Told by the request client (e.g. 岗位名称已存在).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={station ? '编辑岗位' : '新增岗位'}
      open={open}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      width={400}
      destroyOnHidden
      maskClosable={false}
    >
      <Form form={form} name="station-form" layout="vertical" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item
          label="岗位名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入岗位名称' },
            { max: STATION_NAME_MAX, message: `岗位名称不能超过${STATION_NAME_MAX}个字符` },
          ]}
        >
          <Input placeholder="如：税务专员、客服专员" maxLength={STATION_NAME_MAX} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
