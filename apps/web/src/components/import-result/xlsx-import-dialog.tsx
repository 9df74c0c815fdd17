import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { TEMPLATE_IMPORT_MAX_BYTES, TEMPLATE_IMPORT_MSG } from '@dzy/shared';
import { Alert, Button, Modal, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { downloadFile, uploadFile } from '../../features/customer/api';
import { toast } from '../../lib/feedback';
import { type ImportCounts, ImportResultView } from './import-result';
import { isTableFile, TABLE_FILE_ACCEPT, TABLE_FILE_LABEL } from './table-file';

/** What an .xlsx import answers: its counts and the key of its failure file ('' when nothing failed). */
export interface XlsxImportResult extends ImportCounts {
  redisKey: string;
}

/** One import's texts and addresses. */
export interface XlsxImportSpec {
  title: string;
  /** The upload route (multipart, one file). */
  upload: string;
  /** The blank template to download, and its file name. */
  template: string;
  templateName: string;
  /** The failure file's address for an outcome, and its file name. */
  failUrl: (outcome: XlsxImportResult) => string;
  failName: string;
  /** Whether a .csv is read too (the contract-template file is .xlsx only, by the spec). */
  csv?: boolean;
  notes: readonly string[];
}

/**
 * 批量导入 (650 px) of any .xlsx import the server answers with counts and a failure-file key: download the
 * template, choose one .xlsx, import, then the result with its failure file. `spec` null: closed.
 */
export function XlsxImportDialog({
  spec,
  onClose,
  onDone,
}: {
  spec: XlsxImportSpec | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<XlsxImportResult | null>(null);

  useEffect(() => {
    if (spec === null) {
      setFile(null);
      setOutcome(null);
    }
  }, [spec]);
  if (!spec) return null;
  const text = spec;
  const kinds = text.csv ? TABLE_FILE_LABEL : '.xlsx';

  const choose = (f: File) => {
    if (file) toast('warning', TEMPLATE_IMPORT_MSG.oneFile);
    else if (!(text.csv ? isTableFile(f.name) : /\.xlsx$/i.test(f.name))) toast('warning', TEMPLATE_IMPORT_MSG.badType);
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
    const r = await uploadFile<XlsxImportResult>(text.upload, file);
    setUploading(false);
    if (r) {
      setOutcome(r.data);
      onDone();
    }
  };

  const body = outcome ? (
    <ImportResultView
      result={outcome}
      onDownloadFailures={outcome.redisKey ? () => downloadFile(text.failUrl(outcome), text.failName) : undefined}
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
        accept={text.csv ? TABLE_FILE_ACCEPT : '.xlsx'}
        beforeUpload={choose}
        showUploadList={false}
        multiple={false}
        style={{ padding: '8px 0' }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{file ? file.name : `点击或拖拽 ${kinds} 文件到此处`}</p>
        <p className="ant-upload-hint">
          {file ? '如需更换，请先移除当前文件' : `只能上传 1 个 ${kinds} 文件，且小于 5MB`}
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
      open
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
