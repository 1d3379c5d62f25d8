// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
import {
  EmailSchema,
  ErrorCode,
  PROFILE_FULL_NAME_MAX_LENGTH,
  userMessages,
  type UserMe,
} from '@dataplatform/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { applyServerErrors } from '../../../lib/form-errors.js';
import { fieldProps } from '../../../components/form-field.js';
import { ApiError } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { emailVerificationKeys } from '../api/email-verification.js';
import { useUpdateProfile } from '../api/update-profile.js';
import { FormError } from '../../../components/form-error.js';

export const FULL_NAME_TOO_LONG = `Full name must be at most ${PROFILE_FULL_NAME_MAX_LENGTH} characters`;

/** The profile editor's rules (SET-PROFILE-2): a name of at most 30 characters, a valid e-mail. */
const ProfileFormSchema = z.object({
  full_name: z.string().trim().max(PROFILE_FULL_NAME_MAX_LENGTH, FULL_NAME_TOO_LONG),
  email: EmailSchema,
});
type ProfileFormValues = z.input<typeof ProfileFormSchema>;
type ProfileFormOutput = z.output<typeof ProfileFormSchema>;

/** The profile editor (SET-PROFILE-2), in a chunk of its own: loaded when Edit is pressed. */
export function ProfileForm({ me, onDone }: { me: UserMe; onDone: () => void }) {
  const [formError, setFormError] = useState<string>();
  const update = useUpdateProfile();
  const queryClient = useQueryClient();
  const defaults: ProfileFormValues = { full_name: me.full_name ?? '', email: me.email };
  const form = useForm<ProfileFormValues, unknown, ProfileFormOutput>({
    mode: 'onBlur',
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: defaults,
  });
  const values = useWatch({ control: form.control });
  const changed = values.full_name !== defaults.full_name || values.email !== defaults.email;
  const canSave = changed && (values.email ?? '').trim() !== '';

  const onSubmit = form.handleSubmit(async ({ full_name, email }) => {
    setFormError(undefined);
    try {
      const emailChanged = email !== me.email;
      await update.mutateAsync({ full_name: full_name === '' ? null : full_name, email });
      // The new address takes effect only once its link is followed: the view then shows it waiting.
      if (emailChanged) await queryClient.invalidateQueries({ queryKey: emailVerificationKeys.all });
      showToast('Profile updated successfully', 'success');
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.email_taken) {
        form.setError('email', { type: 'server', message: userMessages.emailTaken });
        return;
      }
      setFormError(
        applyServerErrors<ProfileFormValues>(error, ['full_name', 'email'], (name, message) =>
          form.setError(name, { type: 'server', message }),
        ),
      );
    }
  });

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2 }}>
      <FormError message={formError} />
      <TextField
        {...fieldProps(form, 'full_name', { reserveMessageSpace: true })}
        label="Full name"
        autoComplete="name"
        fullWidth
      />
      <TextField
        {...fieldProps(form, 'email', { reserveMessageSpace: true })}
        label="Email"
        type="email"
        autoComplete="email"
        required
        fullWidth
      />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button type="submit" variant="contained" loading={form.formState.isSubmitting} disabled={!canSave}>
          Save
        </Button>
        <Button onClick={onDone} disabled={form.formState.isSubmitting}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}
