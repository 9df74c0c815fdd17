import { CONTRACT_TEMPLATE_FILES, TEMPLATE_IMPORT_MSG } from '@dzy/shared';
import { XlsxImportDialog, type XlsxImportSpec } from '../../../components/import-result/xlsx-import-dialog';

export type ImportMode = 'template' | 'service';

const SPECS: Record<ImportMode, XlsxImportSpec> = {
  template: {
    title: '批量导入合同模板',
    upload: CONTRACT_TEMPLATE_FILES.templateImport,
    template: CONTRACT_TEMPLATE_FILES.templateStatic,
    templateName: 'htmb_temp.xlsx',
    failUrl: (r) => `${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.redisKey}&failNum=${r.failNum}`,
    failName: `${TEMPLATE_IMPORT_MSG.failListName}.xlsx`,
    notes: [...TEMPLATE_IMPORT_MSG.notes, '一个模板中任意一行有误，整个模板不导入，可下载失败记录查看原因'],
  },
  service: {
    title: '导入服务项目',
    upload: CONTRACT_TEMPLATE_FILES.serviceImport,
    template: CONTRACT_TEMPLATE_FILES.serviceTemplate,
    templateName: 'fwxm_temp.xlsx',
    failUrl: (r) => `${CONTRACT_TEMPLATE_FILES.serviceFailList}?redisKey=${r.redisKey}&failNum=${r.failNum}`,
    failName: `${TEMPLATE_IMPORT_MSG.serviceFailListName}.xlsx`,
    csv: true,
    notes: ['请勿修改表头', '服务名称相同的将更新已有服务项目', '校验不通过的行不导入，可下载失败记录查看原因'],
  },
};

/** 批量导入合同模板 / 导入服务项目. */
export function ImportDialog({
  mode,
  onClose,
  onDone,
}: {
  mode: ImportMode | null;
  onClose: () => void;
  onDone: () => void;
}) {
  return <XlsxImportDialog spec={mode ? SPECS[mode] : null} onClose={onClose} onDone={onDone} />;
}
