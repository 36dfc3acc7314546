export const PAGE_TITLE = 'AdPilot Sandbox — Facebook Login';

const PERMISSION_TEXT: Record<string, string> = {
  ads_read: 'Read your ad accounts, campaigns and their performance',
  ads_management: 'Manage your ads: pause and resume them and change their budgets',
  business_management: 'Manage your business and the assets it owns',
  public_profile: 'Your name and profile picture',
};

export interface ConsentView {
  appId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  personas: { id: string; name: string }[];
  /** The signed `sandbox_world` hint the dialog was opened with, carried into the form. */
  worldHint?: string;
  /** Path the form posts to (the dialog URL itself). */
  actionPath: string;
  cssPath: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function page(cssPath: string, body: string, width: 'narrow' | 'wide' = 'narrow'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(PAGE_TITLE)}</title>
<link rel="stylesheet" href="${escapeHtml(cssPath)}">
</head>
<body>
<main class="card ${width}">
${body}
</main>
</body>
</html>
`;
}

/** The simulated consent screen: a plain form, no script, so it works under a strict Content-Security-Policy. */
export function renderConsentPage(view: ConsentView): string {
  const hidden = (name: string, value: string): string =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const permissions = view.scopes
    .map(
      (scope) =>
        `<li><strong>${escapeHtml(scope)}</strong> — ${escapeHtml(PERMISSION_TEXT[scope] ?? 'Requested permission')}</li>`,
    )
    .join('\n');
  const personas = view.personas
    .map(
      (persona, index) =>
        `<option value="${escapeHtml(persona.id)}"${index === 0 ? ' selected' : ''}>${escapeHtml(persona.name)}</option>`,
    )
    .join('\n');
  return page(
    view.cssPath,
    `<h1>${escapeHtml(PAGE_TITLE)}</h1>
<p class="notice">This is a simulated Facebook login. No real Facebook account is used and nothing leaves this server:
the AdPilot sandbox plays the part of Facebook with sample ad accounts.</p>
<p>The app <strong>${escapeHtml(view.appId)}</strong> would like to:</p>
<ul class="permissions">
${permissions || '<li>Know who you are (no extra permissions requested)</li>'}
</ul>
<form method="post" action="${escapeHtml(view.actionPath)}">
${hidden('client_id', view.appId)}
${hidden('redirect_uri', view.redirectUri)}
${hidden('state', view.state)}
${hidden('scope', view.scopes.join(','))}
${view.worldHint !== undefined ? `${hidden('sandbox_world', view.worldHint)}\n` : ''}<label for="persona">Continue as sandbox user</label>
<select id="persona" name="persona">
${personas}
</select>
<div class="actions">
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>`,
  );
}

export function renderDialogError(message: string, cssPath: string): string {
  return page(cssPath, `<h1>${escapeHtml(PAGE_TITLE)}</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}

// The Allow button's blue is a shade darker than the heading's: white 16 px text on it needs 4.5:1 (WCAG AA), which
// the brand blue (4.2:1) misses and #166fe5 (4.7:1) meets.
export const CONSENT_CSS = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
background:#f0f2f5;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Thai",sans-serif;color:#1c1e21}
.card{background:#fff;max-width:30rem;width:100%;margin:1rem;padding:1.5rem 2rem;border-radius:8px;
box-shadow:0 2px 12px rgba(0,0,0,.12)}
h1{font-size:1.25rem;color:#1877f2;margin-top:0}
.notice{background:#fff8e1;border:1px solid #f5d77a;border-radius:6px;padding:.75rem;font-size:.9rem}
.permissions li{margin:.4rem 0}
label{display:block;font-weight:600;margin-top:1rem}
select,input{width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;font-size:1rem}
a.secondary{display:inline-block;font-size:1rem;padding:.55rem 1.4rem;border-radius:6px;text-decoration:none}
.actions{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.5rem}
button{font-size:1rem;padding:.55rem 1.4rem;border-radius:6px;border:0;cursor:pointer}
.primary{background:#166fe5;color:#fff}
.secondary{background:#e4e6eb;color:#1c1e21}
.error{color:#b00020}
.card.wide{max-width:60rem}
table{width:100%;border-collapse:collapse;font-size:.9rem}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e4e6eb}
tr.depth-1 td:first-child{padding-left:1.5rem}
tr.depth-2 td:first-child{padding-left:3rem;color:#444}
`;
