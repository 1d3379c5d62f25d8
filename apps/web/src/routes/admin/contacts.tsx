export { ContactsTab as default } from '../../features/admin/components/contacts-tab.js';
