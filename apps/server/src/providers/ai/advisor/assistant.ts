import { formatFigure } from '@adpilot/contracts';
import { languageOf, type AccountSummary } from '../ai-provider.ts';
import { findAnswer, KNOWLEDGE_BASE } from './knowledge-base.ts';

const ABOUT_MY_ACCOUNTS =
  /\b(my|our) (account|accounts|ads|campaigns|performance|results)\b|บัญชีของ(ฉัน|เรา)|โฆษณาของ(ฉัน|เรา)|ผลงานของ(ฉัน|เรา)/;

function describeAccounts(summary: AccountSummary, language: 'en' | 'th'): string {
  if (summary.accounts.length === 0) {
    return language === 'th'
      ? 'ยังไม่มีบัญชีโฆษณาที่เชื่อมต่อ เชื่อมต่อบัญชีในหน้า Ad Accounts แล้วถามอีกครั้ง'
      : 'You have no ad account connected yet. Connect one on the Ad Accounts page and ask again.';
  }
  const lines = summary.accounts.map((account) => {
    const figures = [
      `${formatFigure(account.spend)} ${account.currency}`,
      `CTR ${account.ctr === null ? '–' : `${formatFigure(account.ctr)}%`}`,
      `CPA ${account.cpa === null ? '–' : formatFigure(account.cpa)}`,
      `ROAS ${account.roas === null ? '–' : formatFigure(account.roas)}`,
    ].join(', ');
    return `- ${account.name}: ${figures}`;
  });
  const head =
    language === 'th'
      ? 'บัญชีของคุณใน 7 วันที่ผ่านมา (ค่าใช้จ่าย, CTR, CPA, ROAS):'
      : 'Your accounts over the last 7 days (spend, CTR, CPA, ROAS):';
  return [head, ...lines].join('\n');
}

/**
 * The built-in assistant: a curated answer when the question matches one, the caller's own figures when asked about
 * their accounts, and a plain "I don't know" otherwise. It answers in the question's language.
 */
export function answerQuestion(message: string, context: AccountSummary | null): string {
  const language = languageOf(message);
  const text = message.toLowerCase();
  const parts: string[] = [];
  if (context && ABOUT_MY_ACCOUNTS.test(text)) parts.push(describeAccounts(context, language));
  const entry = findAnswer(message);
  if (entry) parts.push(entry[language]);
  if (parts.length > 0) return parts.join('\n\n');
  const topics = KNOWLEDGE_BASE.map((item) => item.id.replace('adpilot-rules', 'rules')).join(', ');
  return language === 'th'
    ? `ขออภัย ฉันไม่ทราบคำตอบของคำถามนี้ ผู้ช่วยในตัวตอบได้เฉพาะหัวข้อโฆษณาที่พบบ่อย (${topics}) ลองถามเกี่ยวกับหัวข้อเหล่านี้ หรือให้ผู้ดูแลระบบเชื่อมต่อโมเดลที่รองรับ OpenAI ในหน้าตั้งค่าเพื่อคำตอบที่กว้างขึ้น`
    : `Sorry, I don't know the answer to that. The built-in assistant only answers common advertising questions (${topics}). Try one of those topics, or ask the administrator to connect an OpenAI-compatible model in Settings for broader answers.`;
}
