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
}

/**
 * Where the AI settings come from: read on every request, so a change applies without a restart. In the app it is
 * the settings seam (environment, then Settings, then defaults; ADR 0044).
 */
export type AiSettingsSource = () => AiSettings | Promise<AiSettings>;

/** The settings seam's AI endpoint, with the call timeout from the boot configuration. */
export function aiSettingsFrom(settings: SettingsReader, timeoutMs: number): AiSettingsSource {
  return () => ({ ...settings.current().ai, timeoutMs });
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
      const key = JSON.stringify([settings.apiKey, settings.baseUrl, settings.model, settings.timeoutMs]);
      if (cached?.key !== key) cached = { key, provider: new OpenAiProvider(settings) };
      return cached.provider;
    },
  };
}
