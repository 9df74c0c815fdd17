import type { HelperCookieData } from '@dzy/shared';
import { Modal, Tag } from 'antd';

/**
 * The e-tax hall in an embedded view (tax-bureau.md §2 embedded browser): titled with the enterprise
 * name and tax number, opened with the bureau session the helper holds.
 */
export function HallDialog({ cookie, onClose }: { cookie: HelperCookieData; onClose: () => void }) {
  const title = `${cookie.qymc}（${cookie.qysh}）`;
  return (
    <Modal
      open
      title={
        <span className="dzy-hall-title">
          <Tag color="orange">电子税务局</Tag>
          {title}
        </span>
      }
      width="92vw"
      centered
      footer={null}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      className="dzy-hall-dialog"
    >
      <iframe className="dzy-hall-frame" title={`${title} 电子税务局`} src={cookie.hallUrl} />
    </Modal>
  );
}
