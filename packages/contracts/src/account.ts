import { z } from 'zod';
import { newPasswordSchema, registerRequestSchema } from './auth.ts';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { NOTIFICATION_LANGUAGES, updateNotificationSettingsSchema } from './notifications.ts';
import { planIdSchema } from './subscription.ts';
import { text } from './text.ts';
import { AUTH_MESSAGES } from './validation-messages.ts';
import { WORKSPACE_ROLES } from './workspace-roles.ts';

/** My account (issue 31): the person's own profile, sessions and workspaces, and the plan they pay for. */

/** The server's refusals on My account (English; the web renders their codes). */
export const ACCOUNT_MESSAGES = {
  wrongPassword: 'The current password is not right',
  sessionUnknown: 'No such session',
  workspaceActionMissing: 'Say what becomes of every workspace you own: hand it to a member, or delete it',
  workspaceActionUnknown: 'That workspace is not one you own',
  receiverNotMember: 'The workspace can only be handed to one of its members',
  accountDeleted: 'Your account has been deleted',
  passwordChanged: 'Your password has been changed; every other session has ended',
  sessionEnded: 'The session has been signed out',
  exportQueued: 'Your data is being prepared: a link to download it will be e-mailed to you',
  exportLinkGone: 'This download link has been used or has expired: ask for a new export on My account',
} as const;

/** How long the e-mailed link to the data export works (once). */
export const ACCOUNT_EXPORT_HOURS = 24;

/** The e-mailed link's token (GET /api/account/export/:token; the token is the only credential). */
export const accountExportParamsSchema = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** The mail with the export's link, in the person's language. */
export const ACCOUNT_EXPORT_MAIL = {
  en: (link: string) => ({
    subject: 'Your AdPilot data is ready',
    text: `The data you asked for is ready: ${link}\n\nThe link works once, for ${ACCOUNT_EXPORT_HOURS} hours. If you did not ask for it, change your password on My account.`,
  }),
  th: (link: string) => ({
    subject: 'ข้อมูล AdPilot ของคุณพร้อมแล้ว',
    text: `ข้อมูลที่คุณขอพร้อมดาวน์โหลดแล้ว: ${link}\n\nลิงก์นี้ใช้ได้ครั้งเดียว ภายใน ${ACCOUNT_EXPORT_HOURS} ชั่วโมง หากคุณไม่ได้ขอ โปรดเปลี่ยนรหัสผ่านที่หน้าบัญชีของฉัน`,
  }),
} as const;

const currentPassword = text({ required: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordMax);

/** A workspace on My account: the person's role in it, and whose plan covers it. */
export const accountWorkspaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  personal: z.boolean(),
  /** The person's own plan covers it (they own it, or it was handed to them). */
  paidByYou: z.boolean(),
  /** The other members (for the owner's handover choice), never their addresses. */
  members: z.array(z.object({ userId: z.uuid(), name: z.string(), role: z.enum(WORKSPACE_ROLES) })),
});
export type AccountWorkspace = z.infer<typeof accountWorkspaceSchema>;

/** GET /api/account. */
export const accountSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  language: z.enum(NOTIFICATION_LANGUAGES),
  timeZone: z.string(),
  /** The plan the person pays for, and how many workspaces it covers. */
  plan: z.object({ id: planIdSchema, workspaces: z.number().int() }),
  workspaces: z.array(accountWorkspaceSchema),
});
export type Account = z.infer<typeof accountSchema>;

/** PATCH /api/account: any of the three. */
export const updateAccountSchema = z.strictObject({
  name: registerRequestSchema.shape.name.optional(),
  language: updateNotificationSettingsSchema.shape.language,
  timeZone: updateNotificationSettingsSchema.shape.timeZone,
});
export type UpdateAccount = z.infer<typeof updateAccountSchema>;

/** POST /api/account/password: the current password, and the new one under the sign-up rules. */
export const changePasswordSchema = z.strictObject({ currentPassword, newPassword: newPasswordSchema });
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** GET /api/account/sessions: one row per signed-in browser (a refresh token family), the newest first. */
export const accountSessionSchema = z.object({
  id: z.uuid(),
  /** The browser's user agent as it sent it at the last refresh, null when unknown. */
  device: z.string().nullable(),
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export const accountSessionListSchema = z.array(accountSessionSchema);
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionParamsSchema = z.strictObject({ id: z.uuid({ error: 'Invalid session id' }) });

/** What becomes of one owned workspace when its owner deletes their account. */
export const workspaceFateSchema = z.discriminatedUnion('action', [
  z.strictObject({ id: z.uuid(), action: z.literal('transfer'), toUserId: z.uuid() }),
  z.strictObject({ id: z.uuid(), action: z.literal('delete') }),
]);
export type WorkspaceFate = z.infer<typeof workspaceFateSchema>;

/** DELETE /api/account. */
export const deleteAccountSchema = z.strictObject({
  password: currentPassword,
  workspaces: z.array(workspaceFateSchema).max(100).default([]),
});
export type DeleteAccount = z.infer<typeof deleteAccountSchema>;
