import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  label: string;
  /** '' means no filter: the "All" option. */
  value: string;
  onChange: (value: string) => void;
  options: readonly FilterOption[];
  allLabel?: string;
  minWidth?: number;
}

/**
 * A list filter: a native select (labelled for screen readers, the platform's own picker on a
 * phone) whose first option, "All", filters nothing. Built from the parts of MUI's TextField (the
 * same markup as `<TextField select native>`): TextField imports Select, which brings Menu, Popover
 * and Modal into every screen with a filter.
 */
export function FilterSelect({ label, value, onChange, options, allLabel = 'All', minWidth = 170 }: FilterSelectProps) {
  const id = useId();
  return (
    <FormControl size="small" variant="outlined" sx={{ minWidth }}>
      <InputLabel htmlFor={id} id={`${id}-label`} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        input={<OutlinedInput label={label} notched />}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  );
}
