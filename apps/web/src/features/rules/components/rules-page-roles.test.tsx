import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseWorkspace } from '../../../lib/current-workspace.ts';
import { setLanguageChoice } from '../../../lib/i18n.ts';
import { buildRule, fakeApi, ok } from '../test/fake-api.ts';
import { renderRulesRoute } from '../test/render-page.tsx';
import { RulesPage } from './rules-page.tsx';

const TEAM = '00000000-0000-4000-8000-00000000000b';

/** The rules of a team workspace the user holds `role` in. */
function openRulesAs(role: 'viewer' | 'editor') {
  chooseWorkspace(TEAM);
  setLanguageChoice('en');
  fakeApi({
    'GET /rules': ok([buildRule({ name: 'Stop loss', isActive: true })]),
    'GET /workspaces': ok([{ id: TEAM, name: 'Acme Agency', role, personal: false }]),
  });
  renderRulesRoute('/rules', '/rules', <RulesPage />);
}

describe('RulesPage by role', () => {
  it('shows a viewer the rules without a single button that changes them, and says why', async () => {
    openRulesAs('viewer');
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Viewers can look but not change anything in this workspace.',
    );
    expect(screen.queryByRole('link', { name: 'Create New Rule' })).not.toBeInTheDocument();
    expect(card.querySelectorAll('button')).toHaveLength(0);
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Run now|Delete|Deactivate|Activate/ })).not.toBeInTheDocument();
  });

  it('gives an editor every rule action', async () => {
    openRulesAs('editor');
    const card = await screen.findByRole('article', { name: 'Stop loss' });
    expect(await screen.findByRole('button', { name: 'Deactivate rule Stop loss' })).toBeInTheDocument();
    expect(card.querySelectorAll('button').length).toBeGreaterThan(0);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
