import SearchIcon from '@mui/icons-material/Search';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId } from 'react';

export interface SearchFieldProps {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  /** A line under the field (its description), as TextField's. */
  helperText?: string;
  sx?: SxProps<Theme>;
}

/**
 * A small search box with a magnifier (a `searchbox` named by its label). Built from the parts of
 * MUI's TextField, with the same markup: TextField imports Select, which brings Menu, Popover and
 * Modal into every screen with a search box (decision 030).
 */
export function SearchField({ label, placeholder, value, onChange, helperText, sx }: SearchFieldProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl size="small" variant="outlined" sx={sx}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        type="search"
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={helperId}
        startAdornment={
          <InputAdornment position="start">
            <SearchIcon fontSize="small" aria-hidden="true" />
          </InputAdornment>
        }
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
    </FormControl>
  );
}
