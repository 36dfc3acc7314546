import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import { EntityLine, entityOfMetadata } from './entity-line.tsx';

function show(entity: Parameters<typeof EntityLine>[0]['entity']) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <EntityLine entity={entity} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('EntityLine', () => {
  it('links an entity to its page in Campaigns with its parents, so two of one name read apart', () => {
    show({
      name: 'Broad 18-65+',
      entityId: '00000000-0000-4000-8000-000000000011',
      parents: { campaign: { id: '00000000-0000-4000-8000-000000000010', name: 'Summer sale' } },
    });
    const link = screen.getByRole('link', { name: 'Open Summer sale › Broad 18-65+ in Campaigns' });
    expect(link).toHaveAttribute('href', '/campaigns/00000000-0000-4000-8000-000000000011');
  });

  it('says nothing when the answer names neither our id nor the parents', () => {
    const { container } = show({ name: 'Broad 18-65+', externalId: '120001', adAccountId: 'a', level: 'adset' });
    expect(container).toBeEmptyDOMElement();
  });

  it('reads the entity an activity entry names from its metadata', () => {
    expect(entityOfMetadata({ target: { name: 'Ad A', entityId: 'x' } })).toEqual({ name: 'Ad A', entityId: 'x' });
    expect(entityOfMetadata({ entity: { name: 'Ad B' } })).toEqual({ name: 'Ad B' });
    expect(entityOfMetadata({ target: 'Ad C' })).toBeNull();
    expect(entityOfMetadata({})).toBeNull();
  });
});
