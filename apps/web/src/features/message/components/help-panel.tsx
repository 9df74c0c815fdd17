import {
  CustomerServiceOutlined,
  EditOutlined,
  LeftOutlined,
  PhoneOutlined,
  RightOutlined,
  RobotOutlined,
} from '@ant-design/icons';
import {
  AQ_URL_MSG,
  getAqUrlCall,
  getHotlinesCall,
  insertServiceLogCall,
  SERVICE_REQUEST_OK,
  whitelistSaveCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Popover, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { DialogLoading } from '../../../components/dialog-loading';
import { toast } from '../../../lib/feedback';
import { useOnceOpened } from '../../../lib/once-opened';
import { call } from '../../../lib/request';
import { MESSAGE_KEYS } from '../api';
// The shell shows these on every page: their styles cannot wait for 消息管理 (loaded when opened).
import '../message.css';

// The panel's dialogs load the first time they open (showing DialogLoading meanwhile): the panel is on every
// page of the shell.
const EnterpriseChooser = lazy(async () => ({
  default: (await import('../../../components/enterprise-chooser/enterprise-chooser')).EnterpriseChooser,
}));
const HotlineEditor = lazy(async () => ({ default: (await import('./hotline-editor')).HotlineEditor }));
const PartnerDialog = lazy(async () => ({ default: (await import('./partner-dialog')).PartnerDialog }));

const COLLAPSE_KEY = 'dzy:help-collapsed';

/**
 * The floating help panel on the right (foundation.md §2, business.md): online service, AI
 * consultation, the agency's hotlines and a collapse toggle. AI and hotlines are hidden for kd agencies
 * of province 120000 (the server says so with showAiAndHotline).
 */
export function HelpPanel() {
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(COLLAPSE_KEY) === '1');
  const [chooser, setChooser] = useState(false);
  const [ai, setAi] = useState(false);
  const [editing, setEditing] = useState(false);
  const chooserUsed = useOnceOpened(chooser);
  const aiUsed = useOnceOpened(ai);
  const help = useQuery({
    queryKey: MESSAGE_KEYS.hotlines,
    queryFn: () => call(getHotlinesCall, {}, { handle: 'all' }),
    staleTime: 5 * 60_000,
  });
  const show = help.data?.showAiAndHotline ?? true;
  const hotlines = help.data?.list ?? [];

  // AI 咨询 opens the address the operator configured for the agency's region (user/whiteList/aqUrl), read
  // beforehand so the click opens the tab itself (a tab opened after a request is a blocked pop-up); the member
  // joins the agency's whitelist the first time. Without an address the dialog says so plainly.
  const aq = useQuery({
    queryKey: ['help', 'aq-url'],
    queryFn: () => call(getAqUrlCall, {}, { handle: 'all' }),
    staleTime: 5 * 60_000,
    enabled: show,
  });
  const openAi = () => {
    const r = aq.data;
    if (!r?.configured) {
      setAi(true);
      return;
    }
    window.open(r.aqUrl, '_blank', 'noopener,noreferrer');
    if (!r.whitelistResult) {
      void call(whitelistSaveCall, {})
        .then(() => aq.refetch())
        .catch(() => undefined);
    }
  };

  const toggle = () => {
    setCollapsed((c) => {
      window.localStorage.setItem(COLLAPSE_KEY, c ? '0' : '1');
      return !c;
    });
  };

  const hotlineContent = (
    <div className="dzy-hotline-popup">
      {hotlines.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="本机构尚未设置服务热线" />
      ) : (
        <ul>
          {hotlines.map((h) => (
            <li key={h.id}>
              <span className="dzy-hotline-name">{h.rxmc}</span>
              <span className="dzy-hotline-number">{h.rxnr}</span>
            </li>
          ))}
        </ul>
      )}
      {help.data?.editable && (
        <Button block size="small" icon={<EditOutlined />} onClick={() => setEditing(true)}>
          设置服务热线
        </Button>
      )}
    </div>
  );

  return (
    <>
      <div className={collapsed ? 'dzy-help dzy-help-collapsed' : 'dzy-help'} data-testid="help-panel">
        {!collapsed && (
          <>
            <Tooltip title="在线客服" placement="left">
              <button type="button" className="dzy-help-item" onClick={() => setChooser(true)}>
                <CustomerServiceOutlined />
                <span>在线客服</span>
              </button>
            </Tooltip>
            {show && (
              <Tooltip title="AI 咨询" placement="left">
                <button type="button" className="dzy-help-item" onClick={openAi}>
                  <RobotOutlined />
                  <span>AI咨询</span>
                </button>
              </Tooltip>
            )}
            {show && (
              <Popover content={hotlineContent} title="服务热线" placement="left" trigger="click">
                <button type="button" className="dzy-help-item">
                  <PhoneOutlined />
                  <span>热线</span>
                </button>
              </Popover>
            )}
          </>
        )}
        <button
          type="button"
          className="dzy-help-toggle"
          onClick={toggle}
          aria-label={collapsed ? '展开帮助面板' : '收起帮助面板'}
          title={collapsed ? '展开帮助面板' : '收起帮助面板'}
        >
          {collapsed ? <LeftOutlined /> : <RightOutlined />}
          {collapsed && <span className="dzy-help-toggle-text">帮助</span>}
        </button>
      </div>
      <Suspense fallback={<DialogLoading />}>
        {chooserUsed && (
          <EnterpriseChooser
            open={chooser}
            onCancel={() => setChooser(false)}
            okText="联系客服"
            // Online service is asked for by tax number: an enterprise without one cannot be chosen.
            isDisabled={(e) => !(e.qysh || e.qybm)}
            onOk={async (e) => {
              await call(insertServiceLogCall, { qysh: e.qysh || e.qybm });
              toast('success', SERVICE_REQUEST_OK);
              setChooser(false);
            }}
            note="客服暂不能发起远程邀请；提交后客服接入时，页面会弹出会话提示。"
          />
        )}
        {aiUsed && (
          <PartnerDialog module={ai ? 'ai' : null} notice={AQ_URL_MSG.notConfigured} onClose={() => setAi(false)} />
        )}
        {editing && <HotlineEditor list={hotlines} onClose={() => setEditing(false)} />}
      </Suspense>
    </>
  );
}
