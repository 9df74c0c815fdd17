import {
  CloseOutlined,
  DownOutlined,
  FilterOutlined,
  ReloadOutlined,
  SearchOutlined,
  UpOutlined,
} from '@ant-design/icons';
import {
  Badge,
  Button,
  Col,
  Dropdown,
  Form,
  type FormInstance,
  type FormItemProps,
  type MenuProps,
  Popover,
  Row,
  Space,
  Tag,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import './search-bar.css';

/** One filter of the bar: a Form.Item named `name`. */
export interface SearchField {
  name: string;
  label: string;
  node: ReactNode;
  rules?: FormItemProps['rules'];
  tooltip?: string;
}

/** An extra button of the bar (新增, 导入, 批量操作 ...); past the visible ones they go under 更多. */
export interface SearchButton {
  key: string;
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  type?: 'primary' | 'default';
  danger?: boolean;
  disabled?: boolean;
}

export interface SearchBarProps<V extends object> {
  /**
   * popup: the first two fields on top, the rest in a dropdown panel, up to three buttons visible;
   * shrink: three fields per row, the rows past the first expandable, up to ten buttons visible
   * (business.md §2 shared pieces).
   */
  theme: 'popup' | 'shrink';
  form: FormInstance<V>;
  fields: SearchField[];
  buttons?: SearchButton[];
  initialValues?: Partial<V>;
  onSearch: (values: V) => void;
  onReset?: () => void;
  /**
   * Shown after 查询 / 重置: the place for a marker that the list is filtered (e.g. 已筛选 with a way to
   * clear it when filters are remembered).
   */
  marker?: ReactNode;
  /** The popup theme's fields shown on top (default 2); the rest open from 更多筛选. */
  topFields?: number;
  /** Inside a card that is already white and padded (the bar adds no background of its own). */
  embedded?: boolean;
}

const VISIBLE_BUTTONS = { popup: 3, shrink: 10 } as const;

function ButtonRow({ buttons, max }: { buttons: SearchButton[]; max: number }) {
  const shown = buttons.length > max ? buttons.slice(0, max - 1) : buttons;
  const rest = buttons.length > max ? buttons.slice(max - 1) : [];
  const items: MenuProps['items'] = rest.map((b) => ({
    key: b.key,
    label: b.label,
    icon: b.icon,
    danger: b.danger,
    disabled: b.disabled,
  }));
  return (
    <Space wrap size={8} className="dzy-search-buttons">
      {shown.map((b) => (
        <Button key={b.key} type={b.type} danger={b.danger} icon={b.icon} disabled={b.disabled} onClick={b.onClick}>
          {b.label}
        </Button>
      ))}
      {rest.length > 0 && (
        <Dropdown
          menu={{ items, onClick: ({ key }) => rest.find((b) => b.key === key)?.onClick() }}
          trigger={['click']}
        >
          <Button>
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}

const filled = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** The list pages' search bar with its two themes; the popup panel closes on a route change. */
export function SearchBar<V extends object>({
  theme,
  form,
  fields,
  buttons = [],
  initialValues,
  onSearch,
  onReset,
  marker,
  topFields = 2,
  embedded = false,
}: SearchBarProps<V>) {
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const { pathname } = useLocation();
  const values = Form.useWatch([], form) as Record<string, unknown> | undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes whenever the route changes
  useEffect(() => setOpen(false), [pathname]);

  const submit = () => {
    setOpen(false);
    onSearch(form.getFieldsValue(true) as V);
  };
  const reset = () => {
    form.resetFields();
    setOpen(false);
    onReset?.();
    onSearch(form.getFieldsValue(true) as V);
  };
  const actions = (
    <Space size={8}>
      <Button type="primary" icon={<SearchOutlined />} htmlType="submit">
        查询
      </Button>
      <Button icon={<ReloadOutlined />} onClick={reset}>
        重置
      </Button>
      {marker}
    </Space>
  );
  const item = (f: SearchField) => (
    <Form.Item key={f.name} name={f.name} label={f.label} rules={f.rules} tooltip={f.tooltip}>
      {f.node}
    </Form.Item>
  );

  if (theme === 'popup') {
    const top = fields.slice(0, topFields);
    const rest = fields.slice(topFields);
    const activeRest = rest.filter((f) => filled(values?.[f.name])).length;
    return (
      <Form
        form={form}
        layout="inline"
        initialValues={initialValues}
        onFinish={submit}
        className={`dzy-search-bar dzy-search-popup${embedded ? ' dzy-search-embedded' : ''}`}
      >
        <div className="dzy-search-popup-row">
          <div className="dzy-search-popup-fields">
            {top.map(item)}
            {rest.length > 0 && (
              <Popover
                open={open}
                onOpenChange={setOpen}
                trigger="click"
                placement="bottomLeft"
                arrow={false}
                forceRender
                content={
                  <div className="dzy-search-popup-panel">
                    {rest.map(item)}
                    <div className="dzy-search-popup-panel-actions">
                      <Button onClick={() => setOpen(false)}>收起</Button>
                      <Button type="primary" onClick={submit}>
                        查询
                      </Button>
                    </div>
                  </div>
                }
              >
                <Badge count={activeRest} size="small" offset={[-4, 2]}>
                  <Button icon={<FilterOutlined />}>更多筛选</Button>
                </Badge>
              </Popover>
            )}
            {actions}
          </div>
          <ButtonRow buttons={buttons} max={VISIBLE_BUTTONS.popup} />
        </div>
      </Form>
    );
  }

  const perRow = 3;
  const shown = expanded ? fields.length : Math.min(fields.length, perRow);
  // The actions take the rest of the last row of fields, or a row of their own when it is full.
  const rest = shown % perRow === 0 ? perRow : perRow - (shown % perRow);
  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: '88px' }}
      initialValues={initialValues}
      onFinish={submit}
      className={`dzy-search-bar dzy-search-shrink${embedded ? ' dzy-search-embedded' : ''}`}
    >
      <Row gutter={[24, 0]}>
        {fields.map((f, i) => (
          <Col key={f.name} xs={24} md={12} xl={8} style={i < shown ? undefined : { display: 'none' }}>
            {item(f)}
          </Col>
        ))}
        {/* Between md and xl the actions (查询, 重置, 已筛选, 展开) need a row of their own: half a row overlapped the field beside it. */}
        <Col xs={24} md={24} xl={rest * 8} className="dzy-search-shrink-actions">
          <Space size={8}>
            {actions}
            {fields.length > perRow && (
              <Button type="link" onClick={() => setExpanded((e) => !e)} style={{ paddingInline: 4 }}>
                {expanded ? '收起' : '展开'} {expanded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </Col>
      </Row>
      {buttons.length > 0 && (
        <div className="dzy-search-shrink-footer">
          <ButtonRow buttons={buttons} max={VISIBLE_BUTTONS.shrink} />
        </div>
      )}
    </Form>
  );
}

/**
 * 已筛选: the list shows a filtered view (typed now, or remembered from the user's last visit), with one
 * click to show everything again.
 */
export function FilteredMarker({ values, onClear }: { values: object; onClear: () => void }) {
  const count = Object.values(values).filter((v) => filled(typeof v === 'string' ? v.trim() : v)).length;
  if (count === 0) return null;
  return (
    <Tag
      color="blue"
      closable
      onClose={(e) => {
        e.preventDefault();
        onClear();
      }}
      closeIcon={<CloseOutlined aria-label="清除筛选" />}
      data-testid="filtered-marker"
      style={{ marginInlineEnd: 0 }}
    >
      已筛选 {count} 项
    </Tag>
  );
}
