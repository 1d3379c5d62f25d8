import { ErrorCode, type UpdatePassword } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { applyServerErrors } from '../../../lib/form-errors.js';
import { passwordFieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { NewPasswordFields } from '../../../components/new-password-fields.js';
import { PasswordField } from '../../../components/password-field.js';
import { ApiError, failureText } from '../../../lib/api-error.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';
import { showToast } from '../../../lib/toast-store.js';
import { useChangePassword } from '../api/change-password.js';
import { FormError } from '../../../components/form-error.js';
import { TabHeading } from '../../../components/tab-heading.js';

const loadSchema = () => import('./password-schema.js').then((module) => module.UpdatePasswordSchema);

const EMPTY: UpdatePassword = { current_password: '', new_password: '', confirm_password: '' };

/** Which field an error code is about, so the server's message lands there (the rest: the error line). */
const FIELD_OF_ERROR_CODE: Partial<Record<ErrorCode, keyof UpdatePassword>> = {
  [ErrorCode.incorrect_password]: 'current_password',
};

/**
 * Password (SET-PASSWORD-1, AUTH-VALID-2, AUTH-VALID-3): current, new and confirmation, validated on blur; Save only
 * while the form is valid. This session stays signed in; the others are signed out by the API.
 */
export function PasswordTab() {
  const [formError, setFormError] = useState<string>();
  // The server's word on one field ("Incorrect password"), kept apart from the form's own rules so
  // no later validation of another field can wipe it; it goes when that field is edited.
  const [serverError, setServerError] = useState<{ field: keyof UpdatePassword; message: string }>();
  const change = useChangePassword();
  const { schema, onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<UpdatePassword>({ mode: 'onBlur', resolver, defaultValues: EMPTY });
  const newPassword = useWatch({ control: form.control, name: 'new_password' });
  const values = useWatch({ control: form.control });
  // Until the rules are here (they come with the first focus), Save waits.
  const valid = schema?.safeParse(values).success ?? false;

  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(undefined);
    setServerError(undefined);
    try {
      await change.mutateAsync(body);
      form.reset(EMPTY);
      showToast(
        'Password updated successfully. You stay signed in here; your other sessions were signed out.',
        'success',
      );
    } catch (error) {
      const code = error instanceof ApiError ? error.code : undefined;
      const field = code === undefined ? undefined : FIELD_OF_ERROR_CODE[code];
      if (field) {
        setServerError({ field, message: failureText((error as ApiError).body) });
        form.setFocus(field);
        return;
      }
      setFormError(
        applyServerErrors<UpdatePassword>(error, Object.keys(EMPTY), (name, message) =>
          form.setError(name, { type: 'server', message }),
        ),
      );
    }
  });

  const withServerError = <P extends { errorMessage?: string; onChange: (event: { target: unknown }) => unknown }>(
    props: P,
    field: keyof UpdatePassword,
  ): P => {
    if (serverError?.field !== field) return props;
    return {
      ...props,
      errorMessage: props.errorMessage ?? serverError.message,
      onChange: (event: { target: unknown }) => {
        setServerError(undefined);
        return props.onChange(event);
      },
    };
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      onFocus={onFormFocus}
      sx={{ display: 'grid', gap: 2, maxWidth: 480 }}
    >
      <TabHeading>Change Password</TabHeading>
      <FormError message={formError} />
      <PasswordField
        {...withServerError(passwordFieldProps(form, 'current_password'), 'current_password')}
        label="Current Password"
        reserveMessageSpace
        autoComplete="current-password"
        required
        fullWidth
      />
      <NewPasswordFields
        form={form}
        name="new_password"
        label="New Password"
        password={newPassword}
        reserveMessageSpace
      />
      <Box>
        <Button type="submit" variant="contained" loading={form.formState.isSubmitting} disabled={!valid}>
          Save
        </Button>
      </Box>
    </Box>
  );
}
