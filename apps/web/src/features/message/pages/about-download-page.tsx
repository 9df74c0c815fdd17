import {
  CheckCircleOutlined,
  CloudDownloadOutlined,
  DesktopOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { HELPER_VERSION } from '@dzy/shared';
import { Card, Col, Collapse, Row, Steps, Tag, Typography } from 'antd';
import { useDocumentTitle } from '../../../lib/document-title';
import { HelperStatusCard } from './helper-status-card';
import '../message.css';

const { Title, Paragraph, Text } = Typography;

const INSTALL_STEPS = [
  {
    title: '准备运行环境',
    content:
      '在办公电脑上安装 Node.js 20 或更高版本，并取得代账云程序包（与服务器同一版本，其中的 apps/helper 即 365基础服务）。',
  },
  {
    title: '启动服务',
    content:
      '在程序包目录执行 npm install 后执行 npm run helper。服务只在本机（127.0.0.1）的 36501-36505 端口之一监听，其他电脑无法访问；只接受代账云页面（默认 http://127.0.0.1:8080）的请求，其他地址可用 --origin 或 DZY_ORIGIN 指定。',
  },
  {
    title: '连接电子税务局',
    content:
      '默认连接 http://127.0.0.1:8090 的电子税务局（演示环境的模拟税局）；另有地址时用 --bureau 或 TAX_BUREAU_URL 指定。',
  },
  {
    title: '在代账云中确认',
    content:
      '回到代账云刷新页面。需要本地服务的功能（如电子税务局登录、批量申报）会自动检测到它；检测不到时页面会提示您启动或重新安装。',
  },
];

const FAQ = [
  {
    key: 'why',
    label: '为什么需要在电脑上安装 365基础服务？',
    children:
      '电子税务局的登录与申报需要在您本人的电脑上完成（例如短信验证、证书与个人所得税客户端）。浏览器出于安全限制不能直接做这些事，365基础服务在您的电脑上代为完成，再把结果交给代账云页面。',
  },
  {
    key: 'safe',
    label: '它会读取我电脑上的其他数据吗？',
    children:
      '不会。它只处理您在代账云中发起的税务操作，只在本机回环地址上提供服务，不开放给局域网或互联网；客户的账号密码在代账云服务器上加密保存，只在操作时按需使用。',
  },
  {
    key: 'mac',
    label: '苹果电脑（macOS）或手机能用吗？',
    children:
      '365基础服务可在 Windows、macOS 与 Linux 电脑上运行；手机和平板不支持（页面会提示「基础服务不支持该系统」），在上面仍可使用代账云的客户、合同、收费、工单等功能。',
  },
  {
    key: 'fail',
    label: '页面提示「365基础服务未正常启动」怎么办？',
    children:
      '请确认 npm run helper 的窗口仍在运行，且启动时显示的允许来源包含您打开代账云的地址（例如 http://127.0.0.1:8080）。仍检测不到时，检查安全软件是否阻止了它监听本机 36501-36505 端口。',
  },
];

/** 相关下载 (/nested/aboutDownload): the local helper service and the desktop client. */
export function AboutDownloadPage() {
  useDocumentTitle('相关下载');
  return (
    <div className="dzy-download">
      <HelperStatusCard />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card variant="borderless" className="dzy-download-card">
            <div className="dzy-download-head">
              <div className="dzy-download-icon">
                <SafetyCertificateOutlined />
              </div>
              <div>
                <Title level={4} style={{ margin: 0 }}>
                  365基础服务
                  <Tag color="blue" style={{ marginInlineStart: 8, verticalAlign: 'middle' }}>
                    v{HELPER_VERSION}
                  </Tag>
                </Title>
                <Text type="secondary">运行在您电脑上的本地助手，代账云通过它办理电子税务局业务。</Text>
              </div>
            </div>
            <Title level={5}>它做什么</Title>
            <ul className="dzy-download-list">
              <li>
                <CheckCircleOutlined /> 以客户身份登录电子税务局（含短信验证），免去逐个打开网页登录。
              </li>
              <li>
                <CheckCircleOutlined /> 批量检查客户的申报与缴款状态、漏报与欠税，结果回到代账云的列表中。
              </li>
              <li>
                <CheckCircleOutlined /> 批量填写并提交增值税、附加税、企业所得税、个人所得税等申报表。
              </li>
              <li>
                <CheckCircleOutlined /> 查询发票、社保与信用等税务数据，供核对与归档。
              </li>
            </ul>
            <Title level={5}>运行环境</Title>
            <Paragraph>
              Windows 10 / 11、macOS 或 Linux 电脑，Node.js 20 或更高版本；浏览器建议使用 Chrome、360 极速浏览器 X
              或新版 Edge。电脑需能访问代账云与电子税务局。手机和平板无法运行本地服务。
            </Paragraph>
            <Title level={5}>安装步骤</Title>
            <Steps
              direction="vertical"
              size="small"
              current={-1}
              items={INSTALL_STEPS.map((s) => ({ title: s.title, description: s.content }))}
            />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card variant="borderless" title="下载" className="dzy-download-card">
            <div className="dzy-download-item">
              <CloudDownloadOutlined />
              <div>
                <div className="dzy-download-name">365基础服务 v{HELPER_VERSION}</div>
                <Text type="secondary">
                  随代账云程序包提供（apps/helper），在程序包目录执行 npm run helper 启动；Windows
                  安装包随后续版本发布。
                </Text>
              </div>
            </div>
            <div className="dzy-download-item">
              <DesktopOutlined />
              <div>
                <div className="dzy-download-name">代账云桌面客户端</div>
                <Text type="secondary">
                  当前请直接使用浏览器访问代账云，功能完全一致。桌面客户端发布后在此下载；在桌面客户端内本入口不显示。
                </Text>
              </div>
            </div>
          </Card>
          <Card variant="borderless" title="常见问题" className="dzy-download-card" style={{ marginTop: 16 }}>
            <Collapse ghost size="small" items={FAQ} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
