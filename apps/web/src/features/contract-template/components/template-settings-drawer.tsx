import { CheckCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import {
  jobTypeOf,
  selectTemplateByIdCall,
  TEMPLATE_MSG,
  type TemplateItem,
  type TemplateLine,
  templateVerifySetCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Space, Table, Typography } from 'antd';
import { Auth } from '../../../components/auth';
import { call } from '../../../lib/request';
import { act } from '../../customer/api';
import { TEMPLATE_KEYS } from '../api';
import { JobTag } from './job-tag';

/**
 * The settings view of an enabled template (opened from the setting icon): what the template holds,
 * and whether its settings have been checked and confirmed (isVerifySet: 已配置 / 未配置).
 */
export function TemplateSettingsDrawer({
  template,
  onClose,
  onChanged,
}: {
  template: TemplateItem | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const id = template?.id ?? 0;
  const detail = useQuery({
    queryKey: TEMPLATE_KEYS.detail(id),
    queryFn: () => call(selectTemplateByIdCall, { id }),
    enabled: template !== null,
  });
  const d = detail.data;
  const set = d?.isVerifySet === '1';

  const mark = async (value: '' | '1') => {
    const r = await act(templateVerifySetCall, { id, isVerifySet: value }, TEMPLATE_MSG.saved);
    if (r.ok) {
      void detail.refetch();
      onChanged();
    }
  };

  return (
    <Drawer
      open={template !== null}
      onClose={onClose}
      title={`模板设置：${template?.tempName ?? ''}`}
      size={720}
      extra={
        <Auth perms={['contract:template:edit']}>
          {set ? (
            <Button onClick={() => mark('')}>改为未配置</Button>
          ) : (
            <Button type="primary" onClick={() => mark('1')}>
              确认配置
            </Button>
          )}
        </Auth>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Text>
          {set ? (
            <>
              <CheckCircleFilled style={{ color: '#52c41a' }} /> {TEMPLATE_MSG.configured}
            </>
          ) : (
            <>
              <ExclamationCircleFilled style={{ color: '#faad14' }} /> {TEMPLATE_MSG.notConfigured}
              ：请核对下列服务项目与金额，无误后点击“确认配置”。
            </>
          )}
        </Typography.Text>
        <Descriptions column={2} size="small" bordered>
          <Descriptions.Item label="模板名称">{d?.tempName}</Descriptions.Item>
          <Descriptions.Item label="合同总价（元）">{d?.tempTotalPrice}</Descriptions.Item>
          <Descriptions.Item label="模板说明" span={2}>
            {d?.tempIllustration || '—'}
          </Descriptions.Item>
        </Descriptions>
        <Table<TemplateLine>
          rowKey="service"
          size="small"
          loading={detail.isPending}
          pagination={false}
          dataSource={d?.tempDetailList ?? []}
          columns={[
            { key: 'no', title: '序号', width: 56, align: 'center', render: (_v, _l, i) => i + 1 },
            { key: 'name', title: '服务项目', render: (_v, l) => <JobTag name={l.serviceName} jobType={l.jobType} /> },
            { key: 'type', title: '业务类型', render: (_v, l) => jobTypeOf(l.jobType)?.label ?? '其他' },
            { key: 'give', title: '赠送', align: 'center', render: (_v, l) => (l.isGive === 1 ? '是' : '否') },
            { key: 'price', title: '单价', align: 'right', dataIndex: 'price' },
            { key: 'discount', title: '优惠', align: 'right', dataIndex: 'discount' },
            { key: 'now', title: '优惠后金额', align: 'right', dataIndex: 'nowPrice' },
          ]}
        />
      </Space>
    </Drawer>
  );
}
