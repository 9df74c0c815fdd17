import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { TEMPLATE_IMPORT_MSG, WO_FILES, WO_IMPORT_MSG, type WoImportResult } from '@dzy/shared';
import { Alert, Button, Modal, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { ImportResultView } from '../../../components/import-result/import-result';
import { toast } from '../../../lib/feedback';
import { downloadFile, uploadFile } from '../../customer/api';

export type WoImportKind = 'template' | 'order';

const TEXT = {
  template: {
    title: '批量导入工单模板',
    template: WO_FILES.templateStatic,
    templateName: 'gdmb_temp.xlsx',
    failName: `${WO_IMPORT_MSG.templateFailListName}.xlsx`,
    notes: [
      '每行一个步骤，同一模板的多行填写相同的模板名称，步骤按行的顺序排列',
      '模板名称相同的将更新已有模板',
      '一个模板中任意一行有误，整个模板不导入，可下载失败记录查看原因',
    ],
  },
  order: {
    title: '批量导入工单',
    template: WO_FILES.orderStatic,
    templateName: 'gd_temp.xlsx',
    failName: `${WO_IMPORT_MSG.failListName}.xlsx`,
    notes: [
      '每行一个工单：企业税号、工单模板名称、备注',
      '各步骤的处理人按模板的岗位自动分配',
      '有误的行不导入，可下载失败记录查看原因',
    ],
  },
} as const;

/** 批量导入 of templates or work orders: download the file, choose one .xlsx, then the result and its failure file. */
export function WoImportDialog({
  kind,
  onClose,
  onDone,
}: {
  kind: WoImportKind | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const text = TEXT[kind ?? 'template'];
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<WoImportResult | null>(null);

  useEffect(() => {
    if (kind === null) {
      setFile(null);
      setOutcome(null);
    }
  }, [kind]);

  const choose = (f: File) => {
    if (!/\.xlsx$/i.test(f.name)) toast('warning', TEMPLATE_IMPORT_MSG.badType);
    else if (f.size >= 5 * 1024 * 1024) toast('warning', TEMPLATE_IMPORT_MSG.tooLarge);
    else setFile(f);
    return Upload.LIST_IGNORE;
  };

  const start = async () => {
    if (!file) {
      toast('warning', TEMPLATE_IMPORT_MSG.noFile);
      return;
    }
    setUploading(true);
    const r = await uploadFile<WoImportResult>(`${WO_FILES.import}?kind=${kind}`, file);
    setUploading(false);
    if (r) {
      setOutcome(r.data);
      onDone();
    }
  };

  return (
    <Modal
      open={kind !== null}
      title={text.title}
      width={650}
      onCancel={onClose}
      destroyOnHidden
      footer={
        outcome ? (
          <Button type="primary" onClick={onClose}>
            完成
          </Button>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={uploading} onClick={start}>
              开始导入
            </Button>
          </Space>
        )
      }
    >
      {outcome ? (
        <ImportResultView
          result={outcome}
          onDownloadFailures={
            outcome.redisKey
              ? () => downloadFile(`${WO_FILES.failList}?kind=${kind}&redisKey=${outcome.redisKey}`, text.failName)
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
          <Upload.Dragger accept=".xlsx" beforeUpload={choose} showUploadList={false} multiple={false}>
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{file ? file.name : '点击或拖拽 .xlsx 文件到此处'}</p>
            <p className="ant-upload-hint">只能上传 1 个 .xlsx 文件，且小于 5MB</p>
          </Upload.Dragger>
        </>
      )}
    </Modal>
  );
}
