import { LOGIN_CODE_LENGTH } from '@adpilot/contracts';
import { createHmac, randomInt } from 'node:crypto';

/**
 * One-time sign-in codes (ADR 0087): six random digits, kept as an HMAC of the user and the code under a key derived
 * from the application secret, so the table alone does not give them away (a plain hash of six digits would).
 */
export class LoginCodes {
  constructor(private readonly key: Buffer) {}

  generate(): string {
    return String(randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, '0');
  }

  hash(userId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${code}`).digest('hex');
  }
}

export const LOGIN_CODE_REQUESTED_MESSAGE = 'If an account exists for that email, a sign-in code has been sent.';

/** The code's e-mail in the language of the page it was asked from; like the reset mail, it greets no one by name. */
export const LOGIN_CODE_MAIL = {
  en: (code: string) => ({
    subject: `${code} is your AdPilot sign-in code`,
    text: `Hello,\n\nSomeone asked to sign in to your AdPilot account from a new browser. If it was you, enter this code with your password within 10 minutes:\n\n${code}\n\nThe code works once. If it was not you, ignore this message: without your password the code is of no use, and you may want to change your password.\n`,
  }),
  th: (code: string) => ({
    subject: `${code} คือรหัสเข้าสู่ระบบ AdPilot ของคุณ`,
    text: `สวัสดี\n\nมีผู้ขอเข้าสู่ระบบบัญชี AdPilot ของคุณจากเบราว์เซอร์ใหม่ หากเป็นคุณ โปรดกรอกรหัสนี้พร้อมรหัสผ่านภายใน 10 นาที:\n\n${code}\n\nรหัสนี้ใช้ได้ครั้งเดียว หากไม่ใช่คุณ ไม่ต้องทำอะไร หากไม่มีรหัสผ่าน รหัสนี้ก็ใช้ไม่ได้ และคุณอาจต้องการเปลี่ยนรหัสผ่าน\n`,
  }),
} as const;
