import type { SettingsReader } from '../../config/runtime-settings.ts';
import type { AiProvider } from './ai-provider.ts';
import { AdvisorProvider } from './advisor/advisor-provider.ts';
import { OpenAiProvider } from './openai-provider.ts';

/** What the AI provider factory needs. */
export interface AiSettings {
  provider: 'builtin' | 'openai';
  apiKey?: string;
  /** An OpenAI-compatible server's `/v1` address (Ollama, vLLM, LM Studio …); OpenAI's when absent. */
  baseUrl?: string;
  model: string;
  timeoutMs: number;
  /**
   * How the server is reached: a fetch that checks and pins its address at every call when the address was saved in
   * Settings (ADR 0097); the SDK's own fetch for the environment's, which is the operator's.
   */
  fetch?: typeof fetch;
}

/**
 * Where the AI settings come from: read on every request, so a change applies without a restart. In the app it is
 * the settings seam (environment, then Settings, then defaults; ADR 0044).
 */
export type AiSettingsSource = () => AiSettings | Promise<AiSettings>;

/** The settings seam's AI endpoint, with the call timeout from the boot configuration and the fetch it is called by. */
export function aiSettingsFrom(
  settings: SettingsReader,
  timeoutMs: number,
  fetchFor: () => typeof fetch | undefined = () => undefined,
): AiSettingsSource {
  return () => {
    const guarded = fetchFor();
    return { ...settings.current().ai, timeoutMs, ...(guarded ? { fetch: guarded } : {}) };
  };
}

/** Resolves the provider for the current settings, building a client only when the settings changed. */
export interface AiProviderResolver {
  current(): Promise<AiProvider>;
}

export function createAiProviderResolver(source: AiSettingsSource): AiProviderResolver {
  const advisor = new AdvisorProvider();
  let cached: { key: string; provider: AiProvider } | null = null;
  return {
    async current() {
      const settings = await source();
      if (settings.provider === 'builtin') return advisor;
      const key = JSON.stringify([
        settings.apiKey,
        settings.baseUrl,
        settings.model,
        settings.timeoutMs,
        Boolean(settings.fetch),
      ]);
      if (cached?.key !== key) cached = { key, provider: new OpenAiProvider(settings) };
      return cached.provider;
    },
  };
}
