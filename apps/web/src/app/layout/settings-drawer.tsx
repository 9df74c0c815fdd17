import { CheckOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Divider, Drawer, Radio, Switch, Tooltip, Typography } from 'antd';
import {
  DEFAULT_LAYOUT,
  type LayoutSettings,
  MENU_SCHEMES,
  resetLayoutSettings,
  setLayoutSettings,
  THEME_PRESETS,
  useLayoutSettings,
} from '../../lib/layout-settings';

const SWITCHES: { key: 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'dynamicTitle'; label: string; hint: string }[] = [
  { key: 'tagsView', label: '显示标签页', hint: '在页面上方列出已打开的页面，便于切换' },
  { key: 'fixedHeader', label: '固定顶栏', hint: '页面滚动时顶栏保持在最上方' },
  { key: 'sidebarLogo', label: '显示侧栏 Logo', hint: '在导航栏顶部显示产品标志' },
  { key: 'dynamicTitle', label: '动态标题', hint: '浏览器标签显示当前页面名称' },
];

const MENU_COLORS: { key: keyof LayoutSettings; label: string }[] = [
  { key: 'menuColor', label: '菜单文字' },
  { key: 'menuBackground', label: '菜单背景' },
  { key: 'menuHoverBackground', label: '悬停背景' },
  { key: 'menuSelectedBackground', label: '选中背景' },
];

function LayoutThumb({ mode, active }: { mode: 1 | 2; active: boolean }) {
  return (
    <span className={active ? 'dzy-thumb dzy-thumb-active' : 'dzy-thumb'} aria-hidden="true">
      <span className="dzy-thumb-top" />
      {mode === 1 && <span className="dzy-thumb-bar" />}
      <span className={mode === 1 ? 'dzy-thumb-side dzy-thumb-side-left' : 'dzy-thumb-side'} />
      {active && <CheckOutlined className="dzy-thumb-check" />}
    </span>
  );
}

/** The right-side layout settings drawer (foundation.md §2, §3): closes on a click outside. */
export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const s = useLayoutSettings();
  const scheme = MENU_SCHEMES.find(
    (m) =>
      m.menuColor === s.menuColor &&
      m.menuBackground === s.menuBackground &&
      m.menuHoverBackground === s.menuHoverBackground &&
      m.menuSelectedBackground === s.menuSelectedBackground,
  );

  return (
    <Drawer
      title="布局设置"
      placement="right"
      size={320}
      open={open}
      onClose={onClose}
      className="dzy-settings"
      footer={
        <div className="dzy-settings-footer">
          <Typography.Text type="secondary">设置保存在本浏览器中</Typography.Text>
          <Button onClick={resetLayoutSettings}>恢复默认</Button>
        </div>
      }
    >
      <section>
        <div className="dzy-settings-title">主题色</div>
        <div className="dzy-swatches">
          {THEME_PRESETS.map((p) => (
            <Tooltip key={p.color} title={p.name}>
              <button
                type="button"
                aria-label={`主题色 ${p.name}`}
                className="dzy-swatch"
                style={{ background: p.color }}
                onClick={() => setLayoutSettings({ theme: p.color })}
              >
                {s.theme.toLowerCase() === p.color && <CheckOutlined />}
              </button>
            </Tooltip>
          ))}
          <ColorPicker
            size="small"
            value={s.theme}
            disabledAlpha
            onChangeComplete={(c) => setLayoutSettings({ theme: c.toHexString() })}
          />
        </div>
      </section>

      <Divider />
      <section>
        <div className="dzy-settings-title">导航模式</div>
        <div className="dzy-layout-modes">
          {([1, 2] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              className="dzy-layout-mode"
              aria-pressed={s.topMenuSetting === mode}
              onClick={() => setLayoutSettings({ topMenuSetting: mode })}
            >
              <LayoutThumb mode={mode} active={s.topMenuSetting === mode} />
              <span>{mode === 1 ? '左侧菜单' : '顶部菜单'}</span>
            </button>
          ))}
        </div>
      </section>

      <Divider />
      <section>
        <div className="dzy-settings-title">界面</div>
        {SWITCHES.map((sw) => (
          <div key={sw.key} className="dzy-settings-row">
            <div>
              <div>{sw.label}</div>
              <div className="dzy-settings-hint">{sw.hint}</div>
            </div>
            <Switch
              size="small"
              aria-label={sw.label}
              checked={s[sw.key]}
              onChange={(v) => setLayoutSettings({ [sw.key]: v })}
            />
          </div>
        ))}
        <div className="dzy-settings-row">
          <div>
            <div>门户版本</div>
            <div className="dzy-settings-hint">门户首页的展示版本</div>
          </div>
          <Radio.Group
            size="small"
            optionType="button"
            value={s.dashboardSetting}
            onChange={(e) => setLayoutSettings({ dashboardSetting: e.target.value as 1 | 2 })}
            options={[
              { value: 1, label: '进度版' },
              { value: 2, label: '服务版' },
            ]}
          />
        </div>
      </section>

      <Divider />
      <section>
        <div className="dzy-settings-title">菜单配色</div>
        <Radio.Group
          size="small"
          optionType="button"
          value={scheme?.name ?? 'custom'}
          onChange={(e) => {
            const m = MENU_SCHEMES.find((x) => x.name === e.target.value);
            if (m) {
              const { name: _name, ...colors } = m;
              setLayoutSettings(colors);
            }
          }}
          options={[
            ...MENU_SCHEMES.map((m) => ({ value: m.name, label: m.name })),
            { value: 'custom', label: '自定义', disabled: true },
          ]}
          style={{ marginBottom: 12 }}
        />
        {MENU_COLORS.map((c) => (
          <div key={c.key} className="dzy-settings-row">
            <span>{c.label}</span>
            <ColorPicker
              size="small"
              disabledAlpha
              showText
              value={String(s[c.key] ?? DEFAULT_LAYOUT[c.key])}
              onChangeComplete={(v) => setLayoutSettings({ [c.key]: v.toHexString() })}
            />
          </div>
        ))}
      </section>
    </Drawer>
  );
}
