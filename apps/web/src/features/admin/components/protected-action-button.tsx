import IconButton from '@mui/material/IconButton';
import { useId, type ReactNode } from 'react';
import { LazyTooltip } from '../../../components/lazy-tooltip.js';

/**
 * An action that is not allowed on this row, and says why: it stays focusable (aria-disabled, not
 * disabled) so a keyboard or screen-reader user reaches it and hears the reason as its description.
 */
export function ProtectedActionButton({ label, reason, icon }: { label: string; reason: string; icon: ReactNode }) {
  const reasonId = useId();
  return (
    <>
      <LazyTooltip title={reason}>
        <IconButton
          aria-label={label}
          aria-disabled="true"
          aria-describedby={reasonId}
          onClick={(event) => event.preventDefault()}
          sx={{ color: 'action.disabled', cursor: 'not-allowed' }}
        >
          {icon}
        </IconButton>
      </LazyTooltip>
      <span id={reasonId} hidden>
        {reason}
      </span>
    </>
  );
}
