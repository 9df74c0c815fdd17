import {
  type StationItem,
  type StationMember,
  saveStationMembersCall,
  stationCandidatesCall,
  stationMembersCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, List, Modal, Skeleton, Transfer, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { STATION_KEYS } from '../api';

const label = (m: StationMember) => (
  <span className="dzy-station-person">
    <span>{m.hymc || '未填写姓名'}</span>
    <span className="dzy-station-muted">{m.phone}</span>
  </span>
);

/** 岗位成员: who serves in the post; holders of 编辑岗位 choose them from the agency members. */
export function MembersDialog({
  station,
  canEdit,
  onClose,
}: {
  station: StationItem | null;
  canEdit: boolean;
  onClose: (saved: boolean) => void;
}) {
  const open = station !== null;
  const members = useQuery({
    queryKey: STATION_KEYS.members(station?.id ?? 0),
    queryFn: () => call(stationMembersCall, { stationId: station?.id ?? 0 }),
    enabled: open,
  });
  const candidates = useQuery({
    queryKey: STATION_KEYS.candidates,
    queryFn: () => call(stationCandidatesCall, {}),
    enabled: open && canEdit,
  });
  const [target, setTarget] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (members.data) setTarget(members.data.map((m) => m.userId));
  }, [members.data]);

  const save = async () => {
    if (!station) return;
    setSaving(true);
    try {
      await call(saveStationMembersCall, { stationId: station.id, userIds: target });
      toast('success', '保存成功');
      onClose(true);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  const loading = members.isPending || (canEdit && candidates.isPending);
  return (
    <Modal
      title={station ? `岗位成员 · ${station.name}` : '岗位成员'}
      open={open}
      onCancel={() => onClose(false)}
      width={canEdit ? 720 : 500}
      destroyOnHidden
      maskClosable={!canEdit}
      footer={
        canEdit
          ? [
              <Button key="cancel" onClick={() => onClose(false)}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={saving} disabled={loading} onClick={() => void save()}>
                保存
              </Button>,
            ]
          : [
              <Button key="close" onClick={() => onClose(false)}>
                关闭
              </Button>,
            ]
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : canEdit ? (
        <>
          <Typography.Paragraph type="secondary">
            从左侧选择本机构成员加入该岗位，右侧为岗位现有成员。保存后生效。
          </Typography.Paragraph>
          <Transfer<StationMember & { key: number }>
            className="dzy-station-transfer"
            dataSource={(candidates.data ?? []).map((m) => ({ ...m, key: m.userId }))}
            targetKeys={target}
            onChange={(keys) => setTarget(keys.map(Number))}
            render={label}
            showSearch={{ placeholder: '搜索姓名或手机号' }}
            filterOption={(input, m) => m.hymc.includes(input.trim()) || m.phone.includes(input.trim())}
            titles={['本机构成员', '岗位成员']}
            locale={{ itemUnit: '人', itemsUnit: '人', notFoundContent: '暂无成员' }}
          />
        </>
      ) : (
        <List
          dataSource={members.data ?? []}
          locale={{ emptyText: '该岗位暂无成员' }}
          renderItem={(m) => <List.Item>{label(m)}</List.Item>}
        />
      )}
    </Modal>
  );
}
