import { DownloadOutlined, InboxOutlined, PrinterOutlined } from '@ant-design/icons';
import {
  batchRateCall,
  INVOICE_OUT_FILES,
  OUT_KIND_NAMES,
  OUT_STATE_NAMES,
  outDetailCall,
  RED_REASONS,
  type RedReason,
  redLetterCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Modal, Progress, Radio, Space, Steps, Table, Upload } from 'antd';
import { useState } from 'react';
import { ImportResultView } from '../../../components/import-result/import-result';
import { TABLE_FILE_ACCEPT, TABLE_FILE_LABEL } from '../../../components/import-result/table-file';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { downloadFile, uploadFile } from '../../customer/api';

export const openPdf = (id: number) => window.open(`/api/${INVOICE_OUT_FILES.pdf}/${id}`, '_blank', 'noopener');

/** 发票详情: the invoice with its lines, PDF and 红冲 from here. */
export function DetailDrawer(props: { id: number | null; onClose: () => void; onRed?: (id: number) => void }) {
  const q = useQuery({
    queryKey: ['invoice', 'detail', props.id],
    enabled: props.id !== null,
    queryFn: () => call(outDetailCall, { id: props.id ?? 0 }),
  });
  const d = q.data;
  return (
    <Drawer
      title="发票详情"
      open={props.id !== null}
      onClose={props.onClose}
      size={900}
      extra={
        d ? (
          <Space>
            <Button icon={<PrinterOutlined />} onClick={() => openPdf(d.id)}>
              打印/下载PDF
            </Button>
            {props.onRed && d.state === 'normal' && Number(d.jshj) > 0 ? (
              <Button danger onClick={() => props.onRed?.(d.id)}>
                红冲
              </Button>
            ) : null}
          </Space>
        ) : null
      }
    >
      {d ? (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="发票号码">{d.fphm}</Descriptions.Item>
            <Descriptions.Item label="开票日期">{d.kprq}</Descriptions.Item>
            <Descriptions.Item label="发票类型">数电{OUT_KIND_NAMES[d.fplx]}</Descriptions.Item>
            <Descriptions.Item label="状态">{OUT_STATE_NAMES[d.state]}</Descriptions.Item>
            <Descriptions.Item label="购买方">
              {d.gfmc}
              <br />
              {d.gfsh}
            </Descriptions.Item>
            <Descriptions.Item label="销售方">
              {d.xfmc}
              <br />
              {d.xfsh}
            </Descriptions.Item>
            {d.lzfphm ? <Descriptions.Item label="被红冲发票号码">{d.lzfphm}</Descriptions.Item> : null}
            {d.hzfphm ? <Descriptions.Item label="红字发票号码">{d.hzfphm}</Descriptions.Item> : null}
            <Descriptions.Item label="开票人">{d.kpr || '—'}</Descriptions.Item>
            <Descriptions.Item label="备注">{d.bz || '—'}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            rowKey="xh"
            pagination={false}
            style={{ marginTop: 16 }}
            dataSource={d.lines}
            scroll={{ x: 760 }}
            columns={[
              { title: '项目名称', dataIndex: 'spmc', width: 220 },
              { title: '规格型号', dataIndex: 'ggxh', width: 80 },
              { title: '单位', dataIndex: 'dw', width: 50 },
              { title: '数量', dataIndex: 'sl', width: 70, align: 'right' },
              { title: '单价', dataIndex: 'dj', width: 90, align: 'right' },
              { title: '金额', dataIndex: 'je', width: 100, align: 'right' },
              { title: '税率', dataIndex: 'slv', width: 60, align: 'right' },
              { title: '税额', dataIndex: 'se', width: 90, align: 'right' },
            ]}
          />
          <p className="dzy-inv-preview-total">
            合计金额 ¥{d.hjje}　合计税额 ¥{d.hjse}　价税合计（大写）{d.jshjUpper}　（小写）¥{d.jshj}
          </p>
        </>
      ) : null}
    </Drawer>
  );
}

/** 红冲: the reason, then a confirmation step (asks first), then 红字确认单 and the red invoice. */
export function RedDialog(props: {
  target: { id: number; fphm: string; jshj: string; gfmc: string } | null;
  onClose: () => void;
  onDone: (redFphm: string) => void;
}) {
  const [reason, setReason] = useState<RedReason>('开票有误');
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const t = props.target;
  const close = () => {
    setStep(0);
    setRequestId(crypto.randomUUID());
    props.onClose();
  };
  const run = async () => {
    if (!t) return;
    setBusy(true);
    try {
      const r = await call(redLetterCall, { id: t.id, reason, requestId });
      if (r) {
        toast('success', `已红冲，红字发票号码 ${r.red.fphm}`);
        props.onDone(r.red.fphm);
        close();
      }
    } catch {
      // told by the client; the same request id is kept so a retry cannot red-letter twice
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="红冲发票"
      open={t !== null}
      onCancel={close}
      destroyOnHidden
      footer={
        step === 0 ? (
          <Space>
            <Button onClick={close}>取消</Button>
            <Button type="primary" danger onClick={() => setStep(1)}>
              下一步
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={() => setStep(0)}>上一步</Button>
            <Button type="primary" danger loading={busy} onClick={run} data-testid="invoice-red-confirm">
              确认红冲
            </Button>
          </Space>
        )
      }
    >
      <Steps
        size="small"
        current={step}
        items={[{ title: '红冲原因' }, { title: '确认' }]}
        style={{ marginBottom: 16 }}
      />
      {t && step === 0 ? (
        <Radio.Group value={reason} onChange={(e) => setReason(e.target.value)} options={[...RED_REASONS]} />
      ) : null}
      {t && step === 1 ? (
        <Alert
          type="warning"
          showIcon
          message={`将为发票 ${t.fphm}（${t.gfmc}，价税合计 ¥${t.jshj}）开具红字确认单并开具全额红字发票，原因：${reason}。红冲后不能撤销，确定吗？`}
        />
      ) : null}
    </Modal>
  );
}

/** 批量开票: template, upload, progress, the result with the failure file. */
export function BatchDialog(props: { open: boolean; aeiId: number; onClose: () => void; onDone: () => void }) {
  const [runId, setRunId] = useState<number | null>(null);
  const [uploading, setUploading] = useState(false);
  const rate = useQuery({
    queryKey: ['invoice', 'batch', runId],
    enabled: runId !== null,
    queryFn: () => call(batchRateCall, { runId: runId ?? 0 }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 1500 : false),
  });
  const r = rate.data;
  const close = () => {
    if (r && r.state !== 'running') props.onDone();
    setRunId(null);
    props.onClose();
  };
  return (
    <Modal title="批量开票" open={props.open} onCancel={close} footer={null} width={620} destroyOnHidden>
      {runId === null ? (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="每行一个项目，发票序号相同的行开在同一张发票上；金额为含税金额。开具通过电子税务局逐张进行，可关闭窗口在后台完成。"
          />
          <Button
            icon={<DownloadOutlined />}
            style={{ marginBottom: 12 }}
            onClick={() => downloadFile(INVOICE_OUT_FILES.batchTemplate, '批量开票模板.xlsx')}
          >
            下载模板
          </Button>
          <Upload.Dragger
            accept={TABLE_FILE_ACCEPT}
            maxCount={1}
            showUploadList={false}
            disabled={uploading}
            customRequest={async ({ file }) => {
              setUploading(true);
              const reply = await uploadFile<{ runId: number }>(
                `${INVOICE_OUT_FILES.batchUpload}?aeiId=${props.aeiId}`,
                file as File,
              );
              setUploading(false);
              if (reply) setRunId(reply.data.runId);
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>点击或拖拽 {TABLE_FILE_LABEL} 文件到此处上传</p>
          </Upload.Dragger>
        </>
      ) : r && r.state === 'running' ? (
        <div style={{ padding: 24 }}>
          <Progress percent={Math.floor(((r.successNum + r.failNum) / Math.max(1, r.totalNum)) * 100)} />
          <p>
            共 {r.totalNum} 张，已开具 {r.successNum} 张，失败 {r.failNum} 张
          </p>
        </div>
      ) : r ? (
        <ImportResultView
          result={{ successNum: r.successNum, failNum: r.failNum, unExport: 0 }}
          onDownloadFailures={
            r.hasFailFile
              ? () => downloadFile(`${INVOICE_OUT_FILES.batchFail}/${r.runId}`, '批量开票失败记录.xlsx')
              : undefined
          }
        />
      ) : null}
    </Modal>
  );
}
