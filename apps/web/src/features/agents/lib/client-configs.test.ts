import { describe, expect, it } from 'vitest';
import { clientSnippet, MCP_CLIENTS, mcpEndpoint } from './client-configs.ts';

const endpoint = mcpEndpoint('https://ads.example.com/');
const token = 'adp_secret';

describe('client snippets', () => {
  it('names the endpoint without a doubled slash', () => {
    expect(endpoint).toBe('https://ads.example.com/mcp');
  });

  it('gives every client the endpoint, and every file a JSON it can parse with the token in it', () => {
    for (const client of MCP_CLIENTS) {
      const snippet = clientSnippet(client, endpoint, token);
      expect(snippet.text, client).toContain(endpoint);
      if (snippet.kind === 'json') {
        const parsed = JSON.parse(snippet.text) as { mcpServers: Record<string, unknown> };
        expect(Object.keys(parsed.mcpServers)).toEqual(['adpilot']);
        expect(snippet.text).toContain(`Bearer ${token}`);
      }
    }
  });

  it('sends the token as a bearer header, in the form each client expects', () => {
    expect(clientSnippet('cursor', endpoint, token).text).toContain('"Authorization": "Bearer adp_secret"');
    expect(clientSnippet('claudeCode', endpoint, token).text).toBe(
      'claude mcp add --transport http adpilot https://ads.example.com/mcp --header "Authorization: Bearer adp_secret"',
    );
    // The URL-only client signs in with OAuth: no token goes into it.
    expect(clientSnippet('chatgpt', endpoint, token)).toEqual({ kind: 'url', text: endpoint });
  });
});
