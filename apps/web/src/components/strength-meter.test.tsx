import { messages } from '@dataplatform/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordStrength, strengthLabel } from './password-strength.js';
import { StrengthMeter } from './strength-meter.js';

describe('strength label (WEB-UI-4)', () => {
  it.each([
    [0, 'Low'],
    [25, 'Low'],
    [32.9, 'Low'],
    [33, 'Medium'],
    [50, 'Medium'],
    [65.9, 'Medium'],
    [66, 'High'],
    [100, 'High'],
  ])('%d %% is %s', (percent, label) => {
    expect(strengthLabel(percent)).toBe(label);
  });
});

describe('StrengthMeter', () => {
  function segments() {
    return screen.getAllByTestId('strength-segment');
  }
  function filled() {
    return segments().filter((segment) => segment.dataset.filled === 'true').length;
  }

  it('has 4 segments by default, none filled for an empty password', () => {
    render(<StrengthMeter password="" />);
    expect(segments()).toHaveLength(4);
    expect(filled()).toBe(0);
    expect(screen.getByTestId('strength-label')).toHaveTextContent('Low');
    expect(screen.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Low');
  });

  it.each([
    ['abc', 0, 'Low'],
    ['abcdefgh', 1, 'Low'],
    ['abcdefgH', 2, 'Medium'],
    ['abcdefH1', 3, 'High'],
    ['abcdeH1!', 4, 'High'],
  ])('%s fills %i segments and reads %s', (password, expectedFilled, label) => {
    render(<StrengthMeter password={password} />);
    expect(filled()).toBe(expectedFilled);
    expect(screen.getByTestId('strength-label')).toHaveTextContent(label);
  });

  it('reads a common password as Low and says why, however it is composed (PWD-COMMON-2)', async () => {
    render(<StrengthMeter password="Password1" />);
    expect(await screen.findByText(messages.passwordTooCommon)).toBeInTheDocument();
    expect(filled()).toBe(1);
    expect(screen.getByTestId('strength-label')).toHaveTextContent('Low');
  });

  it('scores an uncommon password of the same make-up as usual', async () => {
    render(<StrengthMeter password="Ledgerly9" />);
    // The list has loaded (a common password shows its warning) and this one is not on it.
    render(<StrengthMeter password="qwerty123" />);
    expect(await screen.findByText(messages.passwordTooCommon)).toBeInTheDocument();
    expect(screen.getAllByTestId('strength-label')[0]).toHaveTextContent('High');
  });

  it('scales to another segment count', () => {
    render(<StrengthMeter password="abcdeH1!" segments={8} />);
    expect(segments()).toHaveLength(8);
    expect(filled()).toBe(8);
    expect(passwordStrength('abcdefgh', 8)).toMatchObject({ filled: 2, percent: 25, label: 'Low' });
  });
});
