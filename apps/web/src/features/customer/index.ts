/** What other parts of the client use from the customer feature. */
export { MissingTaxDialog } from './components/missing-tax-dialog';
