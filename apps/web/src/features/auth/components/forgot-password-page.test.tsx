import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n.ts';
import { mockApi, ok, renderApp } from '../../../test/render-app.tsx';

describe('ForgotPasswordPage', () => {
  it.each([
    ['en', 'Email', 'Send reset link'],
    ['th', 'อีเมล', 'ส่งลิงก์ตั้งรหัสผ่านใหม่'],
  ] as const)(
    'asks for the link with the page’s language (%s), in which the e-mail is written',
    async (language, label, submit) => {
      await i18n.changeLanguage(language);
      const asked: unknown[] = [];
      mockApi({
        'POST /auth/forgot-password': (body) => {
          asked.push(body);
          return ok({ message: 'If an account exists for that email, a password reset link has been sent.' });
        },
      });
      const user = userEvent.setup();
      renderApp('/forgot-password');
      await user.type(await screen.findByLabelText(label), 'advertiser@example.com');
      await user.click(screen.getByRole('button', { name: submit }));
      expect(await screen.findByTestId('location')).toHaveTextContent('/forgot-password');
      await expect.poll(() => asked).toEqual([{ email: 'advertiser@example.com', language }]);
    },
  );
});
