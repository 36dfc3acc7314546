import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalSize } from './modal.tsx';

function Harness({ size, onClose }: { size?: ModalSize; onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal
        open={open}
        size={size}
        title="Edit account"
        onClose={() => {
          onClose?.();
          setOpen(false);
        }}
        footer={<button type="button">Save</button>}
      >
        <input aria-label="Name" />
        <a href="#details">Details</a>
      </Modal>
    </>
  );
}

async function openHarness(props: Parameters<typeof Harness>[0] = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return user;
}

describe('Modal', () => {
  it('renders nothing while closed', () => {
    render(<Harness />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is an accessible dialog named by its title, rendered in a portal', async () => {
    await openHarness();
    const dialog = screen.getByRole('dialog', { name: 'Edit account' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog.parentElement?.parentElement).toBe(document.body);
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    const user = await openHarness({ onClose });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on an overlay click but not on a click inside the panel', async () => {
    const onClose = vi.fn();
    const user = await openHarness({ onClose });
    await user.click(screen.getByRole('dialog'));
    await user.click(screen.getByLabelText('Name'));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('modal-overlay'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with the close button', async () => {
    const onClose = vi.fn();
    const user = await openHarness({ onClose });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('locks page scrolling while open and restores it afterwards', async () => {
    document.body.style.overflow = 'scroll';
    const user = await openHarness();
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(document.body.style.overflow).toBe('scroll');
    document.body.style.overflow = '';
  });

  it('focuses inside on open, cycles Tab and Shift+Tab inside, and gives focus back to the opener', async () => {
    const user = await openHarness();
    const name = screen.getByLabelText('Name');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(name).toHaveFocus();

    await user.tab();
    expect(screen.getByRole('link', { name: 'Details' })).toHaveFocus();
    await user.tab();
    expect(save).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(name).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });

  it('focuses the element given as initialFocusRef', async () => {
    function WithInitialFocus() {
      const saveRef = useRef<HTMLButtonElement>(null);
      return (
        <Modal open title="Pick" onClose={() => {}} initialFocusRef={saveRef}>
          <input aria-label="Name" />
          <button ref={saveRef} type="button">
            Save
          </button>
        </Modal>
      );
    }
    render(<WithInitialFocus />);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
  });

  it.each<[ModalSize, string]>([
    ['sm', 'max-w-sm'],
    ['md', 'max-w-lg'],
    ['lg', 'max-w-2xl'],
    ['xl', 'max-w-4xl'],
    ['full', 'max-w-none'],
  ])('applies the %s size', async (size, widthClass) => {
    await openHarness({ size });
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('data-size', size);
    expect(dialog).toHaveClass(widthClass);
  });

  it('only the innermost of two open modals answers Escape, and the page stays locked until both close', async () => {
    const user = userEvent.setup();
    function Nested() {
      const [outer, setOuter] = useState(true);
      const [inner, setInner] = useState(false);
      return (
        <Modal open={outer} title="Outer" onClose={() => setOuter(false)}>
          <button type="button" onClick={() => setInner(true)}>
            Open inner
          </button>
          <Modal open={inner} title="Inner" onClose={() => setInner(false)}>
            <p>inner body</p>
          </Modal>
        </Modal>
      );
    }
    render(<Nested />);
    await user.click(screen.getByRole('button', { name: 'Open inner' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');
  });
});
