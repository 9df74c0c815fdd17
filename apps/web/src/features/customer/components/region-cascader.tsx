import { Cascader } from 'antd';
import { useEffect, useState } from 'react';
import { loadRegions } from '../api';

interface Option {
  value: string;
  label: string;
  isLeaf?: boolean;
  children?: Option[];
  loading?: boolean;
}

const toOptions = (list: { code: string; name: string }[], leaf: boolean): Option[] =>
  list.map((r) => ({ value: r.code, label: r.name, isLeaf: leaf }));

/**
 * 省 / 市 / 区县 from the org module's getCompartmentInfo, loaded level by level; a given value's
 * chain is loaded up front so that it shows in words.
 */
export function RegionCascader({
  value,
  onChange,
  placeholder = '请选择省 / 市 / 区县',
  changeOnSelect = false,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  placeholder?: string;
  changeOnSelect?: boolean;
}) {
  const [options, setOptions] = useState<Option[]>([]);
  const [sssf, ssds] = value ?? [];

  // The chain of the value shown is loaded up front; later choices load as each level opens.
  useEffect(() => {
    let live = true;
    void (async () => {
      const provinces = toOptions(await loadRegions(1), false);
      if (sssf) {
        const p = provinces.find((o) => o.value === sssf);
        if (p) {
          p.children = toOptions(await loadRegions(2, sssf), false);
          const c = ssds ? p.children.find((o) => o.value === ssds) : undefined;
          if (c && ssds) c.children = toOptions(await loadRegions(3, ssds), true);
        }
      }
      if (live) setOptions(provinces);
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [sssf, ssds]);

  const loadData = async (selected: Option[]) => {
    const target = selected[selected.length - 1];
    if (!target) return;
    target.loading = true;
    const level = selected.length === 1 ? 2 : 3;
    try {
      target.children = toOptions(await loadRegions(level, target.value), level === 3);
    } finally {
      target.loading = false;
      setOptions((o) => [...o]);
    }
  };

  return (
    <Cascader
      options={options}
      loadData={loadData as never}
      value={value && value.length > 0 ? value : undefined}
      onChange={(v) => onChange?.(((v as string[] | undefined) ?? []).map(String))}
      changeOnSelect={changeOnSelect}
      placeholder={placeholder}
      allowClear
      showSearch={false}
      style={{ width: '100%' }}
    />
  );
}
