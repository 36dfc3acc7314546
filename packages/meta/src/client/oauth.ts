import type { GraphRequest, GraphTransport } from './graph-transport.ts';
import { tokenResponseSchema } from './wire-types.ts';

export interface TokenResult {
  accessToken: string;
  tokenType: string;
  expiresIn?: number;
}

export interface DialogUrlInput {
  redirectUri: string;
  state: string;
  /** Permissions to ask for; with `configId` the configuration names them instead. */
  scopes?: readonly string[];
  /** Facebook Login for Business: the login configuration to use. */
  configId?: string;
  /** Ask again for permissions the user declined before (auth_type=rerequest). */
  rerequest?: boolean;
}

/** The Login dialog address: scopes, or a Login for Business configuration; `auth_type=rerequest` asks again. */
export function dialogUrl(dialogBase: string, appId: string, input: DialogUrlInput): string {
  const url = new URL(`${dialogBase}/dialog/oauth`);
  url.searchParams.set('client_id', appId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  if (input.configId) url.searchParams.set('config_id', input.configId);
  if (input.scopes && input.scopes.length > 0) url.searchParams.set('scope', input.scopes.join(','));
  if (input.rerequest) url.searchParams.set('auth_type', 'rerequest');
  url.searchParams.set('response_type', 'code');
  return url.toString();
}

/** `GET /oauth/access_token` with the app's credentials: code exchange or long-lived exchange. */
export async function requestToken(
  transport: GraphTransport,
  appId: string,
  appSecret: string,
  params: Record<string, string>,
): Promise<TokenResult> {
  const request: GraphRequest = {
    method: 'GET',
    path: 'oauth/access_token',
    params: { client_id: appId, client_secret: appSecret, ...params },
  };
  const body = transport.parse(tokenResponseSchema, await transport.call(request), request);
  return {
    accessToken: body.access_token,
    tokenType: body.token_type ?? 'bearer',
    ...(body.expires_in !== undefined ? { expiresIn: body.expires_in } : {}),
  };
}
