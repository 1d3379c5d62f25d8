import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginPage } from './login-page.js';
import { RecoverPasswordPage } from './recover-password-page.js';
import { SignupPage } from './signup-page.js';

function renderAuthScreens(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/recover-password" element={<RecoverPasswordPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the links between the auth screens', () => {
  it('log-in links to sign-up and to password recovery; sign-up links back to log-in (AUTH-LOGIN-1, AUTH-SIGNUP-1)', async () => {
    const user = userEvent.setup();
    renderAuthScreens('/login');
    expect(screen.getByRole('heading', { name: 'Log In' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/recover-password');

    await user.click(screen.getByRole('link', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: 'Log In' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: /^Email/ })).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeVisible();
  });
});
