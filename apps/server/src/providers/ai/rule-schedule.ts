import { RULE_SCHEDULE_MINUTES, type RuleSchedule } from '@adpilot/contracts';

/** What a rule draft needs to know of the user's plan (ADR 0040's limits seam answers it). */
export interface DraftPlan {
  /** The shortest "every N minutes" the plan lets an active rule run at. */
  fastestCheckMinutes: number;
}

/** The schedule a request names ("every 5 minutes", "hourly", "daily at 9am", "ทุก 15 นาที"), or null for none. */
export function readSchedule(prompt: string): RuleSchedule | null {
  const text = prompt.toLowerCase().replace(/\s+/g, ' ');
  const every = /every\s*(5|15|30|60)\s*min|ทุก\s*(5|15|30|60)\s*นาที/.exec(text);
  if (every) return { everyMinutes: Number(every[1] ?? every[2]) as 5 | 15 | 30 | 60 };
  if (/\bevery hour\b|\bhourly\b|ทุกชั่วโมง/.test(text)) return { everyMinutes: 60 };
  const daily = /(?:daily|every day|each day|ทุกวัน)[^\d]{0,12}(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|น\.)?/.exec(text);
  if (daily) {
    let hour = Number(daily[1]);
    if (daily[3] === 'pm' && hour < 12) hour += 12;
    if (daily[3] === 'am' && hour === 12) hour = 0;
    if (hour <= 23) return { dailyAt: `${String(hour).padStart(2, '0')}:${daily[2] ?? '00'}` };
  }
  return null;
}

/** The fastest schedule the plan allows; a plan slower than every interval on offer checks once a day. */
export function fastestSchedule(plan: DraftPlan): RuleSchedule {
  const minutes = RULE_SCHEDULE_MINUTES.find((every) => every >= plan.fastestCheckMinutes);
  return minutes ? { everyMinutes: minutes } : { dailyAt: '09:00' };
}

const scheduleWords = (schedule: RuleSchedule, language: 'en' | 'th') =>
  'windows' in schedule
    ? language === 'th'
      ? 'เมื่อช่วงเวลาที่กำหนดสิ้นสุด'
      : 'when each set time window ends'
    : 'everyMinutes' in schedule
      ? language === 'th'
        ? `ทุก ${schedule.everyMinutes} นาที`
        : `every ${schedule.everyMinutes} minutes`
      : language === 'th'
        ? `ทุกวันเวลา ${schedule.dailyAt}`
        : `daily at ${schedule.dailyAt}`;

/** The explanation's line on how often the rule is checked. */
export function checkedWords(schedule: RuleSchedule, language: 'en' | 'th'): string {
  if (language === 'th') return `ตรวจ${scheduleWords(schedule, 'th')}`;
  if ('windows' in schedule) return 'Checked when each set time window ends.';
  return 'everyMinutes' in schedule
    ? `Checked every ${schedule.everyMinutes} minutes.`
    : `Checked daily at ${schedule.dailyAt}.`;
}

/**
 * The draft's schedule, one the plan can switch on: what the request asked for when the plan allows it, else the
 * plan's fastest, with a note in the draft's language saying so. No schedule asked for: the plan's fastest.
 */
export function scheduleForPlan(
  asked: RuleSchedule | null,
  plan: DraftPlan,
  language: 'en' | 'th',
): { schedule: RuleSchedule; note: string | null } {
  if (!asked) return { schedule: fastestSchedule(plan), note: null };
  if (!('everyMinutes' in asked) || asked.everyMinutes >= plan.fastestCheckMinutes)
    return { schedule: asked, note: null };
  const schedule = fastestSchedule(plan);
  const note =
    language === 'th'
      ? `แผนของคุณตรวจกฎได้ถี่สุดทุก ${plan.fastestCheckMinutes} นาที จึงตั้งให้ตรวจ${scheduleWords(schedule, 'th')}แทน${scheduleWords(asked, 'th')} อัพเกรดแผนได้ที่หน้าแผนการใช้งาน`
      : `Your plan checks rules at most every ${plan.fastestCheckMinutes} minutes, so the rule is checked ${scheduleWords(schedule, 'en')} instead of ${scheduleWords(asked, 'en')}. Upgrade your plan on the Subscription page to check more often.`;
  return { schedule, note };
}
