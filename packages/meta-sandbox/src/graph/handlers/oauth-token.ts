import { LONG_TOKEN_SECONDS, SHORT_TOKEN_SECONDS } from '../../auth/tokens.ts';
import { GraphError, invalidParameter } from '../graph-error.ts';
import type { Auth, GraphCall, GraphRuntime } from '../runtime.ts';

export const SANDBOX_APP_NAME = 'AdPilot Sandbox';

function requireParam(call: GraphCall, name: string): string {
  const value = call.params[name];
  if (!value) throw invalidParameter(`Missing ${name} parameter.`);
  return value;
}

function checkClient(rt: GraphRuntime, call: GraphCall): void {
  if (requireParam(call, 'client_id') !== rt.settings.appId) {
    throw new GraphError({ message: 'Error validating application. Invalid application ID.', code: 101 });
  }
  if (requireParam(call, 'client_secret') !== rt.settings.appSecret) {
    throw invalidParameter('Error validating client secret.');
  }
}

/** `GET /oauth/access_token`: code exchange, long-lived exchange (fb_exchange_token) and app tokens. */
export function handleAccessToken(rt: GraphRuntime, call: GraphCall): unknown {
  checkClient(rt, call);
  const now = rt.now();
  const grantType = call.params.grant_type;
  if (grantType === 'client_credentials') return { access_token: rt.tokens.appToken(), token_type: 'bearer' };
  if (grantType === 'fb_exchange_token') {
    const claims = rt.tokens.readUser(requireParam(call, 'fb_exchange_token'));
    if (!claims || claims.exp * 1000 <= now) {
      throw new GraphError({ message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
    }
    return {
      access_token: rt.tokens.issueUser(claims.sub, claims.scopes, now, LONG_TOKEN_SECONDS, claims.world),
      token_type: 'bearer',
      expires_in: LONG_TOKEN_SECONDS,
    };
  }
  if (grantType !== undefined) throw invalidParameter(`Unsupported grant_type ${grantType}`);
  const grant = rt.codes.redeem(requireParam(call, 'code'), requireParam(call, 'redirect_uri'), now);
  if (grant instanceof GraphError) throw grant;
  return {
    access_token: rt.tokens.issueUser(grant.personaId, grant.scopes, now, SHORT_TOKEN_SECONDS, grant.world),
    token_type: 'bearer',
    expires_in: SHORT_TOKEN_SECONDS,
  };
}

/** `GET /debug_token?input_token=…`: what a token is, whose it is and whether it still works. */
export function handleDebugToken(rt: GraphRuntime, call: GraphCall, auth: Auth): unknown {
  if (auth.kind === 'none') throw new GraphError({ message: 'An access token is required.', code: 104 });
  const input = requireParam(call, 'input_token');
  const base = { app_id: rt.settings.appId, application: SANDBOX_APP_NAME };
  if (rt.tokens.isAppToken(input)) return { data: { ...base, type: 'APP', is_valid: true, scopes: [] } };
  const claims = rt.tokens.readUser(input);
  // The input token's own world answers, whatever the world of the token asking.
  const persona = claims ? rt.forToken(input).world.persona(claims.sub) : undefined;
  if (!claims || !persona) {
    return { data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] } };
  }
  const now = rt.now();
  const expired = claims.exp * 1000 <= now || rt.faults.isTokenExpired(input);
  return {
    data: {
      ...base,
      type: 'USER',
      data_access_expires_at: claims.iat + 90 * 86_400,
      expires_at: claims.exp,
      is_valid: !expired,
      issued_at: claims.iat,
      scopes: claims.scopes,
      granular_scopes: claims.scopes
        .filter((scope) => scope.startsWith('ads_') || scope === 'business_management')
        .map((scope) => ({
          scope,
          target_ids: scope === 'business_management' ? [persona.businessId] : persona.accountIds,
        })),
      user_id: claims.sub,
      ...(expired ? { error: { code: 190, subcode: 463, message: 'Session has expired' } } : {}),
    },
  };
}
