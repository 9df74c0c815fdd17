import { Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../../lib/document-title';
import { RulesTab } from '../../book-close/components/rules-tab';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { TemplatesTab } from '../components/templates-tab';
import '../books.css';

/**
 * 记账设置 (/account/settings): the agency's 常用凭证 and (from the period-close slice) the rules that turn
 * documents into vouchers. Other slices add their tab to SETTINGS_TABS.
 */
export const SETTINGS_TABS: { key: string; label: string; children: ReactNode }[] = [
  { key: 'templates', label: '常用凭证', children: <TemplatesTab /> },
  { key: 'rules', label: '记账规则', children: <RulesTab /> },
];

export function SettingsPage() {
  useDocumentTitle('记账设置');
  return (
    <LinkedAgencyGuard>
      <div className="dzy-books-page">
        <div className="dzy-books-bar" style={{ display: 'block' }}>
          <Tabs items={SETTINGS_TABS} />
        </div>
      </div>
    </LinkedAgencyGuard>
  );
}
