/** What the shell uses from the organisation feature: the top-bar switchers and the linked-agency guard. */
export { IdentitySwitch } from './components/identity-switch';
export { LinkedAgencyGuard } from './components/linked-agency-guard';
export { CREATE_AGENCY_PARAM, OrgSwitcher } from './components/org-switcher';
