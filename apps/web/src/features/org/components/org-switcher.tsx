import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSessionInfo } from '../../../lib/session';
import '../org.css';

// The dialogs load on first use: the top bar stays light.
const OrgSwitchDialog = lazy(async () => ({ default: (await import('./org-switch-dialog')).OrgSwitchDialog }));
const CreateAgencyDialog = lazy(async () => ({
  default: (await import('./create-agency-dialog')).CreateAgencyDialog,
}));

/** Query parameter that opens the create-agency dialog from anywhere (the portal links `?createAgency=1`). */
export const CREATE_AGENCY_PARAM = 'createAgency';

/** Platform operators review applications; they do not open agencies of their own. */
const isOperatorOnly = (s: { orgId: number | null; perms: string[] }) =>
  s.orgId === null && s.perms.includes('platform:apply:review');

/**
 * The top bar's organisation switcher: opens 切换组织, and from there (or directly, for a user without an
 * organisation) 创建代理机构.
 */
export function OrgSwitcher() {
  const session = useSessionInfo();
  const [switchOpen, setSwitchOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [used, setUsed] = useState({ switch: false, create: false });
  const [params, setParams] = useSearchParams();

  const openSwitch = () => {
    setUsed((u) => ({ ...u, switch: true }));
    setSwitchOpen(true);
  };
  const openCreate = () => {
    setUsed((u) => ({ ...u, create: true }));
    setCreateOpen(true);
  };

  useEffect(() => {
    if (params.get(CREATE_AGENCY_PARAM) !== '1') return;
    setUsed((u) => ({ ...u, create: true }));
    setCreateOpen(true);
    const next = new URLSearchParams(params);
    next.delete(CREATE_AGENCY_PARAM);
    setParams(next, { replace: true });
  }, [params, setParams]);

  if (isOperatorOnly(session)) return null;
  return (
    <>
      {session.orgId === null ? (
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={openCreate}>
          创建代理机构
        </Button>
      ) : (
        <Tooltip title="切换组织" placement="bottom">
          <Button
            type="text"
            size="small"
            icon={<SwapOutlined />}
            onClick={openSwitch}
            className="dzy-org-switch-btn"
            aria-label="切换组织"
          >
            切换
          </Button>
        </Tooltip>
      )}
      <Suspense fallback={null}>
        {used.switch && (
          <OrgSwitchDialog
            open={switchOpen}
            onClose={() => setSwitchOpen(false)}
            onCreate={() => {
              setSwitchOpen(false);
              openCreate();
            }}
          />
        )}
        {used.create && <CreateAgencyDialog open={createOpen} onClose={() => setCreateOpen(false)} />}
      </Suspense>
    </>
  );
}
