/**
 * What each AI client needs to reach AdPilot's MCP endpoint with an API token (docs/mcp.md says the same): the JSON
 * of its configuration file, or its command. Clients that sign in with OAuth (a connector added by its URL) need only
 * the URL. Pure, so a test holds every snippet to valid JSON naming the endpoint and the token.
 */
export const MCP_CLIENTS = ['claudeDesktop', 'claudeCode', 'cursor', 'chatgpt'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export interface ClientSnippet {
  /** `json`: a file's content; `shell`: a command; `url`: only the endpoint, added in the client's settings. */
  kind: 'json' | 'shell' | 'url';
  text: string;
}

/** The MCP endpoint of the AdPilot this page is served from. */
export function mcpEndpoint(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/mcp`;
}

export function clientSnippet(client: McpClient, endpoint: string, token: string): ClientSnippet {
  const json = (value: unknown): ClientSnippet => ({ kind: 'json', text: JSON.stringify(value, null, 2) });
  switch (client) {
    case 'claudeDesktop':
      // Its configuration file starts local servers: a bridge carries the token to the remote endpoint.
      return json({
        mcpServers: {
          adpilot: {
            command: 'npx',
            args: ['-y', 'mcp-remote', endpoint, '--header', 'Authorization:${ADPILOT_TOKEN}'],
            env: { ADPILOT_TOKEN: `Bearer ${token}` },
          },
        },
      });
    case 'claudeCode':
      return {
        kind: 'shell',
        text: `claude mcp add --transport http adpilot ${endpoint} --header "Authorization: Bearer ${token}"`,
      };
    case 'cursor':
      return json({ mcpServers: { adpilot: { url: endpoint, headers: { Authorization: `Bearer ${token}` } } } });
    case 'chatgpt':
      return { kind: 'url', text: endpoint };
  }
}
