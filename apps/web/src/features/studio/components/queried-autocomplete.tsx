import Autocomplete from '@mui/material/Autocomplete';
import type { SxProps, Theme } from '@mui/material/styles';
import { OutlinedField } from '../../../components/outlined-field.js';

/**
 * A queried select's searchable list: MUI's Autocomplete (with Popper), in a chunk of its own that
 * loads when a person reaches for the field (param-bar.tsx). Its input is TextField's parts
 * (components/outlined-field.tsx), wired as Autocomplete wires TextField, so Select and Menu stay out.
 */
export default function QueriedAutocomplete({
  label,
  values,
  value,
  loading,
  onChange,
  autoFocus,
  sx,
}: {
  label: string;
  values: string[];
  value: string;
  loading: boolean;
  onChange: (value: string) => void;
  /** The person is already in the field (they reached for it while this loaded): keep them there, list open. */
  autoFocus: boolean;
  sx: SxProps<Theme>;
}) {
  return (
    <Autocomplete
      size="small"
      sx={sx}
      options={values.length > 0 || !value ? values : [value]}
      value={value || null}
      loading={loading}
      loadingText="Loading the values..."
      noOptionsText="No value matches"
      disableClearable={Boolean(value)}
      openOnFocus={autoFocus}
      onChange={(_, next) => {
        if (next !== null) onChange(next);
      }}
      renderInput={({ id, slotProps: { inputLabel, input, htmlInput } }) => (
        <OutlinedField
          size="small"
          fullWidth
          labelProps={inputLabel}
          ref={input.ref}
          className={input.className}
          startAdornment={input.startAdornment}
          endAdornment={input.endAdornment}
          onMouseDown={input.onMouseDown}
          inputProps={htmlInput}
          id={id}
          label={label}
          autoFocus={autoFocus}
        />
      )}
    />
  );
}
