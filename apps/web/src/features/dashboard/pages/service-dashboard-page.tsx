import {
  hasPerm,
  MESSAGE_PAGE_SIZE,
  noQyshListCall,
  receivableListCall,
  selectMsgListCall,
  woListCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, List, Row, Skeleton, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { formatCount } from '../../../lib/format';
import { useMenuJump } from '../../../lib/menu';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { NewsBlock } from '../../content/components/news-block';
import { openMessageCenter } from '../../message';
import { NoOrganisation, Welcome } from './dashboard-page';
import '../dashboard.css';

const WO_PATH = '/customer/swgl/workorder';
const CUSTOMER_PATH = '/customer/khgl/wdkh';
const FEE_PATH = '/contractFee/sfgl/sflb';
/** Rows each block shows; the full lists are one click away. */
const SHOWN = 6;

/** One figure of the service version: what waits for the user, a click to the page that handles it. */
function Tile({
  title,
  value,
  hint,
  tone,
  onOpen,
}: {
  title: string;
  value: number | null | undefined;
  hint: string;
  tone: string;
  onOpen: () => void;
}) {
  return (
    <Card variant="borderless" className="dzy-service-tile" hoverable onClick={onOpen}>
      <div className="dzy-stat-title">{title}</div>
      <div className="dzy-stat-value" style={{ color: value ? tone : undefined }}>
        {value === undefined ? <Skeleton.Button active size="small" /> : value === null ? '—' : formatCount(value)}
      </div>
      <div className="dzy-stat-foot">{hint}</div>
    </Card>
  );
}

function Block({ title, more, children }: { title: string; more?: () => void; children: ReactNode }) {
  return (
    <Card
      variant="borderless"
      title={title}
      className="dzy-service-block"
      extra={
        more && (
          <Button type="link" size="small" onClick={more}>
            查看全部
          </Button>
        )
      }
    >
      {children}
    </Card>
  );
}

/**
 * 门户, service version (门户版本 2, /newDashboard): the agency's service work first — the work-order steps
 * waiting for me (overdue ones marked), the clients that need a tax number, unpaid fees and my messages —
 * from the calls the pages behind them already use.
 */
export function ServiceDashboardPage() {
  useDocumentTitle('门户');
  const session = useSessionInfo();
  const jump = useMenuJump();
  const orgId = session.orgId;
  const canWo = hasPerm(session.perms, 'workorder:list:view');
  const canFee = hasPerm(session.perms, 'fee:list:view');
  const me = session.token.id;

  const myOrders = useQuery({
    queryKey: ['dashboard', 'service', 'my-orders', orgId, me],
    queryFn: () => call(woListCall, { assigneeId: me, pageNo: 1, pageSize: 10 }),
    enabled: orgId !== null && canWo,
  });
  const overdue = useQuery({
    queryKey: ['dashboard', 'service', 'overdue', orgId, me],
    queryFn: () => call(woListCall, { assigneeId: me, overdue: true, pageNo: 1, pageSize: 10 }),
    enabled: orgId !== null && canWo,
  });
  const noTax = useQuery({
    queryKey: ['dashboard', 'service', 'no-qysh', orgId],
    queryFn: async () => (await call(noQyshListCall, {})) ?? [],
    enabled: orgId !== null,
  });
  const unpaid = useQuery({
    queryKey: ['dashboard', 'service', 'unpaid', orgId],
    queryFn: () => call(receivableListCall, { feeStatus: 'unpaid', pageNo: 1, pageSize: 20 }),
    enabled: orgId !== null && canFee,
  });
  const messages = useQuery({
    queryKey: ['dashboard', 'service', 'messages', orgId, me],
    queryFn: () => call(selectMsgListCall, { msg_style_big: 1, pageNo: 1, pageSize: MESSAGE_PAGE_SIZE }),
    enabled: orgId !== null,
  });

  if (orgId === null) {
    return (
      <div className="dzy-dashboard">
        <Welcome session={session} />
        <NoOrganisation />
      </div>
    );
  }

  // undefined while loading; null when the user may not see it or it failed.
  const figure = (allowed: boolean, q: { data?: { total: number } | null; isError: boolean }) =>
    !allowed || q.isError ? null : q.data === undefined ? undefined : (q.data?.total ?? 0);
  const orders = myOrders.data?.list ?? [];
  return (
    <div className="dzy-dashboard" data-testid="service-dashboard">
      <Welcome session={session} />
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} xl={6}>
          <Tile
            title="我的待办工单"
            value={figure(canWo, myOrders)}
            hint={canWo ? '等待我处理的工单步骤' : '无工单查看权限'}
            tone="#1677ff"
            onOpen={() => jump(WO_PATH)}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Tile
            title="逾期工单"
            value={figure(canWo, overdue)}
            hint={canWo ? '我的步骤已过预计完成日' : '无工单查看权限'}
            tone="#f5222d"
            onOpen={() => jump(WO_PATH)}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Tile
            title="待补税号客户"
            value={noTax.isError ? null : noTax.data === undefined ? undefined : noTax.data.length}
            hint="缺少税号无法开票、记账与申报"
            tone="#fa8c16"
            onOpen={() => jump(CUSTOMER_PATH)}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Tile
            title="未收款账期"
            value={figure(canFee, unpaid)}
            hint={canFee ? '已到期仍未收款' : '无收费查看权限'}
            tone="#722ed1"
            onOpen={() => jump(FEE_PATH)}
          />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Block title="我的待办工单" more={canWo ? () => jump(WO_PATH) : undefined}>
            {!canWo ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="当前账户没有查看工单的权限" />
            ) : myOrders.isPending ? (
              <Skeleton active />
            ) : orders.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待办工单" />
            ) : (
              <List
                size="small"
                dataSource={orders.slice(0, SHOWN)}
                renderItem={(o) => (
                  <List.Item extra={o.overdue ? <Tag color="error">已逾期</Tag> : <Tag color="processing">进行中</Tag>}>
                    <List.Item.Meta
                      title={
                        <Typography.Text ellipsis>
                          {o.qymc} · {o.templateName || '工单'}
                        </Typography.Text>
                      }
                      description={`${o.orderNo}　当前步骤：${o.currentStep || '—'}`}
                    />
                  </List.Item>
                )}
              />
            )}
          </Block>
        </Col>
        <Col xs={24} xl={10}>
          <Block title="派工消息" more={openMessageCenter}>
            {messages.isPending ? (
              <Skeleton active />
            ) : (messages.data?.list.length ?? 0) === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消息" />
            ) : (
              <List
                size="small"
                dataSource={messages.data?.list ?? []}
                renderItem={(m) => (
                  <List.Item
                    extra={<span className="dzy-welcome-muted">{dayjs(m.createTime).format('MM-DD HH:mm')}</span>}
                  >
                    <Typography.Text ellipsis style={{ fontWeight: m.known ? undefined : 600 }}>
                      {m.content}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            )}
          </Block>
        </Col>
      </Row>
      {(noTax.data?.length ?? 0) > 0 && (
        <Block title="待补税号的客户" more={() => jump(CUSTOMER_PATH)}>
          <List
            size="small"
            grid={{ gutter: 16, xs: 1, md: 2, xl: 3 }}
            dataSource={(noTax.data ?? []).slice(0, SHOWN)}
            renderItem={(e) => (
              <List.Item>
                <Typography.Text ellipsis>{e.qymc}</Typography.Text>
              </List.Item>
            )}
          />
        </Block>
      )}
      <NewsBlock />
    </div>
  );
}
