import { benefitTag } from '@dzy/shared';
import { Tag } from 'antd';

/** 即将到期 / 已到期 on a row (business.md §4), shown only where the rule says. */
export function BenefitTag({ agencyQyzt, kjgc, qyzt }: { agencyQyzt: string; kjgc: boolean; qyzt: string }) {
  const tag = benefitTag(agencyQyzt, kjgc, qyzt);
  if (!tag) return null;
  return (
    <Tag color={tag === '即将到期' ? 'orange' : 'red'} bordered={false} style={{ marginInlineEnd: 0 }}>
      {tag}
    </Tag>
  );
}
