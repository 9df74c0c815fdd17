import { Alert, Button, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { clearProductCaches } from '../../../lib/local-cache';

export const BROWSERS = [
  {
    key: 'chrome',
    name: 'Chrome 谷歌浏览器',
    steps: [
      '按 Ctrl + Shift + Delete（Mac 为 ⌘ + Shift + Delete）打开「删除浏览数据」。',
      '时间范围选择「时间不限」，勾选「Cookie 及其他网站数据」和「缓存的图片和文件」。',
      '点击「删除数据」，然后关闭并重新打开浏览器。',
    ],
  },
  {
    key: '360se',
    name: '360 安全浏览器',
    steps: [
      '点击右上角「≡」菜单 →「清除上网痕迹」（或按 Ctrl + Shift + Delete）。',
      '勾选「Cookie」和「缓存的图片和文件」，时间选择「全部」。',
      '点击「立即清理」，然后重新打开浏览器。若页面仍异常，可在地址栏右侧把内核切换为「极速模式」。',
    ],
  },
  {
    key: '360ChromeX',
    name: '360 极速浏览器 X',
    steps: [
      '按 Ctrl + Shift + Delete 打开「清除浏览数据」。',
      '时间范围选择「全部」，勾选「Cookie 及其他网站数据」和「缓存的图片和文件」。',
      '点击「清除数据」，然后重新打开浏览器。',
    ],
  },
  {
    key: 'firefox',
    name: 'Firefox 火狐浏览器',
    steps: [
      '按 Ctrl + Shift + Delete 打开「清除近期历史记录」。',
      '时间范围选择「全部」，勾选「Cookie」和「缓存」。',
      '点击「确定」，然后重新打开浏览器。',
    ],
  },
] as const;
type BrowserKey = (typeof BROWSERS)[number]['key'];

/**
 * 清除缓存 (foundation.md §2, §5): in a web product it clears what this product keeps in the browser
 * (local and session storage, its Cache Storage), then tells how to clear the chosen browser's own
 * cache, which a page cannot do for the user.
 */
export function ClearCacheDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [browser, setBrowser] = useState<BrowserKey | null>(null);
  const [done, setDone] = useState<BrowserKey | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = BROWSERS.find((b) => b.key === done);

  const close = () => {
    setBrowser(null);
    setDone(null);
    onClose();
  };

  const clear = async () => {
    if (!browser) {
      toast('warning', '请选择浏览器');
      return;
    }
    setBusy(true);
    try {
      const n = await clearProductCaches();
      toast('success', n > 0 ? `已清除本系统的本地缓存（${n} 项）` : '本系统没有需要清除的本地缓存');
      setDone(browser);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="清除缓存"
      open={open}
      width={500}
      onCancel={close}
      destroyOnHidden
      footer={
        done ? (
          <>
            <Button onClick={close}>关闭</Button>
            <Button type="primary" onClick={() => window.location.reload()}>
              刷新页面
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={busy} onClick={() => void clear()}>
              清除
            </Button>
          </>
        )
      }
    >
      {chosen ? (
        <div className="dzy-cache-steps">
          <Alert type="success" showIcon title="已清除代账云保存在本浏览器中的数据（本地存储与页面缓存）。" />
          <Typography.Paragraph style={{ marginTop: 16 }}>
            如页面仍显示旧内容，请再清除 {chosen.name} 自身的缓存：
          </Typography.Paragraph>
          <ol>
            {chosen.steps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </div>
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            页面显示异常或数据不是最新时，可清除本系统保存在浏览器中的缓存。请选择您正在使用的浏览器：
          </Typography.Paragraph>
          <Radio.Group
            className="dzy-browser-choice"
            value={browser}
            onChange={(e) => setBrowser(e.target.value as BrowserKey)}
            options={BROWSERS.map((b) => ({ value: b.key, label: b.name }))}
          />
        </>
      )}
    </Modal>
  );
}
