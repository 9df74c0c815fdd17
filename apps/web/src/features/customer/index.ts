/** What other parts of the client use from the customer feature. */
export { EnterpriseChooser } from './components/enterprise-chooser';
export { MissingTaxDialog } from './components/missing-tax-dialog';
