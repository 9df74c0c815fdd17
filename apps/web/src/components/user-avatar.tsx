import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';

/** The user's picture, else the first character of their name, else a person icon. */
export function UserAvatar({ name, src, size }: { name: string; src?: string | null; size: number }) {
  if (src) return <Avatar size={size} src={src} alt={name} style={{ flex: 'none' }} />;
  const initial = name.trim().slice(0, 1);
  return (
    <Avatar
      size={size}
      icon={initial ? undefined : <UserOutlined />}
      style={{ background: '#1677ff', flex: 'none', fontSize: Math.round(size * 0.42) }}
    >
      {initial || undefined}
    </Avatar>
  );
}
