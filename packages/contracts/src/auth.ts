import { z } from 'zod';
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { text } from './text.ts';
import { AUTH_MESSAGES } from './validation-messages.ts';

/** Digits of the one-time sign-in code, and how long it lives (ADR 0087). */
export const LOGIN_CODE_LENGTH = 6;
export const LOGIN_CODE_TTL_SECONDS = 10 * 60;

const email = text({ required: AUTH_MESSAGES.emailRequired, trim: true })
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }))
  .transform((value) => value.toLowerCase())
  // The pipe's check is on its output side, which a request schema does not show: the document says it here.
  .meta({ format: 'email' });

const LOWERCASE = /[a-z]/;
const UPPERCASE = /[A-Z]/;
const DIGIT = /[0-9]/;

/**
 * The strength rules of spec §5 one by one, in the order the schema checks them: the sign-up and reset forms list
 * them before anything is typed and tick each as it is met (ADR 0133).
 */
export const PASSWORD_RULES = [
  { key: 'length', met: (password: string) => password.length >= PASSWORD_MIN_LENGTH },
  { key: 'lowercase', met: (password: string) => LOWERCASE.test(password) },
  { key: 'uppercase', met: (password: string) => UPPERCASE.test(password) },
  { key: 'number', met: (password: string) => DIGIT.test(password) },
] as const;

/** A new password: the strength rules of spec §5. */
export const newPasswordSchema = text({ required: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordMin)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax)
  .regex(LOWERCASE, AUTH_MESSAGES.passwordLower)
  .regex(UPPERCASE, AUTH_MESSAGES.passwordUpper)
  .regex(DIGIT, AUTH_MESSAGES.passwordNumber);

const name = text({ required: AUTH_MESSAGES.nameRequired, trim: true })
  .min(1, AUTH_MESSAGES.nameRequired)
  .min(NAME_MIN_LENGTH, AUTH_MESSAGES.nameMin)
  .max(NAME_MAX_LENGTH, AUTH_MESSAGES.nameMax);

export const loginRequestSchema = z.strictObject({
  email,
  password: text({ required: AUTH_MESSAGES.passwordRequired })
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax),
  /** The one-time code e-mailed when the account's sign-in budget is spent (ADR 0087). */
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${LOGIN_CODE_LENGTH}}$`), AUTH_MESSAGES.loginCodeInvalid)
    .optional(),
});

/** Asks for a one-time sign-in code by e-mail; answered the same whether or not the account exists. */
export const loginCodeRequestSchema = z.strictObject({ email, language: z.enum(['en', 'th']).optional() });

export const registerRequestSchema = z.strictObject({ name, email, password: newPasswordSchema });

/** The register form adds the confirmation and the terms box, which never reach the server. */
export const registerFormSchema = z
  .object({
    name,
    email,
    password: newPasswordSchema,
    confirmPassword: text({ required: AUTH_MESSAGES.confirmRequired }).min(1, AUTH_MESSAGES.confirmRequired),
    acceptTerms: z.boolean(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: AUTH_MESSAGES.passwordsMatch,
    path: ['confirmPassword'],
  });

export const refreshRequestSchema = z.strictObject({
  refreshToken: text({ required: AUTH_MESSAGES.refreshTokenRequired })
    .min(1, AUTH_MESSAGES.refreshTokenRequired)
    .max(512),
});

export const logoutRequestSchema = z.strictObject({
  refreshToken: text().max(512).optional(),
});

/** `language`: the page's language when the link was asked for; the e-mail is written in it (English by default). */
export const forgotPasswordRequestSchema = z.strictObject({ email, language: z.enum(['en', 'th']).optional() });

export const resetPasswordRequestSchema = z.strictObject({
  token: text({ required: AUTH_MESSAGES.tokenRequired }).min(1, AUTH_MESSAGES.tokenRequired).max(512),
  password: newPasswordSchema,
});

export const resetPasswordFormSchema = z
  .object({
    password: newPasswordSchema,
    confirmPassword: text({ required: AUTH_MESSAGES.confirmRequired }).min(1, AUTH_MESSAGES.confirmRequired),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: AUTH_MESSAGES.passwordsMatch,
    path: ['confirmPassword'],
  });

export const userRoleSchema = z.enum(['admin', 'user']);

export const userSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: userRoleSchema,
  createdAt: z.string(),
});

export const sessionSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  user: userSchema,
});

export const refreshResponseSchema = z.object({ token: z.string(), refreshToken: z.string() });
export const messageResponseSchema = z.object({ message: z.string() });

export type LoginRequest = z.infer<typeof loginRequestSchema>;
export type LoginCodeRequest = z.infer<typeof loginCodeRequestSchema>;
export type RegisterRequest = z.infer<typeof registerRequestSchema>;
export type RegisterForm = z.input<typeof registerFormSchema>;
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>;
export type User = z.infer<typeof userSchema>;
export type Session = z.infer<typeof sessionSchema>;
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;
