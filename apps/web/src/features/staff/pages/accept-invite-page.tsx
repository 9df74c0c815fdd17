import { MailOutlined, TeamOutlined } from '@ant-design/icons';
import { acceptInviteCall, CODE, getInviteInfoCall, INVITE_STATUS, maskStaffPhone, ROLE_LABELS } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Result, Skeleton } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { PageSpin } from '../../../components/page-spin';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { HOME_PATH, loginPathFor } from '../../../lib/paths';
import { ApiError, call } from '../../../lib/request';
import { SESSION_KEY, signOut, useSession } from '../../../lib/session';
import '../staff.css';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="dzy-accept-page">
      <BrandLogo size={34} />
      <Card className="dzy-accept-card" variant="borderless">
        {children}
      </Card>
      <div className="dzy-accept-footer">代账云 · 代理记账与税务申报协同平台</div>
    </div>
  );
}

/**
 * /acceptInvite?id=<id> (public, foundation.md §2): the link of an invitation SMS. A visitor signs in, or
 * signs up with an SMS code, and comes back here; the invitee then sees who invited them and accepts.
 */
export function AcceptInvitePage() {
  useDocumentTitle('接受邀请');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const [accepting, setAccepting] = useState(false);
  const raw = params.get('id') ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const here = `/acceptInvite?id=${raw}`;
  const signedIn = Boolean(session.data);

  const info = useQuery({
    queryKey: ['staff', 'invite-info', id, session.data?.token.id],
    queryFn: () => call(getInviteInfoCall, { id: id ?? 0 }, { handle: [CODE.NOT_FOUND] }),
    enabled: signedIn && id !== null,
    staleTime: 0,
  });

  if (id === null) {
    return (
      <Frame>
        <Result
          status="warning"
          title="邀请链接无效"
          subTitle="链接不完整，请从邀请短信中重新打开，或联系邀请人重新发送邀请。"
          extra={<Button onClick={() => navigate(HOME_PATH)}>返回首页</Button>}
        />
      </Frame>
    );
  }
  if (session.isPending) return <PageSpin fullScreen />;

  if (!signedIn) {
    return (
      <Frame>
        <Result
          icon={<MailOutlined style={{ color: '#1677ff' }} />}
          title="您收到一份加入代理机构的邀请"
          subTitle="请使用接收邀请短信的手机号登录后查看并接受邀请；尚未注册的手机号可用短信验证码登录，将自动注册。"
          extra={
            <Button type="primary" size="large" onClick={() => navigate(loginPathFor(here))}>
              登录 / 注册后查看邀请
            </Button>
          }
        />
      </Frame>
    );
  }

  const switchAccount = async () => {
    await signOut();
    navigate(loginPathFor(here));
  };

  if (info.isPending) {
    return (
      <Frame>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Frame>
    );
  }
  if (info.isError || !info.data) {
    const notFound = info.error instanceof ApiError && info.error.code === CODE.NOT_FOUND;
    return (
      <Frame>
        <Result
          status="warning"
          title={notFound ? '未找到发给您的邀请' : '邀请信息获取失败'}
          subTitle={
            notFound
              ? `当前登录的手机号为 ${maskStaffPhone(session.data?.phone ?? '')}。邀请只能由接收短信的手机号接受，请切换账号后重试。`
              : '请检查网络后刷新页面重试。'
          }
          extra={[
            <Button key="switch" type="primary" onClick={() => void switchAccount()}>
              切换账号
            </Button>,
            <Button key="home" onClick={() => navigate(HOME_PATH)}>
              返回首页
            </Button>,
          ]}
        />
      </Frame>
    );
  }

  const invite = info.data;
  const accept = async () => {
    setAccepting(true);
    try {
      const joined = await call(acceptInviteCall, { id: invite.id });
      // The session now acts in the agency: everything cached for the previous one goes.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      toast('success', `已加入「${joined?.orgName ?? invite.agencyName}」`);
      navigate(HOME_PATH, { replace: true });
    } catch {
      // Told by the request client (e.g. 该邀请已过期).
      void info.refetch();
    } finally {
      setAccepting(false);
    }
  };

  const closed =
    invite.alreadyMember || invite.status !== INVITE_STATUS.pending
      ? invite.alreadyMember
        ? { title: '您已是该机构成员', sub: '无需重复加入，可直接进入系统。' }
        : invite.status === INVITE_STATUS.accepted
          ? { title: '该邀请已接受', sub: '可直接进入系统。' }
          : invite.status === INVITE_STATUS.cancelled
            ? { title: '该邀请已取消', sub: '如需加入，请联系邀请人重新邀请。' }
            : { title: '该邀请已过期', sub: '邀请有效期为7天，请联系邀请人重新邀请。' }
      : null;

  return (
    <Frame>
      <div style={{ textAlign: 'center' }}>
        <TeamOutlined style={{ fontSize: 40, color: '#1677ff' }} />
      </div>
      <div className="dzy-accept-agency">{invite.agencyName}</div>
      <div className="dzy-accept-lead">{invite.inviterName || '管理员'} 邀请您加入本机构</div>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'phone', label: '受邀手机号', children: invite.sjh },
          ...(invite.hymc ? [{ key: 'name', label: '姓名', children: invite.hymc }] : []),
          { key: 'role', label: '角色标签', children: ROLE_LABELS[invite.role as 0 | 1 | 2] ?? '部门员工' },
          { key: 'dept', label: '部门', children: invite.departmentName || '未分配' },
          { key: 'until', label: '有效期至', children: dayjs(invite.expiresAt).format('YYYY-MM-DD HH:mm') },
        ]}
      />
      {closed ? (
        <>
          <Alert
            style={{ marginTop: 24 }}
            type={invite.alreadyMember || invite.status === INVITE_STATUS.accepted ? 'success' : 'warning'}
            showIcon
            title={closed.title}
            description={closed.sub}
          />
          <div className="dzy-accept-actions">
            <Button type="primary" size="large" onClick={() => navigate(HOME_PATH)}>
              进入系统
            </Button>
          </div>
        </>
      ) : (
        <div className="dzy-accept-actions">
          <Button type="primary" size="large" loading={accepting} onClick={() => void accept()}>
            接受邀请并加入
          </Button>
          <Button size="large" onClick={() => navigate(HOME_PATH)}>
            暂不加入
          </Button>
        </div>
      )}
    </Frame>
  );
}
