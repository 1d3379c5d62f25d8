import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState, type ChangeEventHandler, type FocusEventHandler, type Ref } from 'react';
import { OutlinedField } from './outlined-field.js';

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

/** A password input with the eye button of AUTH-LOGIN-2; the text starts hidden. */
export function PasswordField({
  label,
  errorMessage,
  reserveMessageSpace = false,
  required,
  fullWidth,
  ...input
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <OutlinedField
      {...input}
      label={label}
      error={errorMessage !== undefined}
      required={required}
      fullWidth={fullWidth}
      // A reserved line keeps what follows from moving when a message comes or goes on blur: a click
      // on Save that blurs the field must still land on Save.
      helperText={errorMessage ?? (reserveMessageSpace ? ' ' : undefined)}
      type={visible ? 'text' : 'password'}
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
  );
}

/** The account's own password, typed to sign in or to confirm a change: "Password", for the password manager to fill. */
export function CurrentPasswordField(
  props: Omit<PasswordFieldProps, 'label' | 'autoComplete' | 'required' | 'fullWidth'>,
) {
  return <PasswordField {...props} label="Password" autoComplete="current-password" required fullWidth />;
}
