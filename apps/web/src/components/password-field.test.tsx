import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PasswordField } from './password-field.js';

describe('PasswordField', () => {
  it('starts hidden and the eye button toggles between hidden and visible text', async () => {
    const user = userEvent.setup();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    const eye = screen.getByRole('button', { name: 'toggle password visibility' });
    expect(input).toHaveAttribute('type', 'password');
    await user.type(input, 'secret-123');
    await user.click(eye);
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveValue('secret-123');
    await user.click(eye);
    expect(input).toHaveAttribute('type', 'password');
  });

  it("shows the form's error message for its field", () => {
    render(<PasswordField label="Password" errorMessage="Password must be at least 8 characters" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Password must be at least 8 characters');
  });

  it('shows no message and is valid without one', () => {
    render(<PasswordField label="Password" />);
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'false');
  });
});
