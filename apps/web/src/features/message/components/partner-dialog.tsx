import { ApiOutlined } from '@ant-design/icons';
import { Alert, Modal, Typography } from 'antd';

/** What each module that a partner service provides is, and how an agency gets it. */
export const PARTNER_MODULES = {
  wxwork: {
    title: '企业微信',
    what: '在企业微信的会话侧边栏里查看客户资料、发送报税提醒和收费通知，客户聊天与代账业务在一处完成。',
    how: '由企业微信与服务商提供。管理员需在企业微信管理后台安装服务商的第三方应用并授权通讯录，再由服务商把企业微信与本机构绑定。',
  },
  managModule: {
    title: '管理',
    what: '经营管理看板：员工业绩、客户增减、收费与回款统计等，供机构负责人查看经营情况。',
    how: '由合作伙伴的管理分析服务提供，需单独开通。开通后按员工角色授权查看范围。',
  },
  boss: {
    title: '服务',
    what: '增值服务市场：工商注册、社保公积金、资质代办等服务的下单与进度跟踪。',
    how: '由合作服务商提供，开通后在此直接进入服务商的服务大厅。',
  },
  moreModuleCloudInvoice: {
    title: '发票',
    what: '云发票：为客户开具、查验和归集数电发票。',
    how: '目前仅河北地区（省份代码 130000）的机构可开通，由当地税务服务商提供，需要客户的电子税务局数电账号授权。',
  },
  czc: {
    title: '财税存储',
    what: '会计档案电子化存储：凭证、账簿、报表与申报回执按年份归档，可检索与下载。',
    how: '目前河北（130000）与黑龙江（230000）地区的机构可开通，由合作的档案存储服务商提供。',
  },
  ai: {
    title: 'AI 咨询',
    what: '财税知识问答：就政策口径、申报填写、账务处理等问题即时获得解答。',
    how: '由合作伙伴的财税知识服务提供，开通后在此打开问答页面。天津地区（120000）的会计工厂代理机构暂不提供。',
  },
} as const;
export type PartnerKey = keyof typeof PARTNER_MODULES;

/**
 * The modules this product reaches through partner services have no pages here: the entry explains
 * what the module is and how to enable it, instead of pretending to be it.
 */
export function PartnerDialog({
  module,
  notice,
  onClose,
}: {
  module: PartnerKey | null;
  /** Said first, plainly (e.g. AI 咨询 not configured for the region). */
  notice?: string;
  onClose: () => void;
}) {
  const info = module ? PARTNER_MODULES[module] : null;
  return (
    <Modal
      open={info !== null}
      title={
        <span>
          <ApiOutlined style={{ color: 'var(--ant-color-primary)', marginInlineEnd: 8 }} />
          {info?.title}
        </span>
      }
      width={500}
      onCancel={onClose}
      onOk={onClose}
      okText="知道了"
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      {info && (
        <div className="dzy-partner">
          {notice && <Alert type="warning" showIcon title={notice} style={{ marginBottom: 12 }} />}
          <Typography.Paragraph>「{info.title}」由合作伙伴服务提供，代账云内没有这个模块的页面。</Typography.Paragraph>
          <Typography.Title level={5}>它能做什么</Typography.Title>
          <Typography.Paragraph>{info.what}</Typography.Paragraph>
          <Typography.Title level={5}>如何开通</Typography.Title>
          <Typography.Paragraph>{info.how}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">
            需要开通时，请联系为您开通代账云的服务商（客户经理），或拨打页面右侧帮助面板中的服务热线，并提供机构名称与税号。开通后，此入口会直接进入该服务。
          </Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
