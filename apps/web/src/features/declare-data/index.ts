/** 税务数据 /declare/sjcx. */
export { TaxDataPage } from './pages/tax-data-page';
