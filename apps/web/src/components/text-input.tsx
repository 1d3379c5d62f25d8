import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ChangeEventHandler, type FocusEventHandler, type Ref } from 'react';

export interface TextInputProps {
  name: string;
  label: string;
  inputRef?: Ref<HTMLInputElement | HTMLTextAreaElement>;
  onChange?: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  error?: boolean;
  helperText?: string;
  required?: boolean;
  fullWidth?: boolean;
  type?: string;
  autoComplete?: string;
  multiline?: boolean;
  rows?: number;
  sx?: SxProps<Theme>;
}

/**
 * An outlined text field with the markup of MUI's TextField (label, helper text as the input's
 * description), built from its parts: TextField also bundles Select and Menu, which a page that
 * only needs text inputs should not download.
 */
export function TextInput({ label, helperText, error, required, fullWidth, sx, ...input }: TextInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" error={error} required={required} fullWidth={fullWidth} sx={sx}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput {...input} id={id} label={label} aria-describedby={helperId} />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
    </FormControl>
  );
}
