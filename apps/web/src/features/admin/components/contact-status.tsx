import type { ContactStatus } from '@dataplatform/contract';
import Chip from '@mui/material/Chip';

export const STATUS_LABELS: Record<ContactStatus, string> = {
  new: 'New',
  read: 'Read',
  replied: 'Replied',
  archived: 'Archived',
  spam: 'Spam',
};

const STATUS_COLORS: Record<ContactStatus, 'primary' | 'default' | 'success' | 'warning'> = {
  new: 'primary',
  read: 'default',
  replied: 'success',
  archived: 'default',
  spam: 'warning',
};

export function StatusChip({ status }: { status: ContactStatus }) {
  return <Chip size="small" label={STATUS_LABELS[status]} color={STATUS_COLORS[status]} variant="outlined" />;
}
