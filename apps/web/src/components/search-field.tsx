import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import type { SxProps, Theme } from '@mui/material/styles';
import { OutlinedField } from './outlined-field.js';

export interface SearchFieldProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  sx?: SxProps<Theme>;
}

/** A small search box with a magnifier (a `searchbox` named by its label). */
export function SearchField({ label, placeholder, value, onChange, sx }: SearchFieldProps) {
  return (
    <OutlinedField
      size="small"
      sx={sx}
      type="search"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      startAdornment={
        <InputAdornment position="start">
          <SearchIcon fontSize="small" aria-hidden="true" />
        </InputAdornment>
      }
    />
  );
}
