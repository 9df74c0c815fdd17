import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSessionInfo } from '../../../lib/session';
import { CreateAgencyDialog } from './create-agency-dialog';
import { OrgSwitchDialog } from './org-switch-dialog';
import '../org.css';

/** Query parameter that opens the create-agency dialog from anywhere (the portal links `?createAgency=1`). */
export const CREATE_AGENCY_PARAM = 'createAgency';

/**
 * The top bar's organisation switcher: opens 切换组织, and from there (or directly, for a user without an
 * organisation) 创建代理机构.
 */
export function OrgSwitcher() {
  const session = useSessionInfo();
  const [switchOpen, setSwitchOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [params, setParams] = useSearchParams();

  useEffect(() => {
    if (params.get(CREATE_AGENCY_PARAM) !== '1') return;
    setCreateOpen(true);
    const next = new URLSearchParams(params);
    next.delete(CREATE_AGENCY_PARAM);
    setParams(next, { replace: true });
  }, [params, setParams]);

  return (
    <>
      {session.orgId === null ? (
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={() => setCreateOpen(true)}>
          创建代理机构
        </Button>
      ) : (
        <Tooltip title="切换组织" placement="bottom">
          <Button
            type="text"
            size="small"
            icon={<SwapOutlined />}
            onClick={() => setSwitchOpen(true)}
            className="dzy-org-switch-btn"
            aria-label="切换组织"
          >
            切换
          </Button>
        </Tooltip>
      )}
      <OrgSwitchDialog
        open={switchOpen}
        onClose={() => setSwitchOpen(false)}
        onCreate={() => {
          setSwitchOpen(false);
          setCreateOpen(true);
        }}
      />
      <CreateAgencyDialog open={createOpen} onClose={() => setCreateOpen(false)} />
    </>
  );
}
