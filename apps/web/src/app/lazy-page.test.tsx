import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './error-boundary.tsx';
import { lazyPage } from './lazy-page.ts';

function renderMissingChunk() {
  const Page = lazyPage(() => Promise.reject(new Error('Failed to fetch dynamically imported module')), 'Page');
  render(
    <AppErrorBoundary>
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>
    </AppErrorBoundary>,
  );
}

describe('lazyPage', () => {
  afterEach(() => sessionStorage.clear());

  it('reloads the app once when a chunk of an older deploy is gone', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderMissingChunk();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(screen.getByText('Loading page')).toBeInTheDocument();
  });

  it('shows the error screen when the chunk is still missing right after a reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    sessionStorage.setItem('chunkReloadedAt', String(Date.now()));
    renderMissingChunk();
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });
});
