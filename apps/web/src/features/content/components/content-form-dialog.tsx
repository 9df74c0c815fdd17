import { UploadOutlined } from '@ant-design/icons';
import {
  CONTENT_CATEGORIES,
  CONTENT_COVER_MAX_BYTES,
  CONTENT_KINDS,
  CONTENT_MSG,
  CONTENT_SUMMARY_MAX,
  CONTENT_TITLE_MAX,
  CONTENT_VIDEO_MAX_BYTES,
  type ContentAdminItem,
  type ContentKind,
  type ContentSource,
  contentSaveCall,
} from '@dzy/shared';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { type Uploaded, uploadContentFile } from '../api';

interface Values {
  kind: ContentKind;
  category: string;
  title: string;
  summary?: string;
  body?: string;
  source: ContentSource;
  videoUrl?: string;
  minutes?: number | null;
  published: boolean;
}

function FilePicker({
  kind,
  current,
  onDone,
}: {
  kind: 'video' | 'cover';
  current: { file: string; url: string; name: string } | null;
  onDone: (u: (Uploaded & { name: string }) | null) => void;
}) {
  const [pct, setPct] = useState<number | null>(null);
  const max = kind === 'video' ? CONTENT_VIDEO_MAX_BYTES : CONTENT_COVER_MAX_BYTES;
  return (
    <div>
      <Space wrap>
        <Upload
          accept={kind === 'video' ? 'video/mp4,video/webm,.mp4,.webm' : 'image/jpeg,image/png,.jpg,.jpeg,.png'}
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > max) {
              toast('warning', kind === 'video' ? CONTENT_MSG.videoTooLarge : CONTENT_MSG.coverTooLarge);
              return Upload.LIST_IGNORE;
            }
            setPct(0);
            uploadContentFile(file, kind, setPct)
              .then((u) => {
                onDone({ ...u, name: file.name });
                toast('success', '上传成功');
              })
              .catch((e: Error) => toast('warning', e.message))
              .finally(() => setPct(null));
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={pct !== null}>
            {current ? '重新上传' : kind === 'video' ? '上传视频' : '上传封面'}
          </Button>
        </Upload>
        {current && (
          <>
            <Typography.Text ellipsis style={{ maxWidth: 240 }}>
              {current.name}
            </Typography.Text>
            <Button type="link" size="small" danger onClick={() => onDone(null)}>
              移除
            </Button>
          </>
        )}
      </Space>
      {pct !== null && <Progress percent={pct} size="small" status="active" />}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {kind === 'video' ? 'MP4 或 WebM，不超过500MB' : 'JPG 或 PNG，不超过2MB，建议16:9'}
      </Typography.Text>
      {kind === 'cover' && current && <img src={current.url} alt="封面" className="dzy-content-form-cover" />}
    </div>
  );
}

/** 新增 / 编辑课堂内容 (the operator). */
export function ContentFormDialog({
  open,
  item,
  onClose,
  onDone,
}: {
  open: boolean;
  item: ContentAdminItem | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [video, setVideo] = useState<{ file: string; url: string; name: string } | null>(null);
  const [cover, setCover] = useState<{ file: string; url: string; name: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form);
  const source = Form.useWatch('source', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (item) {
      form.setFieldsValue({
        kind: item.kind,
        category: item.category,
        title: item.title,
        summary: item.summary,
        body: item.body,
        source: item.source === 'none' ? 'link' : item.source,
        videoUrl: item.videoUrl,
        minutes: item.durationSec ? Math.round(item.durationSec / 60) : null,
        published: item.published,
      });
      setVideo(item.videoFile ? { file: item.videoFile, url: item.mediaUrl, name: '已上传的视频' } : null);
      setCover(item.coverFile ? { file: item.coverFile, url: item.coverUrl, name: '已上传的封面' } : null);
    } else {
      form.setFieldsValue({ kind: 'news', source: 'link', published: true });
      setVideo(null);
      setCover(null);
    }
  }, [open, item, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const news = v.kind === 'news';
    if (!news && v.source === 'upload' && !video) {
      toast('warning', CONTENT_MSG.fileRequired);
      return;
    }
    setSaving(true);
    try {
      await call(contentSaveCall, {
        ...(item ? { id: item.id } : {}),
        kind: v.kind,
        category: v.category as (typeof CONTENT_CATEGORIES)[number],
        title: v.title,
        summary: v.summary ?? '',
        body: news ? (v.body ?? '') : '',
        source: news ? 'none' : v.source,
        videoFile: !news && v.source === 'upload' ? (video?.file ?? '') : '',
        videoUrl: !news && v.source === 'link' ? (v.videoUrl ?? '') : '',
        coverFile: cover?.file ?? '',
        durationSec: news ? 0 : Math.round((v.minutes ?? 0) * 60),
        published: v.published,
      });
      toast('success', item ? '保存成功' : '新增成功');
      onDone();
    } catch {
      // told by the request client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={item ? '编辑课堂内容' : '新增课堂内容'}
      width={680}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} layout="horizontal" labelCol={{ flex: '84px' }} requiredMark>
        <Form.Item name="kind" label="内容类型" rules={[{ required: true, message: CONTENT_MSG.kindRequired }]}>
          <Radio.Group options={CONTENT_KINDS.map((k) => ({ value: k.value, label: k.label }))} optionType="button" />
        </Form.Item>
        <Form.Item name="category" label="学科分类" rules={[{ required: true, message: CONTENT_MSG.categoryRequired }]}>
          <Select placeholder="请选择学科分类" options={CONTENT_CATEGORIES.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Form.Item
          name="title"
          label="标题"
          rules={[
            { required: true, whitespace: true, message: CONTENT_MSG.titleRequired },
            { max: CONTENT_TITLE_MAX, message: CONTENT_MSG.titleTooLong },
          ]}
        >
          <Input placeholder="请输入标题" showCount maxLength={CONTENT_TITLE_MAX} />
        </Form.Item>
        <Form.Item
          name="summary"
          label="简介"
          rules={[{ max: CONTENT_SUMMARY_MAX, message: CONTENT_MSG.summaryTooLong }]}
        >
          <Input.TextArea rows={2} placeholder="列表中显示的一两句话" showCount maxLength={CONTENT_SUMMARY_MAX} />
        </Form.Item>
        {kind === 'news' ? (
          <Form.Item
            name="body"
            label="正文"
            rules={[{ required: true, whitespace: true, message: CONTENT_MSG.bodyRequired }]}
            extra="段落之间空一行"
          >
            <Input.TextArea rows={8} placeholder="请输入新闻正文" />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="source" label="视频来源">
              <Radio.Group
                options={[
                  { value: 'upload', label: '上传视频' },
                  { value: 'link', label: '外部链接' },
                ]}
              />
            </Form.Item>
            {source === 'upload' ? (
              <Form.Item label="视频文件" required>
                <FilePicker kind="video" current={video} onDone={setVideo} />
              </Form.Item>
            ) : (
              <Form.Item
                name="videoUrl"
                label="视频链接"
                rules={[
                  { required: true, whitespace: true, message: CONTENT_MSG.urlRequired },
                  { pattern: /^https?:\/\/\S+$/i, message: CONTENT_MSG.urlBad },
                ]}
              >
                <Input placeholder="https://…（视频文件或视频页面）" maxLength={500} />
              </Form.Item>
            )}
            <Form.Item name="minutes" label="时长">
              <InputNumber min={0} max={1440} precision={0} addonAfter="分钟" style={{ width: 160 }} />
            </Form.Item>
          </>
        )}
        <Form.Item label="封面">
          <FilePicker kind="cover" current={cover} onDone={setCover} />
        </Form.Item>
        <Form.Item name="published" label="发布" valuePropName="checked" extra="关闭后仅平台运营可见">
          <Switch checkedChildren="已发布" unCheckedChildren="未发布" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
