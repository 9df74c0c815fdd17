import type { Announcement } from '@dzy/shared';
import { Modal, Typography } from 'antd';
import dayjs from 'dayjs';

/**
 * The announcement detail (foundation.md §2, §9: 55vw). messageInfo is rich text that the server
 * sanitised with an allow-list when it was published and again when it was read; the content's
 * background image, when it names one, becomes the dialog's background.
 */
export function AnnouncementDialog({
  announcement,
  onClose,
}: {
  announcement: Announcement | null;
  onClose: () => void;
}) {
  const bg = announcement?.bgImage;
  return (
    <Modal
      title={announcement?.messageTitle}
      open={announcement !== null}
      width="55vw"
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      className="dzy-announcement-dialog"
      styles={{
        body: bg
          ? {
              backgroundImage: `url("${bg.replace(/["\\]/g, '')}")`,
              backgroundSize: 'cover',
              backgroundRepeat: 'no-repeat',
              backgroundPosition: 'center',
            }
          : {},
      }}
    >
      {announcement && (
        <>
          <Typography.Text type="secondary" className="dzy-announcement-time">
            发布时间：{dayjs(announcement.fbTime).format('YYYY-MM-DD HH:mm')}
          </Typography.Text>
          <div
            className="dzy-announcement-body"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allow-list on publish and on read
            dangerouslySetInnerHTML={{ __html: announcement.messageInfo }}
          />
        </>
      )}
    </Modal>
  );
}
