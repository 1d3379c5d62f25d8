import SearchIcon from '@mui/icons-material/Search';
import FormControl from '@mui/material/FormControl';
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
  sx?: SxProps<Theme>;
}

/**
 * A small search box with a magnifier (a `searchbox` named by its label). Built from the parts of
 * MUI's TextField, with the same markup: TextField imports Select, which brings Menu, Popover and
 * Modal into every screen with a search box (decision 030).
 */
export function SearchField({ label, placeholder, value, onChange, sx }: SearchFieldProps) {
  const id = useId();
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
        startAdornment={
          <InputAdornment position="start">
            <SearchIcon fontSize="small" aria-hidden="true" />
          </InputAdornment>
        }
      />
    </FormControl>
  );
}
