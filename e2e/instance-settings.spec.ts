import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signInAdmin } from './session.ts';

/*
 * Instance-wide settings change what every user of the shared e2e server gets (the AI provider, say): these tests run
 * in their own project, after every other spec has finished (playwright.config.ts), and put the defaults back.
 */

const KEY = 'sk-e2e-fake-key-123456';
const ANSWER = 'From the saved endpoint: shift budget to the ad sets with ROAS above 4.';

/**
 * An OpenAI-compatible server on loopback: with the right key, the model list and chat completions whose assistant
 * message is the structured reply the assistant asks for (`{"response": …}`); OpenAI's 401 body otherwise.
 */
async function startFakeOpenAi() {
  const seen: { path: string; authorization?: string; model?: string }[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const body = raw ? (JSON.parse(raw) as { model?: string; stream?: boolean }) : {};
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, model: body.model });
      response.setHeader('content-type', 'application/json');
      if (request.headers.authorization !== `Bearer ${KEY}`) {
        response.statusCode = 401;
        return response.end(
          JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
        );
      }
      if (request.method === 'POST' && request.url === '/v1/chat/completions' && body.stream) {
        // The assistant streams (ADR 0143): server-sent chunks of the answer's text, a last one with the finish
        // reason, then [DONE], as OpenAI's streaming Chat Completions send them.
        response.setHeader('content-type', 'text/event-stream');
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({
            id: 'chatcmpl-e2e',
            object: 'chat.completion.chunk',
            created: Math.floor(Date.now() / 1000),
            model: 'e2e-model',
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
          })}\n\n`;
        response.write(chunk({ role: 'assistant', content: ANSWER }, null));
        response.write(chunk({}, 'stop'));
        return response.end('data: [DONE]\n\n');
      }
      if (request.method === 'POST' && request.url === '/v1/chat/completions') {
        return response.end(
          JSON.stringify({
            id: 'chatcmpl-e2e',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: 'e2e-model',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: JSON.stringify({ response: ANSWER }), refusal: null },
                logprobs: null,
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          }),
        );
      }
      response.end(
        JSON.stringify({ object: 'list', data: [{ id: 'e2e-model', object: 'model', created: 0, owned_by: 'e2e' }] }),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, close: () => server.close() };
}

test('the admin saves an OpenAI-compatible endpoint; its test and the AI assistant then go through it', async ({
  page,
  request,
}) => {
  const fake = await startFakeOpenAi();
  const auth = await signInAdmin(page, request);
  try {
    await page.goto('/settings');
    await page.getByLabel('AI provider').selectOption('openai');
    await page.getByLabel('OpenAI API Key').fill(KEY);
    await page.getByLabel('API base URL').fill(fake.url);
    await page.getByLabel('Model').fill('e2e-model');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('บันทึกการตั้งค่าเสร็จสิ้น')).toBeVisible();
    // The saved key comes back masked, never in plain text.
    await expect(page.getByLabel('OpenAI API Key')).not.toHaveValue(KEY);

    await page.getByRole('button', { name: 'Test OpenAI' }).click();
    await expect(page.getByText('OpenAI เชื่อมต่อสำเร็จ')).toBeVisible();
    expect(fake.seen.some((call) => call.path === '/v1/models' && call.authorization === `Bearer ${KEY}`)).toBe(true);

    // No restart: the AI assistant answers through the endpoint just saved.
    await page.goto('/ai-studio');
    await page.getByLabel('Your question').fill('Where should my budget go?');
    await page.getByRole('button', { name: 'Get AI Advice' }).click();
    await expect(page.getByTestId('ai-response')).toContainText(ANSWER);
    expect(
      fake.seen.some(
        (call) =>
          call.path === '/v1/chat/completions' && call.authorization === `Bearer ${KEY}` && call.model === 'e2e-model',
      ),
    ).toBe(true);
  } finally {
    // The suite shares one server: put the built-in advisor back for the other tests.
    await request.put('/api/settings', {
      headers: auth,
      data: { aiProvider: 'builtin', openaiApiKey: null, openaiBaseUrl: '', openaiModel: '' },
    });
    fake.close();
  }
});
