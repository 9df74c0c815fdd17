import {
  getMsgSettingsCall,
  KJGC_MSG_SETTINGS,
  MSG_SETTING_LABELS,
  type MsgSettings,
  SETTINGS_DEBOUNCE_MS,
  updateMsgSettingsCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Checkbox, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { MESSAGE_KEYS } from '../api';

const HINTS: Record<keyof MsgSettings, string> = {
  msg_fp: '有客户分配给我时提醒',
  msg_xjht: '新建与我相关的合同时提醒',
  msg_xjgd: '有新工单派给我时提醒',
  msg_sftx: '收费到期或待收款时提醒',
};

/** 消息设置: four switches saved 1 s after the last change; a factory user sees only customer allocation. */
export function MsgSettingsTab() {
  const session = useSessionInfo();
  const queryClient = useQueryClient();
  const keys = (
    session.orgType === 'kjgc' ? KJGC_MSG_SETTINGS : Object.keys(MSG_SETTING_LABELS)
  ) as (keyof MsgSettings)[];
  const settings = useQuery({
    queryKey: MESSAGE_KEYS.settings,
    queryFn: async () => {
      try {
        return await call(getMsgSettingsCall, {}, { handle: 'all' });
      } catch (err) {
        toast('warning', `消息设置获取失败${err instanceof ApiError && err.message ? `：${err.message}` : ''}`);
        throw err;
      }
    },
    retry: false,
  });
  const [draft, setDraft] = useState<MsgSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const timer = useRef(0);
  const changed = useRef<Partial<MsgSettings>>({});

  useEffect(() => {
    if (settings.data && !draft) setDraft(settings.data);
  }, [settings.data, draft]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const save = async () => {
    const body = changed.current;
    changed.current = {};
    if (Object.keys(body).length === 0) return;
    setSaving(true);
    try {
      const next = await call(updateMsgSettingsCall, body);
      if (next) queryClient.setQueryData(MESSAGE_KEYS.settings, next);
      toast('success', '设置成功');
    } catch {
      // Told by the request client; show what the server has.
      setDraft(null);
      void settings.refetch();
    } finally {
      setSaving(false);
    }
  };

  const toggle = (key: keyof MsgSettings, on: boolean) => {
    setDraft((d) => (d ? { ...d, [key]: on ? 1 : 0 } : d));
    changed.current = { ...changed.current, [key]: on ? 1 : 0 };
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void save(), SETTINGS_DEBOUNCE_MS);
  };

  if (settings.isPending) return <Spin className="dzy-msg-spin" />;
  if (!draft) return <Typography.Text type="secondary">消息设置获取失败，请关闭后重试。</Typography.Text>;
  return (
    <div className="dzy-msg-settings">
      <Typography.Paragraph type="secondary">
        勾选后，发生对应事件时会在右上角铃铛和「派工消息」「系统提醒」中通知您。修改后自动保存。
      </Typography.Paragraph>
      {keys.map((key) => (
        <div key={key} className="dzy-msg-setting">
          <Checkbox checked={draft[key] === 1} onChange={(e) => toggle(key, e.target.checked)}>
            {MSG_SETTING_LABELS[key]}
          </Checkbox>
          <Typography.Text type="secondary" className="dzy-msg-setting-hint">
            {HINTS[key]}
          </Typography.Text>
        </div>
      ))}
      <div className="dzy-msg-saving">{saving ? '保存中…' : ''}</div>
    </div>
  );
}
