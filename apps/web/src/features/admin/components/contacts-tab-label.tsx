import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useQuery } from '@tanstack/react-query';
import { unreadContactsQueryOptions } from '../api/contacts.js';

/** The tab's label: "Contacts" and, when there are any, how many messages nobody has opened. */
export function ContactsTabLabel() {
  const unread = useQuery(unreadContactsQueryOptions()).data ?? 0;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      Contacts
      {unread > 0 ? (
        <Chip
          component="span"
          size="small"
          color="primary"
          label={`${unread} unread`}
          sx={{ height: 20, fontSize: '0.75rem' }}
        />
      ) : undefined}
    </Box>
  );
}
