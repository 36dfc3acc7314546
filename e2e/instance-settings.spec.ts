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

/** An OpenAI-compatible server on loopback: the model list for the right key, OpenAI's 401 body otherwise. */
async function startFakeOpenAi() {
  const seen: { path: string; authorization?: string }[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization });
    response.setHeader('content-type', 'application/json');
    if (request.headers.authorization !== `Bearer ${KEY}`) {
      response.statusCode = 401;
      return response.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
    }
    response.end(
      JSON.stringify({ object: 'list', data: [{ id: 'e2e-model', object: 'model', created: 0, owned_by: 'e2e' }] }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, close: () => server.close() };
}

test('the admin saves an OpenAI-compatible endpoint and its connection test goes through the saved endpoint', async ({
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
  } finally {
    // The suite shares one server: put the built-in advisor back for the other tests.
    await request.put('/api/settings', {
      headers: auth,
      data: { aiProvider: 'builtin', openaiApiKey: null, openaiBaseUrl: '', openaiModel: '' },
    });
    fake.close();
  }
});
