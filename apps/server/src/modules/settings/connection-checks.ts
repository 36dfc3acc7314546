import type { ConnectionCode, ConnectionService } from '@adpilot/contracts';
import type { ProviderSettings } from '../../config/runtime-settings.ts';
import { AddressRefusedError } from '../../lib/pinned-fetch.ts';

/** A check's verdict before timing and wording: `ok`, or why not, with what the service itself said. */
export interface CheckOutcome {
  code: ConnectionCode;
  detail?: string;
}

export interface ConnectionCheckDeps {
  fetch: typeof fetch;
  stripeApiUrl: string;
  /** Asks the Meta app in use (the sandbox's on the embedded default) for its app token, once. */
  verifyMetaApp: (timeoutMs: number) => Promise<void>;
  /** `SELECT 1` on the database. */
  selectOne: () => Promise<void>;
  /**
   * How the AI server is called: for a base URL saved in Settings, a fetch that resolves, checks and pins its address
   * by the webhook address policy (ADR 0097), throwing AddressRefusedError for a private or local one; the
   * environment's address is the operator's and is called by `fetch`.
   */
  aiFetch: typeof fetch;
  /** SMTP: connect, greet and authenticate (nodemailer's verify()), for the given settings. */
  verifySmtp: (mail: ProviderSettings['mail']) => Promise<void>;
}

export const CHECK_TIMEOUT_MS = 8_000;
const MAX_DETAIL = 300;

const ok = (detail?: string): CheckOutcome => ({ code: 'ok', ...(detail ? { detail } : {}) });
const fail = (code: ConnectionCode, detail?: string): CheckOutcome => ({
  code,
  ...(detail ? { detail: detail.slice(0, MAX_DETAIL) } : {}),
});

/** The `error.message` of an OpenAI- or Stripe-style error body, when there is one. */
async function upstreamMessage(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the status line says enough.
  }
  return undefined;
}

async function refusal(response: Response): Promise<CheckOutcome> {
  const message = (await upstreamMessage(response)) ?? `HTTP ${response.status}`;
  return fail(response.status === 401 || response.status === 403 ? 'auth_rejected' : 'upstream_error', message);
}

/** Network failures and timeouts, in the words of the code that names them. */
export function outcomeOfError(error: unknown): CheckOutcome {
  if (error instanceof AddressRefusedError)
    return fail('unreachable', 'the address is on a private or local network, which AdPilot does not call');
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'ETIMEDOUT')
    return fail('timeout', `no answer within ${CHECK_TIMEOUT_MS / 1000} s`);
  const code = err?.cause?.code ?? err?.code;
  if (code && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ESOCKET|ECONNECTION)$/.test(code))
    return fail('unreachable', err?.cause?.message ?? err?.message ?? code);
  if (code === 'EAUTH') return fail('auth_rejected', err?.message);
  // fetch's own network failure ("fetch failed"), whose cause says why.
  if (err?.name === 'TypeError' && err.cause) return fail('unreachable', err.cause.message ?? err.message);
  return fail('upstream_error', err?.message ?? String(error));
}

/** The OpenAI-compatible endpoint's model list, and the configured model on it. */
async function checkOpenAi(settings: ProviderSettings['ai'], deps: ConnectionCheckDeps): Promise<CheckOutcome> {
  if (settings.provider !== 'openai' || !settings.apiKey) return fail('not_configured');
  const response = await deps.aiFetch(`${settings.baseUrl}/models`, {
    headers: { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  });
  // The status only: the body is the words of a server an administrator named, not ours to repeat (ADR 0097).
  if (!response.ok) {
    await response.body?.cancel();
    return fail(
      response.status === 401 || response.status === 403 ? 'auth_rejected' : 'upstream_error',
      `HTTP ${response.status}`,
    );
  }
  const body = (await response.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
  if (!body || !Array.isArray(body.data)) return fail('bad_response', 'the answer is not a model list');
  const ids = body.data.map((model) => model.id).filter((id): id is string => typeof id === 'string');
  if (!ids.includes(settings.model)) return fail('model_not_found', settings.model);
  return ok(`${ids.length} models, ${settings.model} among them`);
}

/** Stripe's balance: the lightest call that proves the secret key. */
async function checkStripe(settings: ProviderSettings['stripe'], deps: ConnectionCheckDeps): Promise<CheckOutcome> {
  if (!settings.secretKey) return fail('not_configured');
  const response = await deps.fetch(`${deps.stripeApiUrl}/v1/balance`, {
    headers: { authorization: `Bearer ${settings.secretKey}`, accept: 'application/json' },
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  });
  if (!response.ok) return refusal(response);
  const body = (await response.json().catch(() => null)) as { object?: unknown; livemode?: unknown } | null;
  if (body?.object !== 'balance') return fail('bad_response', 'the answer is not a balance');
  return ok(body.livemode === true ? 'live mode' : 'test mode');
}

/** Meta's app access token (client_credentials): proves the app id and secret. */
async function checkMeta(settings: ProviderSettings['meta'], deps: ConnectionCheckDeps): Promise<CheckOutcome> {
  try {
    await deps.verifyMetaApp(CHECK_TIMEOUT_MS);
    return ok(settings.mode === 'live' ? `app ${settings.appId ?? ''}` : 'built-in sandbox');
  } catch (error) {
    const err = error as { name?: string; message?: string; code?: number };
    // The Graph error of a wrong id or secret (code 101, or 100 "Error validating client secret").
    if (err?.name?.startsWith('Meta') && typeof err.message === 'string')
      return fail(/validat|invalid/i.test(err.message) ? 'auth_rejected' : 'upstream_error', err.message);
    return outcomeOfError(error);
  }
}

async function checkSmtp(settings: ProviderSettings['mail'], deps: ConnectionCheckDeps): Promise<CheckOutcome> {
  if (settings.mode !== 'smtp') return fail('not_configured', 'mail is kept in the outbox');
  await deps.verifySmtp(settings);
  return ok(`${settings.host ?? ''}:${settings.port}`);
}

/** One real check of one service against the settings in use now. */
export async function checkConnection(
  service: ConnectionService,
  settings: ProviderSettings,
  deps: ConnectionCheckDeps,
): Promise<CheckOutcome> {
  try {
    switch (service) {
      case 'openai':
        return await checkOpenAi(settings.ai, deps);
      case 'stripe':
        return await checkStripe(settings.stripe, deps);
      case 'facebook':
        return await checkMeta(settings.meta, deps);
      case 'database':
        await deps.selectOne();
        return ok();
      case 'smtp':
        return await checkSmtp(settings.mail, deps);
    }
  } catch (error) {
    return outcomeOfError(error);
  }
}
