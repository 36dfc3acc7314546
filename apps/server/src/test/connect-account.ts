import type { FastifyInstance } from 'fastify';
import { answerConsent } from './meta-sandbox.ts';

/** Connects the sandbox's ad accounts for a signed-in user through the real flow; returns their ids. */
export async function connectSandboxAccounts(app: FastifyInstance, auth: Record<string, string>): Promise<string[]> {
  const start = await app.inject({ method: 'GET', url: '/api/ad-accounts/facebook/auth-url', headers: auth });
  const back = await answerConsent(start.json().data.authUrl);
  const response = await app.inject({
    method: 'POST',
    url: '/api/ad-accounts/facebook/callback',
    headers: auth,
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  if (response.statusCode !== 200) throw new Error(`connect failed: ${response.body}`);
  return response.json().data.connectedAccounts.map((account: { id: string }) => account.id);
}
