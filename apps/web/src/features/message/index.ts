/** What the shell uses from the message feature. */
export { closeMessageCenter, openMessageCenter } from './api';
export { ChatPrompt } from './components/chat-prompt';
export { ClearCacheDialog } from './components/clear-cache-dialog';
export { HelpPanel } from './components/help-panel';
export { MessageCenter } from './components/message-center';
export { NewsBell } from './components/news-bell';
export { PARTNER_MODULES, PartnerDialog, type PartnerKey } from './components/partner-dialog';
export { useMessagePush } from './use-message-push';
