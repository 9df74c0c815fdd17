import {
  AccountBookOutlined,
  PlusOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { getQyBookCountInfoCall, hasPerm, ROLE_LABELS, type SessionInfo } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Progress, Row, Skeleton, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, type ReactNode, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';
import { useDocumentTitle } from '../../../lib/document-title';
import { formatCount, formatLimit, greeting } from '../../../lib/format';
import { call } from '../../../lib/request';
import { SESSION_KEY, useSessionInfo } from '../../../lib/session';
import { NewsBlock } from '../../content/components/news-block';
import '../dashboard.css';

// Only a user without an agency sees it: its form (Cascader, dictionaries) stays out of the portal's first load.
const KjgcApplyButton = lazy(async () => ({ default: (await import('../../kjgc/kjgc-apply-dialog')).KjgcApplyButton }));

export function Welcome({ session }: { session: SessionInfo }) {
  const name = session.token.hymc || session.phone;
  return (
    <Card className="dzy-welcome" variant="borderless">
      <div className="dzy-welcome-main">
        <UserAvatar name={session.token.hymc} src={session.token.headimg} size={56} />
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {greeting()}，{name}，欢迎回到代账云
          </Typography.Title>
          <div className="dzy-welcome-sub">
            {session.orgName ? (
              <>
                <span>{session.orgName}</span>
                {session.role !== null && (
                  <Tag color={session.isAdmin === '1' ? 'gold' : 'blue'} variant="filled">
                    {ROLE_LABELS[session.role]}
                  </Tag>
                )}
                {session.token.zw && <span className="dzy-welcome-muted">{session.token.zw}</span>}
              </>
            ) : (
              <span className="dzy-welcome-muted">尚未加入代理机构</span>
            )}
          </div>
        </div>
      </div>
      <div className="dzy-welcome-date">
        <div className="dzy-welcome-day">{dayjs().format('D')}</div>
        <div>
          <div>{dayjs().format('YYYY年M月')}</div>
          <div className="dzy-welcome-muted">{dayjs().format('dddd')}</div>
        </div>
      </div>
    </Card>
  );
}

function StatCard({
  title,
  value,
  icon,
  color,
  footer,
}: {
  title: string;
  value: string;
  icon: ReactNode;
  color: string;
  footer: ReactNode;
}) {
  return (
    <Card variant="borderless" className="dzy-stat">
      <div className="dzy-stat-head">
        <span className="dzy-stat-title">{title}</span>
        <span className="dzy-stat-icon" style={{ color, background: `${color}14` }}>
          {icon}
        </span>
      </div>
      <div className="dzy-stat-value">{value}</div>
      <div className="dzy-stat-foot">{footer}</div>
    </Card>
  );
}

function usagePercent(used: number, limit: number | null): number | null {
  if (limit === null || limit <= 0) return null;
  return Math.min(100, Math.round((used / limit) * 100));
}

function Counts({ orgId }: { orgId: number }) {
  const counts = useQuery({
    queryKey: ['dashboard', 'counts', orgId],
    queryFn: () => call(getQyBookCountInfoCall, {}),
  });

  if (counts.isPending) {
    return (
      <Row gutter={[16, 16]}>
        {['a', 'b', 'c', 'd'].map((k) => (
          <Col key={k} xs={24} sm={12} xl={6}>
            <Card variant="borderless" className="dzy-stat">
              <Skeleton active paragraph={{ rows: 2 }} title={{ width: '40%' }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }

  if (counts.isError) {
    return (
      <Card variant="borderless">
        <Empty description="统计数据加载失败">
          <Button icon={<ReloadOutlined />} onClick={() => void counts.refetch()}>
            重新加载
          </Button>
        </Empty>
      </Card>
    );
  }

  const c = counts.data ?? {
    qyxzsl: null,
    jzxzsl: null,
    curQyCount: 0,
    curYearMonthJzCount: 0,
    staffCount: 0,
    scopeQyCount: 0,
    wholeAgency: true,
  };
  const qyPct = usagePercent(c.curQyCount, c.qyxzsl);
  const jzPct = usagePercent(c.curYearMonthJzCount, c.jzxzsl);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          title={c.wholeAgency ? '客户数' : '我负责的客户'}
          value={formatCount(c.wholeAgency ? c.curQyCount : c.scopeQyCount)}
          icon={<TeamOutlined />}
          color="#1677ff"
          footer={
            !c.wholeAgency ? (
              <span>按您的数据权限统计</span>
            ) : qyPct === null ? (
              <span>授权不限量</span>
            ) : (
              <>
                <Progress percent={qyPct} size="small" showInfo={false} strokeColor="#1677ff" />
                <span>已用授权 {qyPct}%</span>
              </>
            )
          }
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          title="授权客户数"
          value={formatLimit(c.qyxzsl)}
          icon={<SafetyCertificateOutlined />}
          color="#13a8a8"
          footer={
            <span>
              {c.qyxzsl === null
                ? '不限客户数量'
                : `剩余可添加 ${formatCount(Math.max(0, c.qyxzsl - c.curQyCount))} 户`}
            </span>
          }
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          title="本月记账"
          value={formatCount(c.curYearMonthJzCount)}
          icon={<AccountBookOutlined />}
          color="#722ed1"
          footer={
            <span>
              授权账套 {formatLimit(c.jzxzsl)}
              {jzPct !== null && ` · 已用 ${jzPct}%`}
            </span>
          }
        />
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <StatCard
          title="员工数"
          value={formatCount(c.staffCount)}
          icon={<UsergroupAddOutlined />}
          color="#fa8c16"
          footer={<span>本机构在职成员</span>}
        />
      </Col>
    </Row>
  );
}

const GUIDE = [
  { title: '完善机构信息', text: '补充机构名称、税号与所在地区，便于客户识别与开具票据。' },
  { title: '邀请团队成员', text: '邀请会计加入机构并分配部门与角色，按角色控制可见范围。' },
  { title: '导入客户企业', text: '批量导入客户名称与税号，为每户客户指定负责会计。' },
  { title: '开展记账与申报', text: '按月记账、批量申报，随时在门户查看整体进度。' },
];

function Guide() {
  return (
    <Card title="上手指引" variant="borderless" className="dzy-guide">
      <ol className="dzy-guide-list">
        {GUIDE.map((g, i) => (
          <li key={g.title}>
            <span className="dzy-guide-no">{i + 1}</span>
            <div>
              <div className="dzy-guide-title">{g.title}</div>
              <div className="dzy-guide-text">{g.text}</div>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}

export function NoOrganisation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <Card variant="borderless">
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        styles={{ image: { height: 80 } }}
        description={
          <div className="dzy-noorg">
            <Typography.Title level={5} style={{ marginBottom: 8 }}>
              您还没有加入任何代理机构
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              代账云以代理机构为单位管理客户、合同、记账与申报。请联系您所在机构的管理员发出邀请，或创建您自己的代理机构；加入后即可在门户查看客户与记账统计。
            </Typography.Paragraph>
          </div>
        }
      >
        <Space>
          {/* The top bar's organisation switcher opens the create dialog for ?createAgency=1. */}
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/dashboard?createAgency=1')}>
            创建代理机构
          </Button>
          <Suspense fallback={null}>
            <KjgcApplyButton />
          </Suspense>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void queryClient.invalidateQueries({ queryKey: SESSION_KEY })}
          >
            我已加入，刷新
          </Button>
        </Space>
      </Empty>
    </Card>
  );
}

/** 门户: welcome, the agency's counts, and a short start guide. */
export function DashboardPage() {
  useDocumentTitle('门户');
  const session = useSessionInfo();
  const canView = hasPerm(session.perms, 'dashboard:counts:view');
  return (
    <div className="dzy-dashboard">
      <Welcome session={session} />
      {session.orgId === null ? (
        <NoOrganisation />
      ) : (
        <>
          {canView ? (
            <Counts orgId={session.orgId} />
          ) : (
            <Card variant="borderless">
              <Empty description="当前账户没有查看机构统计的权限" />
            </Card>
          )}
          {session.isAdmin === '1' && <Guide />}
          <NewsBlock />
        </>
      )}
    </div>
  );
}
