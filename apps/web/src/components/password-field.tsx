import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useState } from 'react';

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'error' | 'helperText'> & {
  /** The form's error message for this field, shown under it. */
  errorMessage?: string;
  /** Keep the message's line even when there is none (forms whose button sits right below). */
  reserveMessageSpace?: boolean;
};

/** A password input with the eye button of AUTH-LOGIN-2; the text starts hidden. */
export function PasswordField({ errorMessage, reserveMessageSpace = false, slotProps, ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      error={errorMessage !== undefined}
      // A reserved line keeps what follows from moving when a message comes or goes on blur: a
      // click on Save that blurs the field must still land on Save.
      helperText={errorMessage ?? (reserveMessageSpace ? ' ' : undefined)}
      slotProps={{
        ...slotProps,
        input: {
          endAdornment: (
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
          ),
        },
      }}
    />
  );
}
