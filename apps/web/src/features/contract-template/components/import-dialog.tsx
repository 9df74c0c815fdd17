import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  CONTRACT_TEMPLATE_FILES,
  TEMPLATE_IMPORT_MAX_BYTES,
  TEMPLATE_IMPORT_MSG,
  type TemplateImportResult,
} from '@dzy/shared';
import { Alert, Button, Modal, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { ImportResultView } from '../../../components/import-result/import-result';
import { toast } from '../../../lib/feedback';
import { downloadFile, uploadFile } from '../../customer/api';

export type ImportMode = 'template' | 'service';

const TEXT: Record<
  ImportMode,
  {
    title: string;
    upload: string;
    template: string;
    templateName: string;
    failPath: string;
    failName: string;
    notes: readonly string[];
  }
> = {
  template: {
    title: '批量导入合同模板',
    upload: CONTRACT_TEMPLATE_FILES.templateImport,
    template: CONTRACT_TEMPLATE_FILES.templateStatic,
    templateName: 'htmb_temp.xlsx',
    failPath: CONTRACT_TEMPLATE_FILES.templateFailList,
    failName: `${TEMPLATE_IMPORT_MSG.failListName}.xlsx`,
    notes: [...TEMPLATE_IMPORT_MSG.notes, '一个模板中任意一行有误，整个模板不导入，可下载失败记录查看原因'],
  },
  service: {
    title: '导入服务项目',
    upload: CONTRACT_TEMPLATE_FILES.serviceImport,
    template: CONTRACT_TEMPLATE_FILES.serviceTemplate,
    templateName: 'fwxm_temp.xlsx',
    failPath: CONTRACT_TEMPLATE_FILES.serviceFailList,
    failName: `${TEMPLATE_IMPORT_MSG.serviceFailListName}.xlsx`,
    notes: ['请勿修改表头', '服务名称相同的将更新已有服务项目', '校验不通过的行不导入，可下载失败记录查看原因'],
  },
};

/** 批量导入 (650 px): download the template, choose one .xlsx, import, then the result with its failure file. */
export function ImportDialog({
  mode,
  onClose,
  onDone,
}: {
  mode: ImportMode | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const text = TEXT[mode ?? 'template'];
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<TemplateImportResult | null>(null);

  useEffect(() => {
    if (mode === null) {
      setFile(null);
      setOutcome(null);
    }
  }, [mode]);

  const choose = (f: File) => {
    if (file) toast('warning', TEMPLATE_IMPORT_MSG.oneFile);
    else if (!/\.xlsx$/i.test(f.name)) toast('warning', TEMPLATE_IMPORT_MSG.badType);
    else if (f.size >= TEMPLATE_IMPORT_MAX_BYTES) toast('warning', TEMPLATE_IMPORT_MSG.tooLarge);
    else setFile(f);
    return Upload.LIST_IGNORE;
  };

  const start = async () => {
    if (!file) {
      toast('warning', TEMPLATE_IMPORT_MSG.noFile);
      return;
    }
    setUploading(true);
    const r = await uploadFile<TemplateImportResult>(text.upload, file);
    setUploading(false);
    if (r) {
      setOutcome(r.data);
      onDone();
    }
  };

  const body = outcome ? (
    <ImportResultView
      result={outcome}
      onDownloadFailures={
        outcome.redisKey
          ? () =>
              downloadFile(`${text.failPath}?redisKey=${outcome.redisKey}&failNum=${outcome.failNum}`, text.failName)
          : undefined
      }
    />
  ) : (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={
          <Space orientation="vertical" size={2}>
            {text.notes.map((n, i) => (
              <span key={n}>
                {i + 1}. {n}
              </span>
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
          下载导入模板 {text.templateName}
        </Button>
      </Space>
      <Typography.Paragraph style={{ marginBottom: 8 }}>第二步：选择填好的文件</Typography.Paragraph>
      <Upload.Dragger
        accept=".xlsx"
        beforeUpload={choose}
        showUploadList={false}
        multiple={false}
        style={{ padding: '8px 0' }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{file ? file.name : '点击或拖拽 .xlsx 文件到此处'}</p>
        <p className="ant-upload-hint">
          {file ? '如需更换，请先移除当前文件' : '只能上传 1 个 .xlsx 文件，且小于 5MB'}
        </p>
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

  return (
    <Modal
      open={mode !== null}
      title={outcome ? '导入结果' : text.title}
      width={650}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        outcome
          ? [
              <Button key="close" type="primary" onClick={onClose}>
                完成
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
