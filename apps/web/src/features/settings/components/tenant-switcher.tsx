import type { TenantSummary } from '@dataplatform/contract';
import ApartmentIcon from '@mui/icons-material/Apartment';
import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Button, { buttonClasses } from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { closePopupMenu, PopupMenu, popupMenuButtonProps, PopupMenuItem } from '../../../components/popup-menu.js';
import { QueryProvider } from '../../../lib/query-client.js';
import { getSelectedTenantId, setSelectedTenantId } from '../../../lib/session.js';
import { myTenantsKeys, myTenantsQueryOptions } from '../../../lib/my-tenants.js';

const NO_TENANT = 'No tenant';
const MENU_ID = 'tenant-menu';

/**
 * The top bar's tenant switcher, for a signed-in user who belongs to at least one tenant: shows the
 * selected tenant and changes it. The choice is stored as `selectedTenantId` and sent with every
 * call as X-Tenant-ID; after a change every query is fetched again for the new tenant.
 */
export function TenantSwitcher() {
  return (
    <QueryProvider>
      <TenantMenu />
    </QueryProvider>
  );
}

function TenantMenu() {
  const queryClient = useQueryClient();
  const tenants = useQuery(myTenantsQueryOptions());
  const [selectedId, setSelectedId] = useState(getSelectedTenantId);

  const list: TenantSummary[] = tenants.data?.data ?? [];
  const selected = list.find((tenant) => tenant.id === selectedId);

  // A stored choice the user may no longer select (removed, deactivated) counts as no tenant, and
  // is forgotten so it is no longer sent.
  const staleChoice = tenants.data !== undefined && selectedId !== '' && selected === undefined;
  useEffect(() => {
    if (staleChoice) setSelectedTenantId('');
  }, [staleChoice]);

  if (list.length === 0) return null;

  const choose = (tenantId: string) => {
    closePopupMenu(MENU_ID);
    if (tenantId === (selected?.id ?? '')) return;
    setSelectedTenantId(tenantId);
    setSelectedId(tenantId);
    // Everything on screen belongs to the old tenant: fetch it again, except the switcher's own list.
    void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== myTenantsKeys.all[0] });
  };

  const label = selected?.name ?? NO_TENANT;
  return (
    <>
      <Button
        color="inherit"
        aria-label={`Tenant: ${label}`}
        {...popupMenuButtonProps(MENU_ID)}
        startIcon={<ApartmentIcon aria-hidden="true" />}
        sx={{
          textTransform: 'none',
          mr: 0.5,
          minWidth: 0,
          // On a narrow screen the icon stands for the switcher; the name is in its accessible name.
          [`& .${buttonClasses.startIcon}`]: { mr: { xs: 0, sm: 1 }, ml: { xs: 0, sm: -0.5 } },
        }}
      >
        <TenantName label={label} />
      </Button>
      <PopupMenu id={MENU_ID}>
        <PopupMenuItem
          role="menuitemradio"
          aria-checked={selected === undefined}
          selected={selected === undefined}
          onClick={() => choose('')}
        >
          <SelectedMark shown={selected === undefined} />
          <ListItemText>{NO_TENANT}</ListItemText>
        </PopupMenuItem>
        <Divider />
        {list.map((tenant) => (
          <PopupMenuItem
            key={tenant.id}
            role="menuitemradio"
            aria-checked={tenant.id === selected?.id}
            selected={tenant.id === selected?.id}
            onClick={() => choose(tenant.id)}
          >
            <SelectedMark shown={tenant.id === selected?.id} />
            <ListItemText>{tenant.name}</ListItemText>
          </PopupMenuItem>
        ))}
      </PopupMenu>
    </>
  );
}

function TenantName({ label }: { label: string }) {
  return (
    <Box
      component="span"
      sx={{
        display: { xs: 'none', sm: 'inline-block' },
        maxWidth: 180,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        verticalAlign: 'bottom',
      }}
    >
      {label}
    </Box>
  );
}

function SelectedMark({ shown }: { shown: boolean }) {
  return <ListItemIcon>{shown ? <CheckIcon fontSize="small" aria-hidden="true" /> : null}</ListItemIcon>;
}
