import { UploadOutlined } from '@ant-design/icons';
import {
  BRAND_LOGO_MAX_BYTES,
  BRAND_LOGO_UPLOAD_PATH,
  BRAND_MSG,
  type BrandAdminItem,
  type BrandSaveBody,
  brandDeleteCall,
  brandListCall,
  brandSaveCall,
  CODE,
} from '@dzy/shared';
import { Button, Card, ColorPicker, Form, Input, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import {
  AdminFormModal,
  AdminTable,
  AdminToolbar,
  actionsColumn,
  useAdminList,
  useConfirmDelete,
  useEditing,
} from '../../components/admin-list/admin-list';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { lowerCodeInput, textInput } from '../../lib/form-rules';
import { call } from '../../lib/request';

const KEY = ['platform-brands'];

interface Values {
  fwsid: string;
  name: string;
  primaryColor: string;
  loginTitle: string;
  hotline: string;
  enabled: boolean;
  logoFile: string;
}

/** 服务商品牌 (/platform/brand): the operator's providers, each with its own sign-in address /login/{fwsid}. */
export function BrandAdminPage() {
  useDocumentTitle('服务商品牌');
  const [keyword, setKeyword] = useState('');
  const editing = useEditing<BrandAdminItem>();
  const { list, refresh } = useAdminList(brandListCall, keyword ? { keyword } : {}, KEY);
  const confirmDelete = useConfirmDelete();

  const remove = (r: BrandAdminItem) =>
    confirmDelete({
      title: '删除服务商',
      content: `确定删除「${r.name}」吗？其登录地址 /login/${r.fwsid} 将显示平台默认品牌。`,
      run: () => call(brandDeleteCall, { id: r.id }),
      done: refresh,
    });

  return (
    <Card variant="borderless" title="服务商品牌">
      <AdminToolbar
        search={{ placeholder: '按服务商名称或编码搜索', onSearch: setKeyword }}
        onRefresh={refresh}
        addLabel="新增服务商"
        onAdd={editing.add}
      />
      <AdminTable<BrandAdminItem>
        rowKey="id"
        loading={list.isFetching}
        rows={list.data?.list}
        pagination={list.pagination}
        scrollX={960}
        emptyText="暂无服务商"
        columns={[
          {
            title: '服务商',
            dataIndex: 'name',
            render: (v: string, r) => (
              <Space>
                {r.logoUrl ? (
                  <img src={r.logoUrl} alt="" style={{ height: 24, maxWidth: 80, objectFit: 'contain' }} />
                ) : null}
                <span>{v}</span>
              </Space>
            ),
          },
          { title: '登录地址', dataIndex: 'fwsid', width: 200, render: (v: string) => <code>/#/login/{v}</code> },
          {
            title: '主题色',
            dataIndex: 'primaryColor',
            width: 110,
            render: (v: string) => <Tag color={v}>{v}</Tag>,
          },
          { title: '服务热线', dataIndex: 'hotline', width: 140 },
          { title: '机构数', dataIndex: 'agencyCount', width: 80 },
          {
            title: '状态',
            dataIndex: 'enabled',
            width: 80,
            render: (v: boolean) => (v ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          actionsColumn((r) => [
            { label: '编辑', onClick: () => editing.edit(r) },
            { label: '删除', danger: true, onClick: () => remove(r) },
          ]),
        ]}
      />
      <BrandForm
        row={editing.row}
        open={editing.open}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          refresh();
        }}
      />
    </Card>
  );
}

async function uploadLogo(file: File): Promise<{ file: string; url: string }> {
  if (file.size > BRAND_LOGO_MAX_BYTES) throw new Error(BRAND_MSG.logoTooLarge);
  const body = new FormData();
  body.append('file', file);
  const res = await fetch(`/api/${BRAND_LOGO_UPLOAD_PATH}`, { method: 'POST', body, credentials: 'same-origin' });
  const reply = (await res.json().catch(() => null)) as {
    code: number;
    msg: string;
    data: { file: string; url: string };
  } | null;
  if (reply?.code === CODE.OK) return reply.data;
  throw new Error(reply?.msg || '上传失败，请稍后重试');
}

function BrandForm({
  row,
  open,
  onClose,
  onSaved,
}: {
  row: BrandAdminItem | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [logoUrl, setLogoUrl] = useState('');
  const initial: Values = row
    ? {
        fwsid: row.fwsid,
        name: row.name,
        primaryColor: row.primaryColor,
        loginTitle: row.loginTitle,
        hotline: row.hotline,
        enabled: row.enabled,
        logoFile: row.logoFile,
      }
    : { fwsid: '', name: '', primaryColor: '#1677ff', loginTitle: '', hotline: '', enabled: true, logoFile: '' };
  const shownLogo = logoUrl || row?.logoUrl || '';
  return (
    <AdminFormModal<Values>
      title={row ? '编辑服务商' : '新增服务商'}
      open={open}
      width={560}
      form={form}
      name="brandForm"
      labelWidth={96}
      initialValues={initial}
      save={(v) => {
        const body: BrandSaveBody = { ...v, ...(row ? { id: row.id } : {}) };
        return call(brandSaveCall, body);
      }}
      onSaved={() => {
        setLogoUrl('');
        onSaved();
      }}
      onCancel={() => {
        setLogoUrl('');
        onClose();
      }}
    >
      <Form.Item
        label="服务商编码"
        name="fwsid"
        normalize={lowerCodeInput}
        extra="用于登录地址 /#/login/编码"
        rules={[
          { required: true, message: '请输入服务商编码' },
          { pattern: /^[a-z0-9][a-z0-9-]{1,31}$/, message: BRAND_MSG.fwsidBad },
        ]}
      >
        <Input maxLength={32} placeholder="如 huaxia" />
      </Form.Item>
      <Form.Item label="服务商名称" name="name" rules={[{ required: true, message: BRAND_MSG.nameRequired }]}>
        <Input maxLength={40} />
      </Form.Item>
      <Form.Item label="标志">
        <Space>
          {shownLogo ? (
            <img src={shownLogo} alt="标志" style={{ height: 40, maxWidth: 160, objectFit: 'contain' }} />
          ) : null}
          <Button icon={<UploadOutlined />} onClick={() => document.getElementById('brand-logo-input')?.click()}>
            上传标志
          </Button>
          <input
            id="brand-logo-input"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            style={{ display: 'none' }}
            onChange={async (e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (!f) return;
              try {
                const up = await uploadLogo(f);
                form.setFieldValue('logoFile', up.file);
                setLogoUrl(up.url);
              } catch (err) {
                toast('error', (err as Error).message);
              }
            }}
          />
        </Space>
      </Form.Item>
      <Form.Item name="logoFile" hidden>
        <Input />
      </Form.Item>
      <Form.Item
        label="主题色"
        name="primaryColor"
        getValueFromEvent={(c: { toHexString(): string }) => c.toHexString()}
        rules={[{ required: true, message: BRAND_MSG.colorBad }]}
      >
        <ColorPicker showText disabledAlpha />
      </Form.Item>
      <Form.Item label="登录页标题" name="loginTitle">
        <Input maxLength={40} placeholder="留空则显示服务商名称" />
      </Form.Item>
      <Form.Item
        label="服务热线"
        name="hotline"
        normalize={textInput}
        rules={[{ pattern: /^$|^[0-9][0-9 -]{1,18}[0-9]$/, message: BRAND_MSG.hotlineBad }]}
      >
        <Input maxLength={20} placeholder="如 400-123-4567" />
      </Form.Item>
      <Form.Item label="启用" name="enabled" valuePropName="checked">
        <Switch />
      </Form.Item>
    </AdminFormModal>
  );
}
