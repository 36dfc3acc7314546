import type { ConnectionCode, ConnectionService, ConnectionStatus } from '@adpilot/contracts';
import type { CheckOutcome } from './connection-checks.ts';

const SERVICE_NAMES: Record<ConnectionService, string> = {
  openai: 'OpenAI',
  stripe: 'Stripe',
  facebook: 'Facebook',
  database: 'Database',
  smtp: 'SMTP',
};

const CODE_TEXT: Record<ConnectionCode, string> = {
  ok: 'connected',
  not_configured: 'not configured',
  unreachable: 'cannot be reached',
  timeout: 'did not answer in time',
  auth_rejected: 'refused the credentials',
  model_not_found: 'does not offer the model',
  bad_response: 'answered something unexpected',
  upstream_error: 'answered with an error',
};

export const statusOf = (code: ConnectionCode): ConnectionStatus =>
  code === 'ok' ? 'connected' : code === 'not_configured' ? 'not_configured' : 'disconnected';

/** The English sentence of a result, for API readers (the web renders the code and detail in its own words). */
export function describeOutcome(service: ConnectionService, outcome: CheckOutcome): string {
  const sentence = `${SERVICE_NAMES[service]} ${CODE_TEXT[outcome.code]}`;
  return outcome.detail ? `${sentence}: ${outcome.detail}` : sentence;
}
