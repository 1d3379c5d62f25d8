import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import type { ReactNode } from 'react';
import { loadTooltips } from '../../../components/lazy-tooltip.js';
import { preloadAdminDialogs } from './preload-dialogs.js';

/** Admin page size (ADM-ROLES-2); roles and permissions are paged in the browser. */
export const NAMED_ITEMS_PAGE_SIZE = 10;

/** The row above a tab's table: its main button (e.g. "Add User") and optional filters. */
export function TabToolbar({
  actionLabel,
  onAction,
  actionIcon = <AddIcon />,
  onPreload = preloadAdminDialogs,
  children,
}: {
  actionLabel: string;
  onAction: () => void;
  actionIcon?: ReactNode;
  /** Fetches the code of the dialog the button opens, as the pointer or the focus reaches it. */
  onPreload?: () => void;
  children?: ReactNode;
}) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        alignItems: 'center',
        justifyContent: 'space-between',
        mb: 2,
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', flex: '1 1 240px' }}>{children}</Box>
      <Button
        variant="contained"
        startIcon={actionIcon}
        onClick={onAction}
        onPointerEnter={onPreload}
        onFocus={onPreload}
      >
        {actionLabel}
      </Button>
    </Box>
  );
}

/**
 * A tab's body: a grid column, so a wide table scrolls inside its box instead of widening the page.
 * The first pointer or focus in it fetches the row actions' tooltips.
 */
export function TabBody({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}
      onPointerEnter={loadTooltips}
      onFocus={loadTooltips}
    >
      {children}
    </Box>
  );
}
