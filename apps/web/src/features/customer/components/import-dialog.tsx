import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  CUSTOMER_FILES,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MSG,
  IMPORT_PUSH_TYPE,
  type ImportResult,
  importProgressCall,
  MASTER_FILES,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Progress, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { ImportResultView } from '../../../components/import-result/import-result';
import { isTableFile, TABLE_FILE_ACCEPT, TABLE_FILE_LABEL } from '../../../components/import-result/table-file';
import { toast } from '../../../lib/feedback';
import { onPush } from '../../../lib/push';
import { call } from '../../../lib/request';
import { downloadFile, uploadFile } from '../api';

type Mode = 'customer' | 'password' | 'shuiju';

const TEXT: Record<
  Mode,
  { title: string; template: string; templateName: string; failPath: string; failName: string; notes: string[] }
> = {
  customer: {
    title: '导入客户',
    template: CUSTOMER_FILES.importTemplate,
    templateName: '客户导入模板.xlsx',
    failPath: CUSTOMER_FILES.importFailList,
    failName: '批量导入客户失败记录.xlsx',
    notes: [
      `单次最多导入${IMPORT_MAX_ROWS}条，文件为 .xlsx 或 .csv 且不超过 5MB；请勿修改表头。`,
      '企业名称、企业税号必填；同一机构内税号不可重复，已有的企业不会被覆盖。',
      '校验不通过的行不导入，可下载失败记录查看每行原因。',
    ],
  },
  password: {
    title: '导入账号密码',
    template: CUSTOMER_FILES.pwdTemplate,
    templateName: '账号密码导入模板.xlsx',
    failPath: CUSTOMER_FILES.pwdFailList,
    failName: '批量导入账号密码失败记录.xlsx',
    notes: ['按企业税号匹配您可见的客户；留空的单元格不改动已保存的内容。', '密码加密保存，导入后页面只显示脱敏内容。'],
  },
  shuiju: {
    title: '导入税局密码',
    template: MASTER_FILES.shuiJuTemplate,
    templateName: '税局密码导入模板.xlsx',
    failPath: MASTER_FILES.shuiJuFailList,
    failName: '批量导入税局密码失败记录.xlsx',
    notes: [
      '只导入电子税务局的登录账号和密码，按企业税号匹配您可见的客户。',
      '账号和密码须同时填写；密码加密保存，导入后页面只显示脱敏内容。',
    ],
  },
};

type Outcome = { successNum: number; failNum: number; unExport?: number; redisKey: string };

/** The job's progress, polled every second and refreshed at once by a push when the channel is up. */
function useImportProgress(jobId: number | null) {
  const q = useQuery({
    queryKey: ['customer', 'import', jobId],
    queryFn: () => call(importProgressCall, { jobId: jobId as number }),
    enabled: jobId !== null,
    refetchInterval: (query) => {
      const s = query.state.data?.state;
      return s === 'done' || s === 'failed' ? false : 1000;
    },
  });
  useEffect(() => {
    if (jobId === null) return;
    return onPush(IMPORT_PUSH_TYPE, (data) => {
      if (data.jobId === jobId) void q.refetch();
    });
  }, [jobId, q.refetch]);
  return q;
}

/** 导入客户 / 导入账号密码 (650 px): template, one .xlsx file, import, progress, then the result and its failure file. */
export function ImportDialog({
  mode,
  onClose,
  onDone,
}: {
  mode: Mode | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const text = TEXT[mode ?? 'customer'];
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [jobId, setJobId] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const progress = useImportProgress(jobId);

  useEffect(() => {
    if (mode === null) {
      setFile(null);
      setJobId(null);
      setOutcome(null);
    }
  }, [mode]);

  useEffect(() => {
    const p = progress.data;
    if (!p || outcome) return;
    if (p.state === 'done' && p.result) {
      setOutcome(p.result as ImportResult);
      onDone();
    } else if (p.state === 'failed') {
      toast('error', p.error ?? '导入失败，请稍后重试');
      setJobId(null);
    }
  }, [progress.data, outcome, onDone]);

  const choose = (f: File) => {
    if (file) toast('warning', IMPORT_MSG.oneFile);
    else if (!isTableFile(f.name)) toast('warning', IMPORT_MSG.badType);
    else if (f.size > IMPORT_MAX_BYTES) toast('warning', IMPORT_MSG.tooLarge);
    else setFile(f);
    return Upload.LIST_IGNORE;
  };

  const start = async () => {
    if (!file) {
      toast('warning', IMPORT_MSG.noFile);
      return;
    }
    setUploading(true);
    // All three imports are jobs of one queue: the answer is the job to follow.
    const path =
      mode === 'shuiju'
        ? MASTER_FILES.shuiJuUpload
        : mode === 'password'
          ? CUSTOMER_FILES.pwdUpload
          : CUSTOMER_FILES.importUpload;
    const r = await uploadFile<{ jobId: number; total: number }>(path, file);
    setUploading(false);
    if (r) setJobId(r.data.jobId);
  };

  const running = jobId !== null && !outcome;
  const p = progress.data;
  const percent = p && p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;

  let body: React.ReactNode;
  if (outcome) {
    body = (
      <ImportResultView
        result={{ ...outcome, unExport: outcome.unExport ?? 0 }}
        onDownloadFailures={
          outcome.redisKey
            ? () => downloadFile(`${text.failPath}?redisKey=${outcome.redisKey}`, text.failName)
            : undefined
        }
      />
    );
  } else if (running) {
    body = (
      <div style={{ padding: '24px 8px' }}>
        <Typography.Paragraph>
          正在导入 {file?.name}，共 {p?.total ?? '…'} 行。导入在后台进行，可以关闭此窗口继续其他工作。
        </Typography.Paragraph>
        {p?.interrupted ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            message="导入已中断，正在恢复"
            description="服务刚刚重启，导入会从中断处自动继续，已导入的数据不会重复。"
          />
        ) : null}
        <Progress percent={percent} status={p?.interrupted ? 'exception' : 'active'} />
        <Typography.Text type="secondary">
          已处理 {p?.done ?? 0} / {p?.total ?? '…'} 行
        </Typography.Text>
      </div>
    );
  } else {
    body = (
      <>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={
            <Space direction="vertical" size={2}>
              {text.notes.map((n) => (
                <span key={n}>{n}</span>
              ))}
            </Space>
          }
        />
        <Space style={{ marginBottom: 12 }}>
          <Typography.Text>第一步：</Typography.Text>
          <Button
            type="link"
            icon={<DownloadOutlined />}
            style={{ padding: 0 }}
            onClick={() => downloadFile(text.template, text.templateName)}
          >
            下载导入模板
          </Button>
        </Space>
        <Typography.Paragraph style={{ marginBottom: 8 }}>第二步：选择填好的文件</Typography.Paragraph>
        <Upload.Dragger
          accept={TABLE_FILE_ACCEPT}
          maxCount={1}
          beforeUpload={choose}
          showUploadList={false}
          style={{ padding: '8px 0' }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{file ? file.name : `点击或拖拽 ${TABLE_FILE_LABEL} 文件到此处`}</p>
          <p className="ant-upload-hint">{file ? '如需更换，请先移除当前文件' : '只能上传 1 个文件，不超过 5MB'}</p>
        </Upload.Dragger>
        {file && (
          <div style={{ textAlign: 'right', marginTop: 8 }}>
            <Button type="link" danger size="small" onClick={() => setFile(null)}>
              移除文件
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Modal
      open={mode !== null}
      title={outcome ? '导入结果' : text.title}
      width={650}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        outcome || running
          ? [
              <Button key="close" type="primary" onClick={onClose}>
                {outcome ? '完成' : '后台导入'}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={onClose}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={uploading} onClick={start}>
                导入
              </Button>,
            ]
      }
    >
      {body}
    </Modal>
  );
}
