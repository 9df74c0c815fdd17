import { FILING_MSG, NO_TAX_NUMBER_PROMPT } from '@dzy/shared';
import type { App } from 'antd';
import { Typography } from 'antd';

type ModalApi = ReturnType<typeof App.useApp>['modal'];

/** The clients a plan left out: no tax number, or blocked by the 申报 contract reminder. */
export function showLeftOut(
  modal: ModalApi,
  r: { noQysh: { aeiId: number; qymc: string }[]; blocked: { aeiId: number; qymc: string; warning: string }[] },
) {
  modal.warning({
    title: '提示',
    width: 650,
    okText: '知道了',
    content: (
      <div className="dzy-plan-confirm">
        {r.noQysh.length > 0 && (
          <>
            <Typography.Paragraph>{NO_TAX_NUMBER_PROMPT}</Typography.Paragraph>
            <Typography.Text strong>以下企业没有税号，未生成申报计划：</Typography.Text>
            <ul>
              {r.noQysh.map((b) => (
                <li key={b.aeiId}>{b.qymc}</li>
              ))}
            </ul>
          </>
        )}
        {r.blocked.length > 0 && (
          <>
            <Typography.Text strong>{FILING_MSG.blockedTitle.replace('未同步', '未生成申报计划')}：</Typography.Text>
            <ul>
              {r.blocked.map((b) => (
                <li key={b.aeiId}>
                  {b.qymc} <Typography.Text type="danger">{b.warning}</Typography.Text>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    ),
  });
}
