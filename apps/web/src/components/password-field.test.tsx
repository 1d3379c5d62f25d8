import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LoadingButton } from './loading-button.js';
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

describe('LoadingButton', () => {
  it('is an ordinary button when not loading', () => {
    render(<LoadingButton>Send Message</LoadingButton>);
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
    expect(screen.queryByTestId('loading-spinner')).toBeNull();
  });

  it('while loading is disabled and shows a spinner plus the loading text', () => {
    render(
      <LoadingButton loading loadingText="Sending...">
        Send Message
      </LoadingButton>,
    );
    const button = screen.getByRole('button', { name: 'Sending...' });
    expect(button).toBeDisabled();
    expect(screen.getByTestId('loading-spinner')).toBeInTheDocument();
  });

  it('while loading without text shows only the spinner but keeps its accessible name', () => {
    render(<LoadingButton loading>Save</LoadingButton>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(screen.getByTestId('loading-spinner')).toBeInTheDocument();
  });
});
