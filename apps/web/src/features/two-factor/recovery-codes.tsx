import { Alert, Button, Typography } from 'antd';

/** The 10 recovery codes, shown once: copy or download them now. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(
      new Blob([`代账云 两步验证恢复码（每个只能使用一次）\n\n${text}\n`], { type: 'text/plain' }),
    );
    const a = document.createElement('a');
    a.href = url;
    a.download = '代账云恢复码.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="dzy-2fa-recovery" data-testid="recovery-codes">
      <Alert
        type="warning"
        showIcon
        title="请立即保存以下恢复码"
        description="手机丢失或无法使用验证器时，可用恢复码登录。每个恢复码只能使用一次，关闭后将不再显示。"
      />
      <ul className="dzy-2fa-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <Typography.Paragraph copyable={{ text, tooltips: ['复制全部', '已复制'] }} style={{ marginBottom: 8 }}>
        复制全部恢复码
      </Typography.Paragraph>
      <Button onClick={download}>下载为文本文件</Button>
    </div>
  );
}
