import TextField from '@mui/material/TextField';

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
 * phone) whose first option, "All", filters nothing.
 */
export function FilterSelect({ label, value, onChange, options, allLabel = 'All', minWidth = 170 }: FilterSelectProps) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth }}
    >
      <option value="">{allLabel}</option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </TextField>
  );
}
