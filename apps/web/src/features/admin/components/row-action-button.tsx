import IconButton from '@mui/material/IconButton';
import type { ReactNode } from 'react';
import { preloadAdminDialogs } from './preload-dialogs.js';
import { ProtectedActionButton } from './protected-action-button.js';
import { LazyTooltip } from '../../../components/lazy-tooltip.js';

/**
 * A table row's icon action: `label` names it for assistive technology ("Edit user a@b.c"), the
 * tooltip shows `title`. With `refusal` it is the ProtectedActionButton instead, which says why not.
 */
export function RowActionButton({
  title,
  label,
  icon,
  onClick,
  refusal,
  onPreload = preloadAdminDialogs,
}: {
  title: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  refusal?: string;
  /** Fetches the code of the dialog the button opens, as the pointer or the focus reaches it. */
  onPreload?: () => void;
}) {
  if (refusal !== undefined) return <ProtectedActionButton label={label} reason={refusal} icon={icon} />;
  return (
    <LazyTooltip title={title}>
      <IconButton aria-label={label} onClick={onClick} onPointerEnter={onPreload} onFocus={onPreload}>
        {icon}
      </IconButton>
    </LazyTooltip>
  );
}
