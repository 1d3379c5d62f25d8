import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel, { type InputLabelProps } from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ReactElement, type ReactNode } from 'react';

export interface OutlinedFieldProps extends Omit<OutlinedInputProps, 'label' | 'notched' | 'sx'> {
  label: string;
  /** Shown under the input, as its description. */
  helperText?: ReactNode;
  /** The label sits above the input from the start (a date, a select). */
  shrink?: boolean;
  /** The label's props from a component that wires the field itself (Autocomplete's `inputLabel`). */
  labelProps?: InputLabelProps;
  /** Wraps the input, as a native select does (`<NativeSelect input={input}>`). */
  select?: (input: ReactElement) => ReactElement;
  /** The form control's (the whole field's) style. */
  sx?: SxProps<Theme>;
}

/**
 * MUI's TextField, outlined, from its parts and with its markup (the label for the input, the
 * message as its description). TextField imports Select, which brings Menu, Popover and Modal into
 * every screen with a field; these parts do not (decision 030). A field that needs a select of its
 * own passes it in `select`.
 */
export function OutlinedField({
  label,
  helperText,
  shrink,
  labelProps,
  select,
  id: givenId,
  size,
  sx,
  fullWidth,
  required,
  error,
  ...input
}: OutlinedFieldProps) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const helperId = helperText ? `${id}-helper-text` : undefined;
  const outlined = (
    <OutlinedInput
      {...input}
      id={id}
      label={label}
      size={size}
      {...(shrink ? { notched: true } : {})}
      {...(helperId ? { 'aria-describedby': helperId } : {})}
    />
  );
  return (
    <FormControl variant="outlined" size={size} sx={sx} fullWidth={fullWidth} required={required} error={error}>
      <InputLabel {...labelProps} htmlFor={id} id={`${id}-label`} {...(shrink ? { shrink: true } : {})}>
        {label}
      </InputLabel>
      {select ? select(outlined) : outlined}
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
    </FormControl>
  );
}
