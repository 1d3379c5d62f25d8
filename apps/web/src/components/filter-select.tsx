import NativeSelect from '@mui/material/NativeSelect';
import { OutlinedField } from './outlined-field.js';

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
 * phone) whose first option, "All", filters nothing: the markup of `<TextField select native>`.
 */
export function FilterSelect({ label, value, onChange, options, allLabel = 'All', minWidth = 170 }: FilterSelectProps) {
  return (
    <OutlinedField
      size="small"
      sx={{ minWidth }}
      label={label}
      shrink
      select={(input) => (
        <NativeSelect value={value} onChange={(event) => onChange(event.target.value)} input={input}>
          <option value="">{allLabel}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      )}
    />
  );
}
