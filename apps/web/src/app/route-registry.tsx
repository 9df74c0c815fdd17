import { type LazyPage, lazyNamed } from './lazy-page';

/**
 * Menu path → page. A page is routable only when the server's menu tree for the user contains its path;
 * a module adds one line here for each of its pages.
 */
export const MENU_PAGES: Readonly<Record<string, LazyPage>> = {
  '/nested/menu1/baseInfo': lazyNamed(() => import('../features/account/pages/base-info-page'), 'BaseInfoPage'),
  '/nested/menu1/changePassword': lazyNamed(
    () => import('../features/account/pages/change-password-page'),
    'ChangePasswordPage',
  ),
  '/nested/manage/agency-info': lazyNamed(() => import('../features/org/pages/agency-info-page'), 'AgencyInfoPage'),
  '/nested/kjgcgl/kjgcxx': lazyNamed(() => import('../features/kjgc/kjgc-page'), 'KjgcPage'),
  '/nested/manage/staff': lazyNamed(() => import('../features/staff/pages/staff-page'), 'StaffPage'),
  '/nested/manage/department': lazyNamed(
    () => import('../features/department/pages/department-page'),
    'DepartmentPage',
  ),
  '/nested/manage/role': lazyNamed(() => import('../features/role/pages/role-page'), 'RolePage'),
  '/nested/manage/station': lazyNamed(() => import('../features/station/pages/station-page'), 'StationPage'),
  '/nested/manage/api-keys': lazyNamed(() => import('../features/apikey/api-keys-page'), 'ApiKeysPage'),
  '/nested/manage/webhooks': lazyNamed(() => import('../features/apikey/webhooks-page'), 'WebhooksPage'),
  // 入驻审核 with 系统公告 as a second tab (app/layout/platform-page.tsx composes the two features).
  '/customer/khgl/wdkh': lazyNamed(() => import('../features/customer/pages/customer-page'), 'CustomerPage'),
  '/customer/khgl/hsz': lazyNamed(() => import('../features/customer/pages/recycle-page'), 'RecyclePage'),
  '/contract/htsz/fwxm': lazyNamed(() => import('../features/contract-template/pages/service-page'), 'ServicePage'),
  '/contract/htsz/htmb': lazyNamed(() => import('../features/contract-template/pages/template-page'), 'TemplatePage'),
  '/customer/swgl/workorder': lazyNamed(() => import('../features/workorder/pages/workorder-page'), 'WorkOrderPage'),
  '/customer/swgl/gdmb': lazyNamed(() => import('../features/workorder/pages/template-page'), 'WoTemplatePage'),
  '/declare/sjcx': lazyNamed(() => import('../features/declare-data/pages/tax-data-page'), 'TaxDataPage'),
  '/declare/bssz': lazyNamed(() => import('../features/declare/pages/check-page'), 'CheckPage'),
  '/declare/sbqc': lazyNamed(() => import('../features/filing/pages/roster-page'), 'RosterPage'),
  '/declare/sbjh': lazyNamed(() => import('../features/filing-batch/pages/plan-page'), 'PlanPage'),
  '/declare/sbgl': lazyNamed(() => import('../features/filing/pages/overview-page'), 'OverviewPage'),
  '/declare/zqrl': lazyNamed(() => import('../features/filing-check/pages/calendar-page'), 'CalendarPage'),
  '/declare/lbsjc': lazyNamed(() => import('../features/filing-check/pages/lbsjc-page'), 'LbsjcPage'),
  '/declare/sbsz': lazyNamed(() => import('../features/filing-check/pages/settings-page'), 'SettingsPage'),
  '/contractFee/sfgl/sflb': lazyNamed(() => import('../features/contract-fee/pages/fee-page'), 'FeePage'),
  '/contract/htgl/htlb': lazyNamed(() => import('../features/contract/pages/contract-page'), 'ContractPage'),
  '/contract/htsz/txsz': lazyNamed(
    () => import('../features/contract/pages/reminder-setting-page'),
    'ReminderSettingPage',
  ),
  '/contract/htsz/tsqx': lazyNamed(
    () => import('../features/contract/pages/special-permission-page'),
    'SpecialPermissionPage',
  ),
  '/platform/applications': lazyNamed(() => import('./layout/platform-page'), 'PlatformPage'),
  '/moreModuleCloudInvoice/xxfp': lazyNamed(() => import('../features/invoice/pages/xxfp-page'), 'XxfpPage'),
  '/moreModuleCloudInvoice/jxfp': lazyNamed(() => import('../features/invoice-pool/pages/jxfp-page'), 'JxfpPage'),
  '/moreModuleCloudInvoice/fpc': lazyNamed(() => import('../features/invoice-pool/pages/fpc-page'), 'FpcPage'),
  '/moreModuleCloudInvoice/fptj': lazyNamed(() => import('../features/invoice-pool/pages/fptj-page'), 'FptjPage'),
  '/account/books': lazyNamed(() => import('../features/books/pages/books-page'), 'BooksPage'),
  '/account/vouchers': lazyNamed(() => import('../features/books/pages/vouchers-page'), 'VouchersPage'),
  '/account/settings': lazyNamed(() => import('../features/books/pages/settings-page'), 'SettingsPage'),
  '/account/ledgers': lazyNamed(() => import('../features/book-reports/pages/ledgers-page'), 'LedgersPage'),
  '/account/statements': lazyNamed(() => import('../features/book-reports/pages/statements-page'), 'StatementsPage'),
  '/account/close': lazyNamed(() => import('../features/book-close/pages/close-page'), 'ClosePage'),
  '/account/print': lazyNamed(() => import('../features/book-close/pages/print-page'), 'PrintPage'),
  '/customer/swgl/sjgl': lazyNamed(() => import('../features/opportunity/pages/opportunity-page'), 'OpportunityPage'),
  '/customer/swgl/gh': lazyNamed(() => import('../features/opportunity/pages/pool-page'), 'PoolPage'),
  '/customer/swgl/sjlb': lazyNamed(() => import('../features/data-list/pages/data-list-page'), 'DataListPage'),
  '/classroom': lazyNamed(() => import('../features/content/pages/classroom-page'), 'ClassroomPage'),
  '/platform/content': lazyNamed(() => import('../features/content/pages/content-admin-page'), 'ContentAdminPage'),
  '/platform/brand': lazyNamed(() => import('../features/brand/brand-admin-page'), 'BrandAdminPage'),
  '/platform/benefit': lazyNamed(() => import('../features/brand/benefit-admin-page'), 'BenefitAdminPage'),
  '/platform/dicts': lazyNamed(() => import('../features/dicts/dict-admin-page'), 'DictAdminPage'),
  '/nested/manage/audit-log': lazyNamed(() => import('../features/audit-log/audit-log-page'), 'AuditLogPage'),
  '/platform/audit-log': lazyNamed(() => import('../features/audit-log/audit-log-page'), 'PlatformAuditLogPage'),
};

/** Pages of the shell every signed-in user may open, outside the server's menu tree. */
export const SHELL_PAGES: Readonly<Record<string, LazyPage>> = {
  '/nested/aboutDownload': lazyNamed(
    () => import('../features/message/pages/about-download-page'),
    'AboutDownloadPage',
  ),
  '/moreModuleCloudInvoice': lazyNamed(() => import('../features/invoice/pages/invoice-home'), 'InvoiceHome'),
};

/** Pages every signed-in user has, whatever the menu says (foundation.md §2: / shows the portal). */
export const DashboardPage = lazyNamed(() => import('../features/dashboard/pages/dashboard-page'), 'DashboardPage');
/** The service version of the portal (门户版本 2). */
export const NewDashboardPage = lazyNamed(
  () => import('../features/dashboard/pages/service-dashboard-page'),
  'ServiceDashboardPage',
);

/** Public pages of modules (foundation.md §2 public routes): open without signing in, full screen. */
export const PUBLIC_PAGES: Readonly<Record<string, LazyPage>> = {
  '/acceptInvite': lazyNamed(() => import('../features/staff/pages/accept-invite-page'), 'AcceptInvitePage'),
  // 客户确认 (SBQR_PAGE_PATH): the client's phone page of an SMS link, no sign-in.
  '/m/sbqr': lazyNamed(() => import('../features/public/pages/sbqr-page'), 'SbqrPage'),
};
