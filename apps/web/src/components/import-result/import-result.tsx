import { DownloadOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import './import-result.css';

/** What an import did, as the customer and template imports answer it. */
export interface ImportCounts {
  successNum: number;
  failNum: number;
  /** Valid rows not imported (over the licensed or per-import limit). */
  unExport: number;
}

/**
 * 导入结果: the counts imported / failed / not imported, and the failure file (each failing row with its
 * reason in Chinese) when something failed and the page can download it.
 */
export function ImportResultView({
  result,
  onDownloadFailures,
}: {
  result: ImportCounts;
  /** Downloads the failure file; absent when the server kept none (everything imported). */
  onDownloadFailures?: () => void;
}) {
  const clean = result.failNum + result.unExport === 0;
  return (
    <Result
      status={clean ? 'success' : 'warning'}
      title="导入完成"
      subTitle={
        <span className="dzy-import-counts" data-testid="import-result">
          <span>
            导入成功<strong className="ok">{result.successNum}</strong>条
          </span>
          <span>
            失败<strong className={result.failNum ? 'fail' : undefined}>{result.failNum}</strong>条
          </span>
          <span>
            未导入<strong>{result.unExport}</strong>条
          </span>
        </span>
      }
      extra={
        onDownloadFailures ? (
          <Button icon={<DownloadOutlined />} onClick={onDownloadFailures}>
            下载失败记录
          </Button>
        ) : null
      }
    />
  );
}
