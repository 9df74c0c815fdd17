import { CopyOutlined, MessageOutlined, SyncOutlined } from '@ant-design/icons';
import { Button, Card, Result, Space, Table, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { type OutboxMessage, useDevOutbox } from '../../../lib/dev-outbox';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import '../public.css';

const REFRESH_MS = 2000;

function codeIn(content: string): string | null {
  return /(?<!\d)\d{6}(?!\d)/.exec(content)?.[0] ?? null;
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast('success', `已复制验证码 ${text}`);
  } catch {
    toast('warning', '复制失败，请手动选择文本复制');
  }
}

/** /dev/outbox: the SMS the development server "sent", newest first, refreshed every 2 s. */
export function DevOutboxPage() {
  useDocumentTitle('开发短信收件箱');
  const outbox = useDevOutbox(REFRESH_MS);

  const columns = [
    {
      title: '发送时间',
      dataIndex: 'createdAt',
      width: 180,
      render: (v: string) => (dayjs(v).isValid() ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : v),
    },
    { title: '手机号', dataIndex: 'phone', width: 140 },
    { title: '短信内容', dataIndex: 'content' },
    {
      title: '验证码',
      key: 'code',
      width: 150,
      render: (_: unknown, row: OutboxMessage) => {
        const code = codeIn(row.content);
        return code ? (
          <Space size={4}>
            <Tag color="blue" style={{ fontFamily: 'monospace', fontSize: 14, marginInlineEnd: 0 }}>
              {code}
            </Tag>
            <Tooltip title="复制验证码">
              <Button
                type="text"
                size="small"
                icon={<CopyOutlined />}
                onClick={() => void copy(code)}
                aria-label="复制验证码"
              />
            </Tooltip>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        );
      },
    },
  ];

  return (
    <div className="dzy-public-page dzy-doc-page">
      <header className="dzy-doc-top">
        <Link to="/login" aria-label="代账云首页">
          <BrandLogo size={28} />
        </Link>
        <Link to="/login">返回登录</Link>
      </header>
      <div className="dzy-outbox">
        {outbox.isSuccess && outbox.data === null ? (
          <Card variant="borderless">
            <Result
              status="info"
              title="开发短信收件箱不可用"
              subTitle="收件箱仅在开发环境中提供，且须先以平台运营账号（演示账号 13600000000）登录；验证码同时打印在服务器日志中。生产环境会通过短信服务商真实发送短信。"
            />
          </Card>
        ) : (
          <Card
            variant="borderless"
            title={
              <Space>
                <MessageOutlined style={{ color: '#1677ff' }} />
                开发短信收件箱
              </Space>
            }
            extra={
              <Typography.Text type="secondary">
                <SyncOutlined spin={outbox.isFetching} style={{ marginRight: 6 }} />每 2 秒自动刷新
              </Typography.Text>
            }
          >
            <Typography.Paragraph type="secondary">
              开发环境不会真正发送短信，服务器“发出”的短信都列在这里，最新的在最前面。
            </Typography.Paragraph>
            <Table<OutboxMessage>
              rowKey="id"
              size="middle"
              loading={outbox.isPending}
              columns={columns}
              dataSource={outbox.data ?? []}
              pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
              locale={{ emptyText: '暂无短信' }}
            />
          </Card>
        )}
      </div>
    </div>
  );
}
