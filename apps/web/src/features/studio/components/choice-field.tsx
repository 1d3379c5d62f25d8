import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * A parameter chosen from a short list (a select with its values, or yes/no), applied at once. In
 * a chunk of its own: MUI's Select brings Menu, Popover and Modal, and only a report with such a
 * parameter needs them (the built-ins have none).
 */
export default function ChoiceField({
  label,
  value,
  choices,
  onChange,
  sx,
}: {
  label: string;
  value: string;
  choices: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  sx: SxProps<Theme>;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      sx={sx}
      onChange={(event) => onChange(event.target.value)}
    >
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
