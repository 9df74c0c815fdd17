import { jobTypeColor, jobTypeOf } from '@dzy/shared';
import { Tag, Tooltip } from 'antd';

/** A service item's name, coloured by its job type. */
export function JobTag({ name, jobType }: { name: string; jobType: string }) {
  return (
    <Tooltip title={jobTypeOf(jobType)?.label ?? ''}>
      <Tag color={jobTypeColor(jobType)} className="dzy-job-tag">
        {name}
      </Tag>
    </Tooltip>
  );
}
