import {
  BankOutlined,
  DownOutlined,
  LockOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { ORG_TYPE_NAMES, ROLE_LABELS, type SessionInfo } from '@dzy/shared';
import { Button, Dropdown, Layout, type MenuProps, Tag, Tooltip, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { BrandLogo } from '../../components/brand-logo';
import { UserAvatar } from '../../components/user-avatar';
import { IdentitySwitch, OrgSwitcher } from '../../features/org';
import { usePermittedPaths } from '../../lib/menu';
import { signOut } from '../../lib/session';

export const PROFILE_PATH = '/nested/menu1/baseInfo';
export const CHANGE_PASSWORD_PATH = '/nested/menu1/changePassword';

/** The 50 px top bar: product, organisation, sidebar toggle and the user menu. */
export function AppHeader({
  session,
  collapsed,
  onToggle,
}: {
  session: SessionInfo;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const navigate = useNavigate();
  const permitted = usePermittedPaths();
  const name = session.token.hymc || session.phone;

  const items: MenuProps['items'] = [
    ...(permitted.has(PROFILE_PATH) ? [{ key: PROFILE_PATH, icon: <UserOutlined />, label: '个人设置' }] : []),
    ...(permitted.has(CHANGE_PASSWORD_PATH)
      ? [{ key: CHANGE_PASSWORD_PATH, icon: <LockOutlined />, label: '修改密码' }]
      : []),
    ...(permitted.has(PROFILE_PATH) || permitted.has(CHANGE_PASSWORD_PATH) ? [{ type: 'divider' as const }] : []),
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];

  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') void signOut();
    else navigate(key);
  };

  return (
    <Layout.Header className="dzy-header">
      <div className="dzy-header-brand" style={{ width: collapsed ? 64 : 200 }}>
        <BrandLogo size={28} showName={!collapsed} />
      </div>
      <Tooltip title={collapsed ? '展开菜单' : '收起菜单'} placement="bottom">
        <Button
          type="text"
          aria-label={collapsed ? '展开菜单' : '收起菜单'}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
          className="dzy-header-toggle"
        />
      </Tooltip>
      <div className="dzy-header-org">
        {session.orgName ? (
          <>
            <BankOutlined className="dzy-header-org-icon" />
            <Typography.Text strong ellipsis={{ tooltip: session.orgName }} className="dzy-header-org-name">
              {session.orgName}
            </Typography.Text>
            {session.orgType && (
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
      <IdentitySwitch />
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
        <button type="button" className="dzy-header-user">
          <UserAvatar name={session.token.hymc} src={session.token.headimg} size={30} />
          <span className="dzy-header-user-name">{name}</span>
          <DownOutlined style={{ fontSize: 10, color: 'rgba(0,0,0,0.45)' }} />
        </button>
      </Dropdown>
    </Layout.Header>
  );
}
