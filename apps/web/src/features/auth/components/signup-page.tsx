import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { fieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { errorText } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { signup } from '../api/signup.js';
import type { SignupFormOutput, SignupFormValues } from '../schemas.js';
import { AuthCard, AuthCardLink, AuthForm } from './auth-card.js';
import { NewPasswordFields } from '../../../components/new-password-fields.js';
import { paths } from '../../../config/paths.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.SignupFormSchema);

export function SignupPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<SignupFormValues, unknown, SignupFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { full_name: '', email: '', password: '', confirm_password: '' },
  });
  const password = form.watch('password');

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      await signup(values);
      showToast('Your account has been created. You can log in now.', 'success');
      await navigate(paths.login);
    } catch (failure) {
      setError(errorText(failure));
    }
  });

  return (
    <AuthCard title="Sign Up" error={error}>
      <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
        <TextField {...fieldProps(form, 'full_name')} label="Full Name" autoComplete="name" required fullWidth />
        <TextField {...fieldProps(form, 'email')} label="Email" type="email" autoComplete="email" required fullWidth />
        <NewPasswordFields form={form} name="password" label="Password" password={password} />
        <Button type="submit" variant="contained" size="large" loading={form.formState.isSubmitting}>
          Sign Up
        </Button>
        <AuthCardLink prompt="Already have an account?" to={paths.login}>
          Log In
        </AuthCardLink>
      </AuthForm>
    </AuthCard>
  );
}
