import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';

/**
 * One choice among a few, as a native select (the platform's own picker on a phone, plain keys on a
 * desktop): the builder's every pick. Built from TextField's parts, as FilterSelect is, without its
 * "All" option.
 */
export function NativeChoice({
  label,
  value,
  onChange,
  options,
  minWidth = 140,
  disabled = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  minWidth?: number;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <FormControl size="small" variant="outlined" sx={{ minWidth, maxWidth: '100%' }} disabled={disabled}>
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        input={<OutlinedInput label={label} notched />}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FormControl>
  );
}
