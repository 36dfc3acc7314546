import { activityCodeOf, LINE_TEXT_MAX, renderActivity, type ActivityLanguage } from '@adpilot/contracts';
import type { ActivityLogRow } from '@adpilot/db';

export type Language = ActivityLanguage;

/**
 * The words of e-mails and webhook messages, in the language the user chose in the Notifications section. An
 * entry's own line is its code rendered from the catalogue the web reads too (ADR 0051); plain text, never markup.
 */
const WORDS = {
  en: {
    level: { error: 'Error', warning: 'Warning', info: 'Info', success: 'Success' },
    notify: 'Rule notification',
    errorSubject: (line: string) => `AdPilot: ${line}`,
    entryIntro: 'AdPilot recorded this in your activity log:',
    when: 'When',
    open: 'Open your activity log',
    approve: 'Approve this change',
    reject: 'Reject it',
    digestSubject: (date: string, total: number) => `AdPilot daily summary for ${date}: ${total} action(s)`,
    digestIntro: (date: string) => `What your rules did on ${date}:`,
    digestCounts: (applied: number, failed: number, other: number) =>
      `${applied} applied, ${failed} failed, ${other} other`,
    digestMore: (count: number) => `…and ${count} more in your activity log.`,
    testSubject: 'AdPilot test notification',
    testText: 'This is a test from AdPilot: notifications reach you here.',
    confirmSubject: 'Confirm your address for AdPilot notifications',
    confirmText: (link: string) =>
      `Someone asked for AdPilot notifications to be sent to this address. If it was you, open this link within 24 hours to confirm it:\n\n${link}\n\nIf it was not you, ignore this message: AdPilot sends nothing more to this address unless it is confirmed.`,
    footer: 'You receive this because you turned it on in AdPilot (account menu → Notifications).',
  },
  th: {
    level: { error: 'ข้อผิดพลาด', warning: 'คำเตือน', info: 'ข้อมูล', success: 'สำเร็จ' },
    notify: 'การแจ้งเตือนจากกฎ',
    errorSubject: (line: string) => `AdPilot: ${line}`,
    entryIntro: 'AdPilot บันทึกรายการนี้ไว้ในบันทึกกิจกรรมของคุณ:',
    when: 'เวลา',
    open: 'เปิดบันทึกกิจกรรม',
    approve: 'อนุมัติการเปลี่ยนแปลงนี้',
    reject: 'ปฏิเสธ',
    digestSubject: (date: string, total: number) => `สรุปประจำวันของ AdPilot วันที่ ${date}: ${total} การดำเนินการ`,
    digestIntro: (date: string) => `สิ่งที่กฎของคุณทำในวันที่ ${date}:`,
    digestCounts: (applied: number, failed: number, other: number) => `สำเร็จ ${applied} ล้มเหลว ${failed} อื่น ๆ ${other}`,
    digestMore: (count: number) => `…และอีก ${count} รายการในบันทึกกิจกรรม`,
    testSubject: 'การแจ้งเตือนทดสอบจาก AdPilot',
    testText: 'นี่คือการทดสอบจาก AdPilot: การแจ้งเตือนจะส่งมาที่นี่',
    confirmSubject: 'ยืนยันอีเมลของคุณสำหรับการแจ้งเตือนจาก AdPilot',
    confirmText: (link: string) =>
      `มีผู้ขอให้ส่งการแจ้งเตือนของ AdPilot มาที่อีเมลนี้ หากเป็นคุณ โปรดเปิดลิงก์นี้ภายใน 24 ชั่วโมงเพื่อยืนยัน:\n\n${link}\n\nหากไม่ใช่คุณ ไม่ต้องดำเนินการใด ๆ: AdPilot จะไม่ส่งอะไรมาที่อีเมลนี้อีกจนกว่าจะได้รับการยืนยัน`,
    footer: 'คุณได้รับข้อความนี้เพราะเปิดการแจ้งเตือนไว้ใน AdPilot (เมนูบัญชี → การแจ้งเตือน)',
  },
} as const;

function isNotifyAction(entry: ActivityLogRow): boolean {
  return entry.category === 'rule_action' && entry.metadata.action === 'notify';
}

/** The entry in the reader's language; its stored description for a note, an unknown code or an uncoded entry. */
function entryText(entry: ActivityLogRow, language: Language): string {
  return renderActivity({ ...activityCodeOf(entry.metadata), description: entry.description }, language);
}

function headline(entry: ActivityLogRow, language: Language): string {
  const words = WORDS[language];
  const label = isNotifyAction(entry) ? words.notify : words.level[entry.level];
  return `${label}: ${entryText(entry, language)}`;
}

/** A subject is one line of at most 140 characters (whole characters: a surrogate pair is never cut). */
function subjectLine(line: string): string {
  const chars = [...line.replace(/\s+/g, ' ').trim()];
  return chars.length > 140 ? `${chars.slice(0, 139).join('')}…` : chars.join('');
}

function when(date: Date, timeZone: string, language: Language): string {
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(date);
}

/** `message` is a notify action's own text, when its rule gave one. */
/** A proposal's approve and reject links (ADR 0073), as lines in the reader's language. */
export function decisionLines(links: { approve: string; reject: string } | null, language: Language): string[] {
  if (!links) return [];
  const words = WORDS[language];
  return [`${words.approve}: ${links.approve}`, `${words.reject}: ${links.reject}`];
}

export function entryMail(
  entry: ActivityLogRow,
  message: string | null,
  options: { language: Language; timeZone: string; publicUrl: string; extraLines?: readonly string[] },
) {
  const words = WORDS[options.language];
  const line = headline(entry, options.language);
  return {
    subject: words.errorSubject(subjectLine(line)),
    text: [
      words.entryIntro,
      '',
      line,
      ...(message ? ['', message] : []),
      `${words.when}: ${when(entry.createdAt, options.timeZone, options.language)}`,
      '',
      `${words.open}: ${options.publicUrl}/activity`,
      ...(options.extraLines?.length ? ['', ...options.extraLines] : []),
      '',
      words.footer,
    ].join('\n'),
  };
}

export function digestMail(
  date: string,
  actions: { rows: ActivityLogRow[]; total: number; byLevel: Record<string, number> },
  options: { language: Language; timeZone: string; publicUrl: string },
) {
  const words = WORDS[options.language];
  const applied = actions.byLevel.success ?? 0;
  const failed = actions.byLevel.error ?? 0;
  const lines = actions.rows.map(
    (row) =>
      `- ${when(row.createdAt, options.timeZone, options.language)} · ${words.level[row.level]} · ${entryText(row, options.language)}`,
  );
  return {
    subject: words.digestSubject(date, actions.total),
    text: [
      words.digestIntro(date),
      words.digestCounts(applied, failed, actions.total - applied - failed),
      '',
      ...lines,
      ...(actions.total > actions.rows.length ? [words.digestMore(actions.total - actions.rows.length)] : []),
      '',
      `${words.open}: ${options.publicUrl}/activity`,
      '',
      words.footer,
    ].join('\n'),
  };
}

/**
 * The confirmation of an address (ADR 0054). Fixed words and the link only: nothing the account's owner wrote (a
 * name, a note) reaches an address that has not said it wants AdPilot's mail.
 */
export function confirmationMail(language: Language, link: string) {
  const words = WORDS[language];
  return { subject: words.confirmSubject, text: words.confirmText(link) };
}

export function testMail(language: Language) {
  const words = WORDS[language];
  return { subject: words.testSubject, text: `${words.testText}\n\n${words.footer}` };
}

/**
 * Slack reads `&`, `<` and `>` as its control characters (links, `<!channel>` mentions): in text that names what
 * users and Meta wrote (rule, ad and campaign names, a notify message) they are sent as the three entities Slack
 * decodes, and nothing else is encoded.
 */
export function slackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The webhook body: Slack's incoming-webhook shape (`text`, the entry in the reader's language) that chat tools
 * display as is, and the entry as data under `adpilot` for programs: its code and parameters as stored, and the
 * plain English description.
 */
export function webhookBody(
  event: { kind: 'entry'; entry: ActivityLogRow; message: string | null } | { kind: 'test' },
  options: {
    language: Language;
    publicUrl: string;
    sentAt: Date;
    /** A proposal's approve and reject links for the member (ADR 0073): Slack links in the text, and in `adpilot`. */
    links?: { approve: string; reject: string } | null;
  },
): string {
  const words = WORDS[options.language];
  if (event.kind === 'test')
    return JSON.stringify({
      text: words.testText,
      adpilot: { event: 'test', sentAt: options.sentAt.toISOString() },
    });
  const { entry, message } = event;
  return JSON.stringify({
    text: [
      slackText(headline(entry, options.language)),
      message && slackText(message),
      `<${options.publicUrl}/activity|${words.open}>`,
      options.links && `<${options.links.approve}|${words.approve}> · <${options.links.reject}|${words.reject}>`,
    ]
      .filter(Boolean)
      .join('\n'),
    adpilot: {
      event: 'activity',
      sentAt: options.sentAt.toISOString(),
      ...(options.links ? { links: options.links } : {}),
      entry: {
        id: entry.id,
        level: entry.level,
        type: entry.category,
        code: typeof entry.metadata.code === 'string' ? entry.metadata.code : null,
        params: entry.metadata.params ?? null,
        description: entry.description,
        adAccountId: entry.adAccountId,
        createdAt: entry.createdAt.toISOString(),
      },
    },
  });
}

/**
 * A LINE text message: the entry in the reader's language, a notify action's own text, when it happened, the link to
 * the activity log, then `extraLines` (links a caller adds, such as a proposal's approve link). Plain text: LINE shows
 * it as written and makes the links tappable. At most LINE_TEXT_MAX UTF-16 code units, as LINE counts; a longer
 * text loses the end of the entry's part, never the links.
 */
export function lineText(
  event: { kind: 'entry'; entry: ActivityLogRow; message: string | null } | { kind: 'test' },
  options: { language: Language; timeZone: string; publicUrl: string; extraLines?: readonly string[] },
): string {
  const words = WORDS[options.language];
  if (event.kind === 'test') return words.testText;
  const { entry, message } = event;
  const body = [
    headline(entry, options.language),
    ...(message ? [message] : []),
    `${words.when}: ${when(entry.createdAt, options.timeZone, options.language)}`,
  ].join('\n');
  const tail = `\n\n${[`${words.open}: ${options.publicUrl}/activity`, ...(options.extraLines ?? [])].join('\n')}`;
  const room = LINE_TEXT_MAX - tail.length;
  return `${body.length > room ? cutUtf16(body, room - 1) + '…' : body}${tail}`;
}

/** The first `units` UTF-16 code units of `text`, never half of a surrogate pair. */
function cutUtf16(text: string, units: number): string {
  let cut = text.slice(0, Math.max(0, units));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}
