import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, useState, type ChangeEventHandler, type FocusEventHandler, type Ref } from 'react';

export interface PasswordFieldProps {
  name?: string;
  label: string;
  inputRef?: Ref<HTMLInputElement>;
  onChange?: ChangeEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  onBlur?: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  autoComplete?: string;
  required?: boolean;
  fullWidth?: boolean;
  /** The form's error message for this field, shown under it. */
  errorMessage?: string;
  /** Keep the message's line even when there is none (forms whose button sits right below). */
  reserveMessageSpace?: boolean;
}

/**
 * A password input with the eye button of AUTH-LOGIN-2; the text starts hidden. Built from the parts
 * of MUI's TextField (same markup: label, message as the input's description): TextField also
 * brings Select and Menu, which no password field needs (decision 030).
 */
export function PasswordField({
  label,
  errorMessage,
  reserveMessageSpace = false,
  required,
  fullWidth,
  ...input
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const id = useId();
  // A reserved line keeps what follows from moving when a message comes or goes on blur: a click
  // on Save that blurs the field must still land on Save.
  const helperText = errorMessage ?? (reserveMessageSpace ? ' ' : undefined);
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" error={errorMessage !== undefined} required={required} fullWidth={fullWidth}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        label={label}
        type={visible ? 'text' : 'password'}
        aria-describedby={helperId}
        endAdornment={
          <InputAdornment position="end">
            <IconButton
              aria-label="toggle password visibility"
              aria-pressed={visible}
              onClick={() => setVisible((current) => !current)}
              onMouseDown={(event) => event.preventDefault()}
              edge="end"
            >
              {visible ? <VisibilityOff /> : <Visibility />}
            </IconButton>
          </InputAdornment>
        }
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : undefined}
    </FormControl>
  );
}

/** The account's own password, typed to sign in or to confirm a change: "Password", for the password manager to fill. */
export function CurrentPasswordField(
  props: Omit<PasswordFieldProps, 'label' | 'autoComplete' | 'required' | 'fullWidth'>,
) {
  return <PasswordField {...props} label="Password" autoComplete="current-password" required fullWidth />;
}
