import { AUTH_MESSAGES, ERROR_CODES, REPORT_SCHEDULE_MESSAGES } from '@adpilot/contracts';
import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { setServerErrors, useFieldErrorText } from './form-errors.ts';
import { i18n, setLanguageChoice } from './i18n.ts';

interface Form {
  email: string;
  nickname: string;
}

/** A form that receives one failed call's answer and shows each field's error text. */
function FormWithAnswer({ error, clientMessage }: { error?: unknown; clientMessage?: string }) {
  const { setError, formState } = useForm<Form>();
  const errorText = useFieldErrorText();
  useEffect(() => {
    if (error) setServerErrors(error, setError, ['email', 'nickname'], { EMAIL_TAKEN: 'email' });
    if (clientMessage) setError('email', { type: 'too_small', message: clientMessage });
  }, [error, clientMessage, setError]);
  return (
    <>
      <p data-testid="email">{errorText(formState.errors.email, 'email')}</p>
      <p data-testid="nickname">{errorText(formState.errors.nickname, 'nickname')}</p>
    </>
  );
}

const validationError = (errors: { field: string; message: string }[]) =>
  new ApiError('Validation failed', 400, 'VALIDATION_ERROR', errors);

describe('server errors on form fields', () => {
  it('renders a field error from its code and field, whatever English sentence the server sent', () => {
    render(<FormWithAnswer error={validationError([{ field: 'email', message: 'Some other sentence' }])} />);
    expect(screen.getByTestId('email')).toHaveTextContent('Invalid email');
    act(() => setLanguageChoice('th'));
    expect(screen.getByTestId('email')).toHaveTextContent('อีเมลไม่ถูกต้อง');
  });

  it("falls back to the code's text for a field without its own", () => {
    render(<FormWithAnswer error={validationError([{ field: 'nickname', message: 'Too long' }])} />);
    expect(screen.getByTestId('nickname')).toHaveTextContent('Please check this field');
    expect(screen.getByTestId('email')).toBeEmptyDOMElement();
  });

  it('ignores errors for fields the form does not have', () => {
    render(<FormWithAnswer error={validationError([{ field: 'role', message: 'Unrecognized key' }])} />);
    expect(screen.getByTestId('email')).toBeEmptyDOMElement();
    expect(screen.getByTestId('nickname')).toBeEmptyDOMElement();
  });

  it("puts an error about one item of a list on the list's field", () => {
    render(<FormWithAnswer error={validationError([{ field: 'nickname.2', message: 'Too long' }])} />);
    expect(screen.getByTestId('nickname')).toHaveTextContent('Please check this field');
  });

  it('sends a code that names no field to the field the form routes it to', () => {
    const taken = new ApiError('An account with this email already exists', 409, 'EMAIL_TAKEN');
    render(<FormWithAnswer error={taken} />);
    expect(screen.getByTestId('email')).toHaveTextContent('An account with this email already exists');
    act(() => setLanguageChoice('th'));
    expect(screen.getByTestId('email')).toHaveTextContent('อีเมลนี้มีบัญชีอยู่แล้ว');
  });

  it('places nothing for a failure that is not an API answer', () => {
    render(<FormWithAnswer error={new Error('boom')} />);
    expect(screen.getByTestId('email')).toBeEmptyDOMElement();
  });

  it("shows a form's own check by its catalogue key, in the current language", () => {
    render(<FormWithAnswer clientMessage={AUTH_MESSAGES.passwordMin} />);
    expect(screen.getByTestId('email')).toHaveTextContent('Password must be at least 8 characters');
    act(() => setLanguageChoice('th'));
    expect(screen.getByTestId('email')).toHaveTextContent('รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร');
  });

  it('has a text for every error code and every contracts message, in English and Thai', () => {
    for (const language of ['en', 'th']) {
      for (const code of ERROR_CODES) {
        expect(i18n.getResource(language, 'errors', `codes.${code}`), `${language} ${code}`).toEqual(
          expect.any(String),
        );
      }
      for (const key of Object.keys(AUTH_MESSAGES)) {
        expect(i18n.getResource(language, 'validation', `auth.${key}`), `${language} ${key}`).toEqual(
          expect.any(String),
        );
      }
      for (const key of Object.keys(REPORT_SCHEDULE_MESSAGES)) {
        expect(i18n.getResource(language, 'validation', `reportSchedules.${key}`), `${language} ${key}`).toEqual(
          expect.any(String),
        );
      }
    }
  });
});
