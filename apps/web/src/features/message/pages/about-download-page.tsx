import {
  CheckCircleOutlined,
  CloudDownloadOutlined,
  DesktopOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { HELPER_DOWNLOAD_PREFIX, HELPER_VERSION, helperVersionCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Collapse, Row, Skeleton, Steps, Tag, Typography } from 'antd';
import { useDocumentTitle } from '../../../lib/document-title';
import { buildForThisComputer, downloadBuild } from '../../../lib/helper';
import { call } from '../../../lib/request';
import { HelperStatusCard } from './helper-status-card';
import '../message.css';

const { Title, Paragraph, Text } = Typography;

const INSTALL_STEPS = [
  {
    title: '下载安装文件',
    content:
      'Windows 电脑下载「Windows 安装程序」（dzy-helper-setup.ps1）；Linux 电脑下载「Linux 单文件程序」与「Linux 安装脚本」，放在同一目录。可用右侧列出的 sha256 核对文件完整。',
  },
  {
    title: '运行安装',
    content:
      'Windows：右键安装程序选择「使用 PowerShell 运行」，或执行 powershell -ExecutionPolicy Bypass -File dzy-helper-setup.ps1（需已安装 Node.js 20 或更高版本）。Linux：在下载目录执行 sh install-linux.sh。均无需管理员权限，安装脚本会注册 dzyhelper:// 协议。',
  },
  {
    title: '启动服务',
    content:
      '回到代账云页面，在提示「365基础服务未正常启动」时点击「已安装，去启动」，浏览器会通过 dzyhelper:// 协议启动它（首次可能询问是否允许打开）。服务只在本机 36501-36505 端口之一监听，只接受安装时所在的代账云地址的请求。',
  },
  {
    title: '自动更新',
    content:
      '365基础服务启动后会向代账云查询最新版本，发现新版本时自动下载、校验 sha256 并替换自身后重启（期间提示「365基础服务正在升级」）；版本过旧且无法自动更新时，页面提示「立即更新」并下载新版本。',
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
      'Windows 与 Linux 电脑有安装文件；macOS 可下载「单文件脚本」后用 Node.js 20 以上版本运行（node dzy-helper.cjs）。手机和平板不支持（页面会提示「基础服务不支持该系统」），在上面仍可使用代账云的客户、合同、收费、工单等功能。',
  },
  {
    key: 'fail',
    label: '页面提示「365基础服务未正常启动」怎么办？',
    children:
      '请先点击「已安装，去启动」；仍检测不到时，确认安装时所在的代账云地址与您现在打开的地址一致（不一致时请从当前地址重新下载安装），并检查安全软件是否阻止了它监听本机 36501-36505 端口。开发环境也可在程序包目录执行 npm run helper 启动。',
  },
];

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

/** The builds the product offers (helper/version): name, size, sha256, download. */
function HelperBuilds() {
  const q = useQuery({ queryKey: ['helper/version'], queryFn: () => call(helperVersionCall, {}) });
  if (q.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  const builds = q.data?.builds ?? [];
  const mine = buildForThisComputer(builds);
  if (builds.length === 0) {
    return (
      <div className="dzy-download-item">
        <CloudDownloadOutlined />
        <div>
          <div className="dzy-download-name">365基础服务 v{q.data?.version ?? HELPER_VERSION}</div>
          <Text type="secondary">
            安装文件尚未生成：请管理员在服务器的程序包目录执行 npm run helper:dist。开发环境可执行 npm run helper
            直接启动。
          </Text>
        </div>
      </div>
    );
  }
  return (
    <div data-testid="helper-builds">
      <Text type="secondary">
        最新版本 v{q.data?.version}，最低可用版本 v{q.data?.minVersion}
        {q.data?.builtAt ? `，生成于 ${q.data.builtAt.slice(0, 10)}` : ''}
      </Text>
      {builds
        .filter((b) => b.kind !== 'uninstaller')
        .map((b) => (
          <div className="dzy-download-item" key={b.file}>
            <CloudDownloadOutlined />
            <div style={{ minWidth: 0, flex: 1 }}>
              <div className="dzy-download-name">
                {b.title}
                {b === mine && (
                  <Tag color="green" style={{ marginInlineStart: 8 }}>
                    适合本机
                  </Tag>
                )}
              </div>
              <Text type="secondary">
                {b.file} · {sizeText(b.size)}
              </Text>
              <div>
                <Text type="secondary" copyable={{ text: b.sha256, tooltips: ['复制 sha256', '已复制'] }}>
                  sha256 {b.sha256.slice(0, 16)}…
                </Text>
              </div>
            </div>
            <Button type={b === mine ? 'primary' : 'default'} size="small" onClick={() => downloadBuild(b)}>
              下载
            </Button>
          </div>
        ))}
      <Text type="secondary">
        卸载：Linux 执行 uninstall-linux.sh（
        <a href={`${HELPER_DOWNLOAD_PREFIX}uninstall-linux.sh`} download>
          下载
        </a>
        ），Windows 双击 dzy-helper-uninstall.reg（
        <a href={`${HELPER_DOWNLOAD_PREFIX}dzy-helper-uninstall.reg`} download>
          下载
        </a>
        ）后删除 %LOCALAPPDATA%\DzyHelper 文件夹。
      </Text>
    </div>
  );
}

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
              Windows 10 / 11（需 Node.js 20 或更高版本）或 64 位 Linux
              电脑（单文件程序，无需另装运行环境）；浏览器建议使用 Chrome、360 极速浏览器 X 或新版
              Edge。电脑需能访问代账云与电子税务局。手机和平板无法运行本地服务。
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
            <HelperBuilds />
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
