import { getProfileCall, ROLE_LABELS, updateProfileCall } from '@dzy/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Skeleton, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { SESSION_KEY, useSessionInfo } from '../../../lib/session';
import '../account.css';
import { ThirdBindingCard } from '../../brand/third-binding-card';
import { TwoFactorCard } from '../../two-factor/two-factor-card';
import { AvatarUpload } from '../components/avatar-upload';
import { ChangePhoneDialog } from '../components/change-phone-dialog';
import { QuitAgencyButton } from '../components/quit-agency-button';

interface Values {
  hymc: string;
  zw: string;
}

const PROFILE_KEY = ['account', 'profile'] as const;

/** 个人设置: avatar, phone (changed by SMS code), name and position; a member may leave the agency here. */
export function BaseInfoPage() {
  const session = useSessionInfo();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: () => call(getProfileCall, {}) });
  const [changingPhone, setChangingPhone] = useState(false);
  // Avatar and phone are shown from the session too (top bar): refresh both after a change.
  const changed = (patch: Partial<NonNullable<typeof profile.data>>) => {
    if (profile.data) queryClient.setQueryData(PROFILE_KEY, { ...profile.data, ...patch });
    void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
  };

  useEffect(() => {
    if (profile.data) form.setFieldsValue({ hymc: profile.data.hymc, zw: profile.data.zw });
  }, [profile.data, form]);

  const save = useMutation({
    mutationFn: (values: Values) => call(updateProfileCall, { hymc: values.hymc.trim(), zw: values.zw?.trim() ?? '' }),
    onSuccess: (data) => {
      toast('success', '保存成功');
      if (data) queryClient.setQueryData(PROFILE_KEY, data);
      // The top bar and the portal show the name from the session.
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });

  const name = profile.data?.hymc || session.token.hymc || session.phone;
  return (
    <>
      <Card title="个人设置" variant="borderless" className="dzy-account-card">
        {profile.isPending ? (
          <Skeleton active paragraph={{ rows: 5 }} />
        ) : (
          <div className="dzy-account-layout">
            <div className="dzy-account-side">
              <AvatarUpload
                name={profile.data?.hymc ?? session.token.hymc}
                src={profile.data?.headimg}
                onUploaded={(headimg) => changed({ headimg })}
              />
              <div className="dzy-account-side-name">{name}</div>
              <div className="dzy-account-side-sub">{session.orgName ?? '尚未加入代理机构'}</div>
              {session.role !== null && (
                <Tag color={session.isAdmin === '1' ? 'gold' : 'blue'} variant="filled" style={{ marginInlineEnd: 0 }}>
                  {ROLE_LABELS[session.role]}
                </Tag>
              )}
              <QuitAgencyButton />
              <div className="dzy-account-side-hint">
                点击头像可更换
                <br />
                支持 JPG、PNG、WEBP，2MB 以内
              </div>
            </div>
            <Form<Values>
              form={form}
              className="dzy-account-form"
              layout="horizontal"
              labelCol={{ flex: '88px' }}
              wrapperCol={{ flex: 1 }}
              colon={false}
              onFinish={(values) => save.mutate(values)}
              disabled={!profile.data}
            >
              <Form.Item label="手机号">
                <Space.Compact style={{ width: '100%' }}>
                  <Input value={profile.data?.phone ?? session.phone} disabled />
                  <Button onClick={() => setChangingPhone(true)}>更换手机号</Button>
                </Space.Compact>
              </Form.Item>
              <Form.Item
                label="姓名"
                name="hymc"
                rules={[
                  { required: true, whitespace: true, message: '请输入姓名' },
                  { max: 20, message: '姓名不能超过20个字符' },
                ]}
              >
                <Input placeholder="请输入姓名" count={{ max: 20, show: true }} />
              </Form.Item>
              <Form.Item label="职位" name="zw" rules={[{ max: 20, message: '职位不能超过20个字符' }]}>
                <Input placeholder="如：主办会计、外勤会计" count={{ max: 20, show: true }} />
              </Form.Item>
              <Form.Item label=" " style={{ marginBottom: 0 }}>
                <Button type="primary" htmlType="submit" loading={save.isPending}>
                  保存
                </Button>
              </Form.Item>
            </Form>
          </div>
        )}
        <ChangePhoneDialog
          open={changingPhone}
          current={profile.data?.phone ?? session.phone}
          onClose={(next) => {
            setChangingPhone(false);
            if (next) changed({ phone: next.phone });
          }}
        />
      </Card>
      <TwoFactorCard />
      <ThirdBindingCard />
    </>
  );
}
