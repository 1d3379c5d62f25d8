import type { FieldValues, Path } from 'react-hook-form';
import { passwordFieldProps, type FormHandle } from '../../../components/form-field.js';
import { PasswordField } from '../../../components/password-field.js';
import { StrengthMeter } from '../../../components/strength-meter.js';

/**
 * A new password with its strength meter, then its confirmation: the pair the sign-up and reset
 * forms share. The form names the confirmation `confirm_password`, as the contract does.
 */
export function NewPasswordFields<T extends FieldValues & { confirm_password: string }>({
  form,
  name,
  label,
  password,
}: {
  form: FormHandle<T>;
  name: Path<T>;
  label: string;
  /** The current value of `name`, watched by the form. */
  password: string;
}) {
  return (
    <>
      <div>
        <PasswordField
          {...passwordFieldProps(form, name)}
          label={label}
          autoComplete="new-password"
          required
          fullWidth
        />
        <StrengthMeter password={password} />
      </div>
      <PasswordField
        {...passwordFieldProps(form, 'confirm_password' as Path<T>)}
        label="Confirm Password"
        autoComplete="new-password"
        required
        fullWidth
      />
    </>
  );
}
