import { WO_FILES, WO_IMPORT_MSG } from '@dzy/shared';
import { XlsxImportDialog, type XlsxImportSpec } from '../../../components/import-result/xlsx-import-dialog';

export type WoImportKind = 'template' | 'order';

const SPECS: Record<WoImportKind, XlsxImportSpec> = {
  template: {
    title: '批量导入工单模板',
    upload: `${WO_FILES.import}?kind=template`,
    template: WO_FILES.templateStatic,
    templateName: 'gdmb_temp.xlsx',
    failUrl: (r) => `${WO_FILES.failList}?kind=template&redisKey=${r.redisKey}`,
    failName: `${WO_IMPORT_MSG.templateFailListName}.xlsx`,
    csv: true,
    notes: [
      '每行一个步骤，同一模板的多行填写相同的模板名称，步骤按行的顺序排列',
      '模板名称相同的将更新已有模板',
      '一个模板中任意一行有误，整个模板不导入，可下载失败记录查看原因',
    ],
  },
  order: {
    title: '批量导入工单',
    upload: `${WO_FILES.import}?kind=order`,
    template: WO_FILES.orderStatic,
    templateName: 'gd_temp.xlsx',
    failUrl: (r) => `${WO_FILES.failList}?kind=order&redisKey=${r.redisKey}`,
    failName: `${WO_IMPORT_MSG.failListName}.xlsx`,
    csv: true,
    notes: [
      '每行一个工单：企业税号、工单模板名称、备注',
      '各步骤的处理人按模板的岗位自动分配',
      '有误的行不导入，可下载失败记录查看原因',
    ],
  },
};

/** 批量导入 of work-order templates or work orders. */
export function WoImportDialog({
  kind,
  onClose,
  onDone,
}: {
  kind: WoImportKind | null;
  onClose: () => void;
  onDone: () => void;
}) {
  return <XlsxImportDialog spec={kind ? SPECS[kind] : null} onClose={onClose} onDone={onDone} />;
}
