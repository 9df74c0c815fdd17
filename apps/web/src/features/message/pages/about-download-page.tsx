import {
  CheckCircleOutlined,
  CloudDownloadOutlined,
  DesktopOutlined,
  InfoCircleOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { Alert, Card, Col, Collapse, Row, Steps, Tag, Typography } from 'antd';
import { useDocumentTitle } from '../../../lib/document-title';
import '../message.css';

const { Title, Paragraph, Text } = Typography;

const INSTALL_STEPS = [
  {
    title: '下载安装包',
    content: '在本页点击「下载 365基础服务」，保存安装包（约 60 MB）。请只从代账云页面下载，不要使用来历不明的安装包。',
  },
  {
    title: '运行安装',
    content:
      '双击安装包，按提示选择安装位置并完成安装。安装需要管理员权限；若杀毒软件拦截，请选择「允许」或将其加入信任。',
  },
  {
    title: '启动服务',
    content:
      '安装完成后，365基础服务随 Windows 开机自动运行，右下角任务栏会出现它的图标。它只在本机（127.0.0.1）监听，其他电脑无法访问。',
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
      '365基础服务目前只支持 Windows。在其他系统上可以正常使用代账云的客户、合同、收费、工单等功能，只是需要本地服务的税务操作不可用。',
  },
  {
    key: 'fail',
    label: '页面提示「未检测到本地服务」怎么办？',
    children:
      '请确认任务栏中有 365基础服务图标；没有时从开始菜单启动它。仍检测不到时，检查安全软件是否阻止了它监听本机端口，或卸载后重新安装。',
  },
];

/** 相关下载 (/nested/aboutDownload): the local helper service and the desktop client. */
export function AboutDownloadPage() {
  useDocumentTitle('相关下载');
  return (
    <div className="dzy-download">
      <Alert
        type="info"
        showIcon
        icon={<InfoCircleOutlined />}
        title="365基础服务的安装程序将在后续版本提供下载"
        description="本页先说明它的用途、运行环境与安装步骤。程序发布后，下载按钮会出现在下方，届时无需其他设置即可按步骤安装。"
        style={{ marginBottom: 16 }}
      />
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
                  <Tag color="default" style={{ marginInlineStart: 8, verticalAlign: 'middle' }}>
                    即将提供
                  </Tag>
                </Title>
                <Text type="secondary">安装在您 Windows 电脑上的本地助手，代账云通过它办理电子税务局业务。</Text>
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
              Windows 10 或 Windows 11（64 位），4 GB 以上内存，500 MB 可用磁盘空间；浏览器建议使用 Chrome、360
              极速浏览器 X 或新版 Edge。电脑需能访问互联网与电子税务局。
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
                <div className="dzy-download-name">365基础服务（Windows 64 位）</div>
                <Text type="secondary">随后续版本发布，发布后在此下载。</Text>
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
