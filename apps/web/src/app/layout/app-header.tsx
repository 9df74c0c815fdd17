import {
  AppstoreOutlined,
  BankOutlined,
  ClearOutlined,
  DownloadOutlined,
  DownOutlined,
  LockOutlined,
  LogoutOutlined,
  MailOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  agencyUserRelationCall,
  hasPerm,
  type MenuNode,
  moreMenuFor,
  ORG_TYPE_NAMES,
  ROLE_LABELS,
  type SessionInfo,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, ConfigProvider, Dropdown, Layout, Menu, type MenuProps, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DialogLoading } from '../../components/dialog-loading';
import { UserAvatar } from '../../components/user-avatar';
import { AgencyBrandLogo } from '../../features/brand/agency-brand';
import { NewsBell, openMessageCenter, type PartnerKey } from '../../features/message';
import { IdentitySwitch, OrgSwitcher } from '../../features/org';
import { usePermittedPaths } from '../../lib/menu';
import { useOnceOpened } from '../../lib/once-opened';
import { call } from '../../lib/request';
import { signOut } from '../../lib/session';
import { menuIcon } from './menu-icons';
import { firstPage } from './nav';

// Dialogs of the top bar load the first time they open (showing DialogLoading meanwhile): they are not part
// of the shell's first load.
const PartnerDialog = lazy(async () => ({
  default: (await import('../../features/message/components/partner-dialog')).PartnerDialog,
}));
const ClearCacheDialog = lazy(async () => ({
  default: (await import('../../features/message/components/clear-cache-dialog')).ClearCacheDialog,
}));

export const PROFILE_PATH = '/nested/menu1/baseInfo';
export const CHANGE_PASSWORD_PATH = '/nested/menu1/changePassword';
export const AGENCY_INFO_PATH = '/nested/manage/agency-info';
export const DOWNLOAD_PATH = '/nested/aboutDownload';

/** The agency the session acts for (its province decides the more menu's region rules). */
function useAgencyRelation(orgId: number | null) {
  return useQuery({
    queryKey: ['shell', 'relation', orgId],
    queryFn: () => call(agencyUserRelationCall, {}, { handle: 'all' }),
    staleTime: 10 * 60_000,
    enabled: orgId !== null,
  });
}

/** The top menu of topMenuSetting 2: one entry per top menu, in the header. */
function TopMenu({ tree, active }: { tree: MenuNode[]; active: string | null }) {
  const navigate = useNavigate();
  return (
    // The header stays light whatever the sidebar colours are.
    <ConfigProvider theme={{ components: { Menu: { itemBg: 'transparent', itemColor: 'rgba(0,0,0,0.88)' } } }}>
      <Menu
        mode="horizontal"
        className="dzy-top-menu"
        // The overflow measurement needs a width: about 104 px an entry.
        style={{ width: tree.length * 104 }}
        selectedKeys={active ? [active] : []}
        items={tree.map((n) => ({ key: n.path, icon: menuIcon(n.icon, true), label: n.title }))}
        onClick={({ key }) => {
          const node = tree.find((n) => n.path === key);
          const target = node ? firstPage(node) : null;
          if (target) navigate(target);
        }}
      />
    </ConfigProvider>
  );
}

export interface AppHeaderProps {
  session: SessionInfo;
  mode: 1 | 2;
  mobile: boolean;
  tree: MenuNode[];
  activeTop: string | null;
  /** The sidebar toggle; null when there is no sidebar to fold. */
  collapsed: boolean | null;
  onToggle: () => void;
  onOpenNav: () => void;
  onOpenSettings: () => void;
  showLogo: boolean;
}

/** The 50 px top bar (foundation.md §2). */
export function AppHeader(props: AppHeaderProps) {
  const { session, mode, mobile, tree, activeTop, collapsed, onToggle, onOpenNav, onOpenSettings, showLogo } = props;
  const navigate = useNavigate();
  const permitted = usePermittedPaths();
  const relation = useAgencyRelation(session.orgId);
  const [partner, setPartner] = useState<PartnerKey | null>(null);
  const [clearing, setClearing] = useState(false);
  const partnerUsed = useOnceOpened(partner !== null);
  const clearingUsed = useOnceOpened(clearing);
  const name = session.token.hymc || session.phone;

  const more = moreMenuFor(session.perms, relation.data?.agencyInfo?.sssf);
  const canAgencyInfo = hasPerm(session.perms, 'agency:info:view') && permitted.has(AGENCY_INFO_PATH);

  const items: MenuProps['items'] = [
    { key: 'messages', icon: <MailOutlined />, label: '消息中心' },
    ...(permitted.has(PROFILE_PATH) ? [{ key: PROFILE_PATH, icon: <UserOutlined />, label: '个人设置' }] : []),
    ...(permitted.has(CHANGE_PASSWORD_PATH)
      ? [{ key: CHANGE_PASSWORD_PATH, icon: <LockOutlined />, label: '修改密码' }]
      : []),
    ...(canAgencyInfo ? [{ key: AGENCY_INFO_PATH, icon: <BankOutlined />, label: '代理机构管理' }] : []),
    { key: 'clear-cache', icon: <ClearOutlined />, label: '清除缓存' },
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];

  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') void signOut();
    else if (key === 'messages') openMessageCenter();
    else if (key === 'clear-cache') setClearing(true);
    else navigate(key);
  };

  return (
    <Layout.Header className="dzy-header">
      {mobile ? (
        <Button
          type="text"
          aria-label="打开导航"
          icon={<MenuOutlined />}
          onClick={onOpenNav}
          className="dzy-header-toggle"
        />
      ) : (
        showLogo && (
          // The logo leads home: / goes to the portal of the chosen version (门户版本).
          <Link
            to="/"
            aria-label="门户"
            className={mode === 1 ? 'dzy-header-brand dzy-header-brand-left' : 'dzy-header-brand'}
          >
            <AgencyBrandLogo size={28} />
          </Link>
        )
      )}
      {!mobile && collapsed !== null && (
        <Tooltip title={collapsed ? '展开菜单' : '收起菜单'} placement="bottom">
          <Button
            type="text"
            aria-label={collapsed ? '展开菜单' : '收起菜单'}
            icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={onToggle}
            className="dzy-header-toggle"
          />
        </Tooltip>
      )}
      {!mobile && mode === 2 && <TopMenu tree={tree} active={activeTop} />}
      <div className="dzy-header-org">
        {session.orgName ? (
          <>
            <BankOutlined className="dzy-header-org-icon" />
            <Typography.Text strong ellipsis={{ tooltip: session.orgName }} className="dzy-header-org-name">
              {session.orgName}
            </Typography.Text>
            {session.orgType && !mobile && (
              <Tag color="blue" variant="filled" style={{ marginInlineEnd: 0 }}>
                {ORG_TYPE_NAMES[session.orgType]}
              </Tag>
            )}
          </>
        ) : (
          <Typography.Text type="secondary">尚未加入代理机构</Typography.Text>
        )}
        <OrgSwitcher />
      </div>
      <div className="dzy-header-right">
        <IdentitySwitch />
        {more.length > 0 && (
          <Dropdown
            trigger={['click']}
            placement="bottomRight"
            menu={{
              items: more.map((m) => ({ key: m.key, label: m.title })),
              // 发票 is this product's own module now (issue 15); the others stay partner services.
              onClick: ({ key }) =>
                key === 'moreModuleCloudInvoice' ? navigate('/moreModuleCloudInvoice') : setPartner(key as PartnerKey),
            }}
          >
            <button type="button" className="dzy-header-icon dzy-header-text" aria-label="更多">
              <AppstoreOutlined />
              {!mobile && <span>更多</span>}
            </button>
          </Dropdown>
        )}
        <Tooltip title="相关下载" placement="bottom">
          <button type="button" className="dzy-header-icon dzy-header-text" onClick={() => navigate(DOWNLOAD_PATH)}>
            <DownloadOutlined />
            {!mobile && <span>相关下载</span>}
          </button>
        </Tooltip>
        <NewsBell />
        <Tooltip title="布局设置" placement="bottom">
          <button type="button" className="dzy-header-icon" aria-label="布局设置" onClick={onOpenSettings}>
            <SettingOutlined style={{ fontSize: 17 }} />
          </button>
        </Tooltip>
        <Dropdown
          menu={{ items, onClick: onMenuClick }}
          placement="bottomRight"
          trigger={['hover', 'click']}
          popupRender={(menu) => (
            <div className="dzy-user-popup">
              <div className="dzy-user-popup-head">
                <UserAvatar name={session.token.hymc} src={session.token.headimg} size={40} />
                <div style={{ minWidth: 0 }}>
                  <div className="dzy-user-popup-name">{name}</div>
                  <div className="dzy-user-popup-sub">
                    {session.phone}
                    {session.role !== null && ` · ${ROLE_LABELS[session.role]}`}
                  </div>
                </div>
              </div>
              {menu}
            </div>
          )}
        >
          <button type="button" className="dzy-header-user" aria-label="用户菜单">
            <UserAvatar name={session.token.hymc} src={session.token.headimg} size={30} />
            {!mobile && <span className="dzy-header-user-name">{name}</span>}
            <DownOutlined style={{ fontSize: 10, color: 'rgba(0,0,0,0.45)' }} />
          </button>
        </Dropdown>
      </div>
      <Suspense fallback={<DialogLoading />}>
        {partnerUsed && <PartnerDialog module={partner} onClose={() => setPartner(null)} />}
        {clearingUsed && <ClearCacheDialog open={clearing} onClose={() => setClearing(false)} />}
      </Suspense>
    </Layout.Header>
  );
}
