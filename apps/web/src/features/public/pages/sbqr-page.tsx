import { CheckCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import {
  CODE,
  SBQR_COMMENT_MAX,
  SBQR_MSG,
  type SbqrAnswer,
  type SbqrView,
  sbqrAnswerCall,
  sbqrGetCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/document-title';
import { formatMoney } from '../../../lib/money';
import { ApiError, call } from '../../../lib/request';
import '../sbqr.css';

/** A moment in China time, as people there read it: 2026-11-12 09:30. */
const chinaTime = (iso: string) =>
  new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');

const NETWORK = '网络连接失败，请检查网络后重试';

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="dzy-sbqr dzy-public-page">
      <div className="dzy-sbqr-inner">{children}</div>
    </div>
  );
}

function Items({ view }: { view: SbqrView }) {
  return (
    <div className="dzy-sbqr-card" data-testid="sbqr-items">
      {view.items.map((i) => (
        <div className="dzy-sbqr-item" key={`${i.taxType}-${i.skssqq}`}>
          <div>
            <div className="dzy-sbqr-item-name">{i.name}</div>
            <div className="dzy-sbqr-item-sub">
              所属期 {i.skssqq} 至 {i.skssqz}
              <br />
              收入总额 {formatMoney(i.srze)} 元
            </div>
          </div>
          <div className="dzy-sbqr-amount">
            {formatMoney(i.ybtse)}
            <div className="dzy-sbqr-item-sub">应补(退)税额</div>
          </div>
        </div>
      ))}
      <div className="dzy-sbqr-total">
        <span>税款合计（元）</span>
        <strong data-testid="sbqr-total">{formatMoney(view.total)}</strong>
      </div>
    </div>
  );
}

/**
 * 客户确认 /m/sbqr?t=<token> (issue 14, public, for phones): the client opens the SMS link, sees the
 * company, the filing month and each tax with its amount, and confirms or disputes with a comment. The
 * first answer stands; afterwards the page shows it. Invalid or expired links show the server's message.
 */
export function SbqrPage() {
  useDocumentTitle('申报税款确认');
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const qc = useQueryClient();
  const { modal } = App.useApp();
  const [disputing, setDisputing] = useState(false);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState('');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState('');
  const key = ['sbqr', token];
  const view = useQuery({
    queryKey: key,
    queryFn: () => call(sbqrGetCall, { t: token }, { handle: 'all' }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const answer = async (a: SbqrAnswer) => {
    setFailure('');
    setSending(true);
    try {
      const data = await call(
        sbqrAnswerCall,
        { t: token, answer: a, comment: a === 'disputed' ? comment.trim() : '' },
        { handle: 'all' },
      );
      if (data) qc.setQueryData(key, data);
    } catch (err) {
      // Answered meanwhile (another tab) or the link lapsed: show what the server now says.
      if (err instanceof ApiError && (err.code === CODE.CONFLICT || err.code === CODE.NOT_FOUND))
        await qc.invalidateQueries({ queryKey: key });
      setFailure(err instanceof ApiError && err.message ? err.message : NETWORK);
    } finally {
      setSending(false);
    }
  };

  const confirm = () =>
    modal.confirm({
      title: '确认税款无误？',
      content: '确认后代理机构将按以上金额为您申报，确认后不能在此更改。',
      okText: '确认无误',
      cancelText: '再看看',
      centered: true,
      onOk: () => answer('confirmed'),
    });

  const dispute = () => {
    const text = comment.trim();
    if (!text) return setCommentError(SBQR_MSG.commentRequired);
    if (text.length > SBQR_COMMENT_MAX) return setCommentError(SBQR_MSG.commentMax);
    setCommentError('');
    void answer('disputed');
  };

  if (view.isPending)
    return (
      <Frame>
        <div className="dzy-sbqr-card">
          <Skeleton active paragraph={{ rows: 6 }} />
        </div>
      </Frame>
    );

  if (view.isError || !view.data) {
    const err = view.error;
    const msg = err instanceof ApiError && err.code !== 0 && err.message ? err.message : NETWORK;
    const expired = msg === SBQR_MSG.expired;
    return (
      <Frame>
        <div className="dzy-sbqr-head">
          <h1>申报税款确认</h1>
        </div>
        <div className="dzy-sbqr-card" data-testid="sbqr-error">
          <Result
            status={expired ? 'warning' : 'error'}
            title={expired ? '链接已过期' : msg === NETWORK ? '加载失败' : '链接无效'}
            subTitle={msg}
            extra={
              msg === NETWORK ? (
                <Button type="primary" onClick={() => void view.refetch()}>
                  重试
                </Button>
              ) : null
            }
          />
        </div>
      </Frame>
    );
  }

  const v = view.data;
  return (
    <Frame>
      <div className="dzy-sbqr-head">
        <h1>申报税款确认</h1>
        <p>{v.agencyName} 请您核对以下税款</p>
      </div>
      <div className="dzy-sbqr-card">
        <div className="dzy-sbqr-company" data-testid="sbqr-company">
          {v.qymc}
        </div>
        <div className="dzy-sbqr-meta">
          纳税人识别号 {v.qysh || '-'}
          <br />
          申报月份 {v.filingMonth}
        </div>
      </div>
      <Items view={v} />
      {failure ? <Alert type="error" showIcon message={failure} style={{ marginBottom: 12 }} /> : null}
      {v.state === 'sent' ? (
        <div className="dzy-sbqr-card dzy-sbqr-actions" data-testid="sbqr-actions">
          {disputing ? (
            <>
              <div style={{ fontWeight: 500 }}>请说明哪里有异议</div>
              <Input.TextArea
                aria-label="异议说明"
                value={comment}
                onChange={(e) => {
                  setComment(e.target.value);
                  if (commentError) setCommentError('');
                }}
                maxLength={SBQR_COMMENT_MAX}
                showCount
                autoSize={{ minRows: 3, maxRows: 6 }}
                placeholder="例如：本季度有一笔收入已在上季度申报"
                status={commentError ? 'error' : ''}
              />
              {commentError ? <div style={{ color: '#ff4d4f', fontSize: 13 }}>{commentError}</div> : null}
              <Button type="primary" danger block loading={sending} onClick={dispute}>
                提交异议
              </Button>
              <Button block disabled={sending} onClick={() => setDisputing(false)}>
                返回
              </Button>
            </>
          ) : (
            <>
              <Button type="primary" block loading={sending} onClick={confirm}>
                确认无误
              </Button>
              <Button block disabled={sending} onClick={() => setDisputing(true)}>
                有异议
              </Button>
            </>
          )}
        </div>
      ) : (
        <div className="dzy-sbqr-card" data-testid="sbqr-answered">
          <Result
            style={{ padding: '12px 0' }}
            icon={
              v.state === 'confirmed' ? (
                <CheckCircleFilled style={{ color: '#52c41a' }} />
              ) : (
                <ExclamationCircleFilled style={{ color: '#faad14' }} />
              )
            }
            title={v.state === 'confirmed' ? '您已确认税款无误' : '您已提出异议'}
            subTitle={
              <>
                {v.state === 'disputed' && v.comment ? <div>异议说明：{v.comment}</div> : null}
                {v.answeredAt ? <div>答复时间 {chinaTime(v.answeredAt)}</div> : null}
                <div>{v.state === 'confirmed' ? '代理机构将按以上金额为您申报。' : '代理机构会与您联系核实。'}</div>
              </>
            }
          />
        </div>
      )}
      <div className="dzy-sbqr-foot">
        链接有效期至 {chinaTime(v.expiresAt)}
        <br />
        代账云 · 本页面由您的代理机构发送，请勿转发他人
      </div>
    </Frame>
  );
}
