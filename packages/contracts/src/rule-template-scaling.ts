import { z } from 'zod';
import { formatMoney } from './format.ts';
import { MONEY_METRICS } from './rule-constants.ts';
import { ruleTemplateSchema, type RuleTemplate } from './rule-templates.ts';
import type { RuleAction, RuleConditionItem } from './rules.ts';

/**
 * Templates are written in baht (the spec's own examples, §3). Shown to a workspace whose ad account bills in
 * another currency, every absolute amount (money conditions, budget steps, ceilings, floors, the minimum spend) is
 * converted at a rounded reference rate and rounded to a figure a person would type, and the descriptions name the
 * new amounts in that currency (ADR 0132). A threshold relative to another metric (`{ metric, factor }`) is the
 * account's own figure already and is left as it is.
 */
export const TEMPLATE_CURRENCY = 'THB';

/**
 * Baht for one unit of each currency: reference rates rounded to two significant figures. They set a template's
 * order of magnitude, not a price: the amounts are rounded further and the user reviews them before saving.
 */
export const THB_PER_UNIT: Readonly<Record<string, number>> = {
  THB: 1,
  USD: 35,
  EUR: 38,
  GBP: 44,
  JPY: 0.23,
  CNY: 4.8,
  HKD: 4.5,
  TWD: 1.1,
  KRW: 0.025,
  SGD: 26,
  MYR: 7.6,
  IDR: 0.0021,
  PHP: 0.6,
  VND: 0.0013,
  INR: 0.41,
  AUD: 23,
  NZD: 21,
  CAD: 25,
  CHF: 40,
  SEK: 3.3,
  NOK: 3.2,
  DKK: 5.1,
  PLN: 8.8,
  BRL: 6.3,
  MXN: 1.9,
  AED: 9.5,
  SAR: 9.3,
  ZAR: 1.9,
};

export const templateCurrencySchema = z
  .string()
  .refine((code) => Object.hasOwn(THB_PER_UNIT, code), { message: 'Unknown currency' });

export const ruleTemplatesQuerySchema = z.strictObject({ currency: templateCurrencySchema.optional() });
export type RuleTemplatesQuery = z.infer<typeof ruleTemplatesQuerySchema>;

/** GET /api/rules/templates answers each template with the currency its amounts are in. */
export const scaledRuleTemplateSchema = ruleTemplateSchema.extend({ currency: z.string() });
export type ScaledRuleTemplate = RuleTemplate & { currency: string };

/** The figure nearest `value` among 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 and 8 times a power of ten (never 0 if positive). */
export function roundToNiceAmount(value: number): number {
  if (!(value > 0)) return value;
  const power = 10 ** Math.floor(Math.log10(value));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5, 8, 10];
  const step = steps.reduce((best, candidate) =>
    Math.abs(candidate * power - value) < Math.abs(best * power - value) ? candidate : best,
  );
  // Two decimals at most: a converted amount is money.
  return Math.round(step * power * 100) / 100;
}

function scaleConditions(items: RuleConditionItem[], scale: (value: number) => number): RuleConditionItem[] {
  return items.map((item) => {
    if ('items' in item) return { ...item, items: scaleConditions(item.items, scale) };
    if (!MONEY_METRICS.has(item.metric)) return item;
    if (typeof item.value === 'number') return { ...item, value: scale(item.value) };
    if (Array.isArray(item.value)) return { ...item, value: [scale(item.value[0]), scale(item.value[1])] };
    return item;
  });
}

function scaleAction(action: RuleAction, scale: (value: number) => number): RuleAction {
  if (action.type === 'set_budget') return { ...action, amount: scale(action.amount) };
  if (action.type !== 'increase_budget' && action.type !== 'decrease_budget') return action;
  return {
    ...action,
    ...(action.unit === 'amount' ? { by: scale(action.by) } : {}),
    ...(action.ceiling !== undefined ? { ceiling: scale(action.ceiling) } : {}),
    ...(action.floor !== undefined ? { floor: scale(action.floor) } : {}),
  };
}

const BAHT_AMOUNT = /฿(\d[\d,]*(?:\.\d+)?)/g;

/** The template's texts with each "฿500" as the same amount converted, in the reader's language and the currency. */
function scaleText(text: string, language: 'en' | 'th', currency: string, scale: (value: number) => number): string {
  return text.replace(BAHT_AMOUNT, (_match, amount: string) =>
    formatMoney(scale(Number(amount.replace(/,/g, ''))), currency, language),
  );
}

/** A template as a workspace billed in `currency` should start from it, with the currency it is written in. */
export function scaleTemplate(template: RuleTemplate, currency: string): ScaledRuleTemplate {
  const rate = THB_PER_UNIT[currency];
  if (currency === TEMPLATE_CURRENCY || rate === undefined) return { ...template, currency: TEMPLATE_CURRENCY };
  const scale = (value: number) => roundToNiceAmount(value / rate);
  const description = {
    en: scaleText(template.description.en, 'en', currency, scale),
    th: scaleText(template.description.th, 'th', currency, scale),
  };
  const { rule } = template;
  return {
    ...template,
    currency,
    description,
    rule: {
      ...rule,
      description: scaleText(rule.description ?? '', 'en', currency, scale),
      conditions: { ...rule.conditions, items: scaleConditions(rule.conditions.items, scale) },
      actions: rule.actions.map((action) => scaleAction(action, scale)),
      safeguards: { ...rule.safeguards, minSpend: scale(rule.safeguards.minSpend) },
    },
  };
}
