import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';

export interface TransferItem {
  id: string;
  label: string;
}

export interface TransferListProps<TItem extends TransferItem> {
  /** Every item, whichever side it is on. */
  items: readonly TItem[];
  /** The ids on the "Selected Items" side. */
  selectedIds: readonly string[];
  /** The whole new selected set after a move. */
  onChange: (selectedIds: string[]) => void;
  disabled?: boolean;
}

function Side<TItem extends TransferItem>({
  title,
  items,
  checked,
  onToggle,
  disabled,
}: {
  title: string;
  items: readonly TItem[];
  checked: ReadonlySet<string>;
  onToggle: (id: string) => void;
  disabled: boolean;
}) {
  const titleId = useId();
  return (
    <Paper variant="outlined" sx={{ flex: 1, minWidth: 0 }}>
      <Typography
        id={titleId}
        variant="subtitle2"
        component="h3"
        sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        {title}
      </Typography>
      <List dense aria-labelledby={titleId} sx={{ height: 240, overflowY: 'auto' }}>
        {items.length === 0 ? (
          <Typography component="li" variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            None
          </Typography>
        ) : (
          items.map((item) => {
            const labelId = `${titleId}-${item.id}`;
            // A plain list item holding a labelled checkbox: no button around the checkbox (axe:
            // nested-interactive), and the list holds only <li> elements (axe: list).
            return (
              <ListItem key={item.id} disablePadding>
                <Box
                  component="label"
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    width: '100%',
                    px: 2,
                    cursor: disabled ? 'default' : 'pointer',
                    '&:hover': disabled ? undefined : { bgcolor: 'action.hover' },
                  }}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Checkbox
                      edge="start"
                      checked={checked.has(item.id)}
                      onChange={() => onToggle(item.id)}
                      disabled={disabled}
                      slotProps={{ input: { 'aria-labelledby': labelId } }}
                    />
                  </ListItemIcon>
                  <ListItemText id={labelId} primary={item.label} sx={{ overflowWrap: 'anywhere' }} />
                </Box>
              </ListItem>
            );
          })
        )}
      </List>
    </Paper>
  );
}

/**
 * Two lists, "Available Items" and "Selected Items", with the four moves of ADM-UROLES-1: all
 * right, selected right, selected left, all left. Controlled: it reports the whole selected set.
 */
export function TransferList<TItem extends TransferItem>({
  items,
  selectedIds,
  onChange,
  disabled = false,
}: TransferListProps<TItem>) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const selected = new Set(selectedIds);
  const left = items.filter((item) => !selected.has(item.id));
  const right = items.filter((item) => selected.has(item.id));
  const leftChecked = left.filter((item) => checked.has(item.id));
  const rightChecked = right.filter((item) => checked.has(item.id));

  const toggle = (id: string) =>
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const uncheck = (moved: readonly TItem[]) =>
    setChecked((current) => new Set([...current].filter((id) => !moved.some((item) => item.id === id))));

  const emit = (ids: Iterable<string>) => {
    const set = new Set(ids);
    // Keep the items' own order, whatever order they were moved in.
    onChange(items.filter((item) => set.has(item.id)).map((item) => item.id));
  };

  const moves = [
    {
      label: 'move all right',
      symbol: '≫',
      enabled: left.length > 0,
      run: () => {
        emit(items.map((item) => item.id));
        uncheck(left);
      },
    },
    {
      label: 'move selected right',
      symbol: '>',
      enabled: leftChecked.length > 0,
      run: () => {
        emit([...selected, ...leftChecked.map((item) => item.id)]);
        uncheck(leftChecked);
      },
    },
    {
      label: 'move selected left',
      symbol: '<',
      enabled: rightChecked.length > 0,
      run: () => {
        const moved = new Set(rightChecked.map((item) => item.id));
        emit([...selected].filter((id) => !moved.has(id)));
        uncheck(rightChecked);
      },
    },
    {
      label: 'move all left',
      symbol: '≪',
      enabled: right.length > 0,
      run: () => {
        emit([]);
        uncheck(right);
      },
    },
  ];

  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: 'stretch' }}>
      <Side title="Available Items" items={left} checked={checked} onToggle={toggle} disabled={disabled} />
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'row', sm: 'column' },
          justifyContent: 'center',
          gap: 1,
        }}
      >
        {moves.map((move) => (
          <Button
            key={move.label}
            variant="outlined"
            size="small"
            aria-label={move.label}
            title={move.label}
            disabled={disabled || !move.enabled}
            onClick={move.run}
            // Stacked on a narrow screen, "right" points down.
            sx={{
              minWidth: 48,
              '& > span': { display: 'inline-block', transform: { xs: 'rotate(90deg)', sm: 'none' } },
            }}
          >
            <span aria-hidden="true">{move.symbol}</span>
          </Button>
        ))}
      </Box>
      <Side title="Selected Items" items={right} checked={checked} onToggle={toggle} disabled={disabled} />
    </Box>
  );
}
