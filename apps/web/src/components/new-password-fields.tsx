import type { FieldValues, Path } from 'react-hook-form';
import { passwordFieldProps, type FormHandle } from './form-field.js';
import { PasswordField } from './password-field.js';
import { StrengthMeter } from './strength-meter.js';

/**
 * A new password with its strength meter, then its confirmation: the pair the sign-up, reset and
 * change-password forms share. The form names the confirmation `confirm_password`, as the contract does.
 */
export function NewPasswordFields<T extends FieldValues & { confirm_password: string }>({
  form,
  name,
  label,
  password,
  reserveMessageSpace = false,
}: {
  form: FormHandle<T>;
  name: Path<T>;
  label: string;
  /** The current value of `name`, watched by the form. */
  password: string;
  reserveMessageSpace?: boolean;
}) {
  return (
    <>
      <div>
        <PasswordField
          {...passwordFieldProps(form, name)}
          label={label}
          reserveMessageSpace={reserveMessageSpace}
          autoComplete="new-password"
          required
          fullWidth
        />
        <StrengthMeter password={password} />
      </div>
      <PasswordField
        {...passwordFieldProps(form, 'confirm_password' as Path<T>)}
        label="Confirm Password"
        reserveMessageSpace={reserveMessageSpace}
        autoComplete="new-password"
        required
        fullWidth
      />
    </>
  );
}
