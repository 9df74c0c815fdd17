import { CameraOutlined } from '@ant-design/icons';
import { AVATAR_ACCEPT, AVATAR_FIELD, AVATAR_MAX_BYTES, AVATAR_MSG, AVATAR_UPLOAD_PATH, CODE } from '@dzy/shared';
import { Modal, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { UserAvatar } from '../../../components/user-avatar';
import { toast } from '../../../lib/feedback';
import { showSessionExpired } from '../../../lib/request';

const TYPES = AVATAR_ACCEPT.split(',');

/** The avatar with a 更换头像 overlay: choose a picture, look at it, then upload it. */
export function AvatarUpload({
  name,
  src,
  onUploaded,
}: {
  name: string;
  src?: string | null;
  onUploaded: (headimg: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // Checked here so the user hears at once; the server checks again by the file's content.
  const choose = (f: File) => {
    if (!TYPES.includes(f.type)) toast('warning', AVATAR_MSG.badType);
    else if (f.size > AVATAR_MAX_BYTES) toast('warning', AVATAR_MSG.tooLarge);
    else setFile(f);
    return Upload.LIST_IGNORE;
  };

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    try {
      const body = new FormData();
      body.append(AVATAR_FIELD, file);
      const res = await fetch(`/api/${AVATAR_UPLOAD_PATH}`, { method: 'POST', body, credentials: 'same-origin' });
      const reply = (await res.json().catch(() => null)) as {
        code: number;
        msg: string;
        data: { headimg: string };
      } | null;
      if (res.status === 403 || reply?.code === CODE.SESSION_EXPIRED) {
        showSessionExpired();
        return;
      }
      if (!reply || reply.code !== CODE.OK) {
        toast('warning', reply?.msg || '头像上传失败，请稍后重试');
        return;
      }
      toast('success', '保存成功');
      onUploaded(reply.data.headimg);
      setFile(null);
    } catch {
      toast('error', '网络连接失败，请检查网络后重试');
    } finally {
      setUploading(false);
    }
  };

  return (
    <>
      <Upload accept={AVATAR_ACCEPT} showUploadList={false} beforeUpload={choose} maxCount={1}>
        <button type="button" className="dzy-avatar-upload" aria-label="更换头像">
          <UserAvatar name={name} src={src} size={72} />
          <span className="dzy-avatar-upload-mask">
            <CameraOutlined />
            <span>更换头像</span>
          </span>
        </button>
      </Upload>
      <Modal
        title="预览头像"
        open={file !== null}
        width={400}
        okText="确定上传"
        cancelText="取消"
        confirmLoading={uploading}
        onOk={() => void upload()}
        onCancel={() => setFile(null)}
        maskClosable={false}
        destroyOnHidden
      >
        <div className="dzy-avatar-preview">
          {preview && <img src={preview} alt="新头像预览" className="dzy-avatar-preview-large" />}
          {preview && <img src={preview} alt="" className="dzy-avatar-preview-small" />}
        </div>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 0 }}>
          {file?.name}（{((file?.size ?? 0) / 1024).toFixed(0)} KB）
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
