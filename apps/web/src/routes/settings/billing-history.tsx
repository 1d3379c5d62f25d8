export { BillingHistoryTab as default } from '../../features/settings/components/billing-history-tab.js';
