import { CheckOutlined, PaperClipOutlined, StopOutlined, UploadOutlined } from '@ant-design/icons';
import {
  stepStateOf,
  WO_ATTACHMENT_MAX_BYTES,
  WO_FILES,
  WO_MSG,
  type WoStep,
  woByIdCall,
  woCheckStepCall,
  woStateOf,
  woUpdateStepCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Input, Progress, Select, Space, Spin, Tag, Tooltip, Upload } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { downloadFile, uploadFile } from '../../customer/api';
import { useMembers, WO_KEYS } from '../api';
import '../workorder.css';

const fmt = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN', { hour12: false }) : '');

/** A work order's detail: its steps in order, the current one handled here (complete, comment, files, reassign). */
export function OrderDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { modal } = App.useApp();
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: WO_KEYS.detail(id ?? 0),
    queryFn: () => call(woByIdCall, { id: id as number }),
    enabled: id !== null,
  });
  const members = useMembers();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const d = detail.data;
  const reload = () => queryClient.invalidateQueries({ queryKey: WO_KEYS.all });
  const canStep = can(['workorder:step']);
  const open = d ? d.state === 'pending' || d.state === 'doing' : false;

  const complete = async (s: WoStep) => {
    setBusy(true);
    try {
      const check = await call(woCheckStepCall, { id: s.id });
      if (!check) return;
      if (!check.ok) {
        toast('warning', check.msg);
        return;
      }
      const r = await call(woUpdateStepCall, { id: s.id, action: 'complete', comment });
      if (!r) return;
      toast('success', r.orderState === 'done' ? '工单已完成' : WO_MSG.stepCompleted);
      setComment('');
      void reload();
    } catch {
      // shown by the request client
    } finally {
      setBusy(false);
    }
  };

  const assign = async (s: WoStep, assigneeId: number) => {
    try {
      await call(woUpdateStepCall, { id: s.id, action: 'assign', assigneeId });
      toast('success', WO_MSG.updated);
      void reload();
    } catch {
      // shown by the request client
    }
  };

  const cancel = (s: WoStep) =>
    modal.confirm({
      title: '提示',
      content: '取消后未完成的步骤将一并取消，且不能恢复，是否继续?',
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(woUpdateStepCall, { id: s.id, action: 'cancel', comment }, { handle: 'all' });
          toast('success', WO_MSG.cancelled);
          void reload();
        } catch (err) {
          toast('warning', err instanceof ApiError ? err.message : '操作失败');
        }
      },
    });

  const attach = async (s: WoStep, file: File) => {
    if (file.size > WO_ATTACHMENT_MAX_BYTES) {
      toast('warning', '附件大小不能超过 10MB');
      return;
    }
    const r = await uploadFile<{ id: number }>(`${WO_FILES.attachmentUpload}?stepId=${s.id}`, file);
    if (r) {
      toast('success', '上传成功');
      void reload();
    }
  };

  const current = d?.steps.find((s) => s.state === 'doing');
  const state = d ? woStateOf(d.state) : undefined;

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={720}
      title={d ? `工单 ${d.orderNo}` : '工单详情'}
      extra={d && state && <Tag color={state.color}>{state.label}</Tag>}
      destroyOnHidden
    >
      <Spin spinning={detail.isPending}>
        {d && (
          <>
            <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label="客户" span={2}>
                {d.qymc}
              </Descriptions.Item>
              <Descriptions.Item label="工单模板">{d.templateName}</Descriptions.Item>
              <Descriptions.Item label="来源合同">{d.contractNo || '—'}</Descriptions.Item>
              <Descriptions.Item label="创建人">{d.createdByName || '—'}</Descriptions.Item>
              <Descriptions.Item label="创建时间">{fmt(d.createdAt)}</Descriptions.Item>
              <Descriptions.Item label="进度" span={2}>
                <Progress
                  percent={Math.round((d.doneSteps / Math.max(1, d.totalSteps)) * 100)}
                  format={() => `${d.doneSteps}/${d.totalSteps}`}
                  status={d.overdue ? 'exception' : d.state === 'done' ? 'success' : 'active'}
                  style={{ maxWidth: 360 }}
                />
              </Descriptions.Item>
              {d.remark ? (
                <Descriptions.Item label="备注" span={2}>
                  {d.remark}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
            {d.steps.map((s) => {
              const st = stepStateOf(s.state);
              const isCurrent = s.state === 'doing';
              return (
                <div
                  key={s.id}
                  className={`dzy-wo-step ${isCurrent ? 'is-current' : ''} ${s.overdue ? 'is-overdue' : ''}`}
                  data-testid={`wo-step-${s.sort}`}
                >
                  <div className="dzy-wo-step-head">
                    <span className="dzy-wo-step-no">{s.sort}</span>
                    <span className="dzy-wo-strong">{s.name}</span>
                    {st && <Tag color={st.color}>{st.label}</Tag>}
                    {s.overdue && <Tag color="red">已逾期</Tag>}
                    <span className="dzy-wo-muted">
                      {s.stationName ? `${s.stationName}·` : ''}预计 {s.days} 天{s.dueDate ? `，截止 ${s.dueDate}` : ''}
                    </span>
                  </div>
                  <div className="dzy-wo-step-meta">
                    处理人：
                    {canStep &&
                    open &&
                    (s.state === 'todo' || s.state === 'doing') &&
                    (members.data ?? []).length > 0 ? (
                      <Select
                        size="small"
                        value={s.assigneeId ?? undefined}
                        style={{ width: 140 }}
                        aria-label={`步骤${s.sort}处理人`}
                        options={(members.data ?? []).map((m) => ({ value: m.userId, label: m.hymc }))}
                        onChange={(v: number) => assign(s, v)}
                      />
                    ) : (
                      s.assigneeName || '未分配'
                    )}
                    {s.state === 'done' && (
                      <span style={{ marginLeft: 12 }}>
                        {s.doneByName && s.doneByName !== s.assigneeName ? `由 ${s.doneByName} ` : ''}于 {fmt(s.doneAt)}{' '}
                        完成
                      </span>
                    )}
                  </div>
                  {s.comment && <div className="dzy-wo-step-meta">处理意见：{s.comment}</div>}
                  {s.attachments.length > 0 && (
                    <div className="dzy-wo-step-meta">
                      {s.attachments.map((a) => (
                        <Button
                          key={a.id}
                          type="link"
                          size="small"
                          icon={<PaperClipOutlined />}
                          onClick={() => downloadFile(`${WO_FILES.attachmentDownload}/${a.id}`, a.fileName)}
                        >
                          {a.fileName}
                        </Button>
                      ))}
                    </div>
                  )}
                  {isCurrent && canStep && current?.id === s.id && (
                    <div style={{ marginTop: 10 }}>
                      <Input.TextArea
                        rows={2}
                        maxLength={500}
                        showCount
                        placeholder="处理意见（选填）"
                        value={comment}
                        onChange={(e) => setComment(e.target.value)}
                        aria-label="处理意见"
                      />
                      <Space style={{ marginTop: 8 }} wrap>
                        <Button type="primary" icon={<CheckOutlined />} loading={busy} onClick={() => complete(s)}>
                          完成此步骤
                        </Button>
                        <Upload
                          showUploadList={false}
                          accept=".pdf,.jpg,.jpeg,.png,.xlsx,.docx"
                          beforeUpload={(f) => {
                            void attach(s, f);
                            return Upload.LIST_IGNORE;
                          }}
                        >
                          <Button icon={<UploadOutlined />}>上传附件</Button>
                        </Upload>
                        <Tooltip title="取消整个工单">
                          <Button danger icon={<StopOutlined />} onClick={() => cancel(s)}>
                            取消工单
                          </Button>
                        </Tooltip>
                      </Space>
                    </div>
                  )}
                </div>
              );
            })}
          </>
        )}
      </Spin>
    </Drawer>
  );
}
