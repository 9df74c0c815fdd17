import { getBindThirdpartyCall, type ThirdBinding, thirdRenderCall, unbindThirdpartyCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, List, Space, Tag } from 'antd';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';

const KEY = ['third-bindings'];

/** 个人设置 › 第三方账号: bind (through the provider's authorization page) and unbind, with the result of a return. */
export function ThirdBindingCard() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: KEY, queryFn: () => call(getBindThirdpartyCall, {}) });

  // Back from the provider: the callback put the outcome in the address.
  useEffect(() => {
    const bound = params.get('thirdBound');
    const error = params.get('thirdError');
    if (!bound && !error) return;
    if (bound) toast('success', '绑定成功');
    if (error) toast('warning', error);
    const next = new URLSearchParams(params);
    next.delete('thirdBound');
    next.delete('thirdError');
    setParams(next, { replace: true });
  }, [params, setParams]);

  const bind = async (b: ThirdBinding) => {
    try {
      const r = await call(thirdRenderCall, { provider: b.provider as 'dev', purpose: 'bind' });
      if (r?.url) window.location.assign(r.url);
    } catch {
      // Told by the request client.
    }
  };
  const unbind = (b: ThirdBinding) =>
    modal.confirm({
      title: `解绑${b.label}`,
      content: `解绑后将不能再用该${b.label}账号（${b.nickname || '未命名'}）登录代账云，确定解绑吗？`,
      okText: '解绑',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(unbindThirdpartyCall, { provider: b.provider as 'dev' });
          toast('success', '已解绑');
          void queryClient.invalidateQueries({ queryKey: KEY });
        } catch {
          // Told by the request client.
        }
      },
    });

  return (
    <Card title="第三方账号" variant="borderless" className="dzy-account-card" style={{ marginTop: 16 }}>
      <List<ThirdBinding>
        loading={list.isFetching}
        dataSource={list.data ?? []}
        locale={{ emptyText: '平台暂未开通第三方登录' }}
        renderItem={(b) => (
          <List.Item
            actions={[
              b.bound ? (
                <Button key="unbind" type="link" danger onClick={() => unbind(b)}>
                  解绑
                </Button>
              ) : (
                <Button key="bind" type="link" disabled={!b.configured} onClick={() => void bind(b)}>
                  绑定
                </Button>
              ),
            ]}
          >
            <Space>
              <strong>{b.label}</strong>
              {b.bound ? <Tag color="green">已绑定 {b.nickname}</Tag> : <Tag>未绑定</Tag>}
              {b.boundAt ? <span style={{ color: '#8c8c8c' }}>绑定于 {b.boundAt.slice(0, 10)}</span> : null}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
