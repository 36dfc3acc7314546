import { clsx } from 'clsx';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl' | 'full';

const SIZE_CLASSES: Record<ModalSize, string> = {
  sm: 'max-w-sm rounded-xl',
  md: 'max-w-lg rounded-xl',
  lg: 'max-w-2xl rounded-xl',
  xl: 'max-w-4xl rounded-xl',
  full: 'h-full max-w-none',
};

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.hasAttribute('inert') && element.getAttribute('aria-hidden') !== 'true',
  );
}

/*
 * Open modals, innermost last. Only the innermost one answers Escape and traps Tab, so a confirm dialog
 * opened from inside another modal closes alone. The scroll lock is taken by the first modal and released
 * by the last, so closing the inner one does not unlock the page under the outer one.
 */
const openStack: symbol[] = [];
let savedBodyStyle: { overflow: string; paddingRight: string } | null = null;

function lockScroll(): void {
  if (savedBodyStyle) return;
  const { body, documentElement } = document;
  savedBodyStyle = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
  // Hiding the scrollbar would widen the page and make the content jump sideways; pad it back.
  const scrollbarWidth = window.innerWidth - documentElement.clientWidth;
  if (scrollbarWidth > 0) body.style.paddingRight = `${scrollbarWidth}px`;
  body.style.overflow = 'hidden';
}

function unlockScroll(): void {
  if (!savedBodyStyle) return;
  document.body.style.overflow = savedBodyStyle.overflow;
  document.body.style.paddingRight = savedBodyStyle.paddingRight;
  savedBodyStyle = null;
}

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons shown at the bottom, right-aligned. */
  footer?: ReactNode;
  size?: ModalSize;
  /** Element to focus when the modal opens; by default the first focusable element of the body, else of the footer. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Accessible name of the close button; callers pass a translated one. */
  closeLabel?: string;
  className?: string;
}

export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  size = 'md',
  initialFocusRef,
  closeLabel = 'Close',
  className,
}: ModalProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const footerRef = useRef<HTMLDivElement>(null);
  // An overlay click only counts when the press also started on the overlay: selecting text inside the
  // panel and releasing the mouse outside it must not close the modal.
  const pressStartedOnOverlay = useRef(false);
  // The latest onClose without re-running the open/close effect (callers often pass inline functions).
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    if (!panel) return;
    const id = Symbol('modal');
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openStack.push(id);
    lockScroll();

    const firstIn = (element: HTMLElement | null) => (element ? focusableIn(element)[0] : undefined);
    const initial =
      initialFocusRef?.current ?? firstIn(bodyRef.current) ?? firstIn(footerRef.current) ?? firstIn(panel) ?? panel;
    initial.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (openStack.at(-1) !== id) return;
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = focusableIn(panel);
      const first = focusable[0];
      const last = focusable.at(-1);
      if (!first || !last) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const active = document.activeElement;
      const outside = !(active instanceof Node) || !panel.contains(active);
      if (event.shiftKey && (outside || active === first || active === panel)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (outside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openStack.splice(openStack.indexOf(id), 1);
      if (openStack.length === 0) unlockScroll();
      if (opener?.isConnected) opener.focus();
    };
  }, [open, initialFocusRef]);

  if (!open) return null;

  return createPortal(
    <div
      data-testid="modal-overlay"
      className={clsx(
        'fixed inset-0 z-50 flex items-center justify-center bg-gray-900/60 backdrop-blur-[1px]',
        size === 'full' ? 'p-0' : 'p-4',
      )}
      onMouseDown={(event) => {
        pressStartedOnOverlay.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressStartedOnOverlay.current && event.target === event.currentTarget) onClose();
        pressStartedOnOverlay.current = false;
      }}
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-size={size}
        className={clsx(
          'flex max-h-full w-full flex-col bg-white text-gray-900 shadow-xl outline-none',
          'dark:bg-gray-800 dark:text-gray-100 dark:ring-1 dark:ring-gray-700',
          SIZE_CLASSES[size],
          className,
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-6 py-4 dark:border-gray-700">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <button
            type="button"
            aria-label={closeLabel}
            onClick={onClose}
            className={clsx(
              '-m-1 rounded-md p-1 text-gray-500 hover:bg-gray-100 hover:text-gray-700',
              'focus-visible:outline-2 focus-visible:outline-blue-500',
              'dark:text-gray-400 dark:hover:bg-gray-700 dark:hover:text-gray-200',
            )}
          >
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
        <div ref={bodyRef} className="flex-1 overflow-y-auto px-6 py-4">
          {children}
        </div>
        {footer && (
          <div
            ref={footerRef}
            className="flex flex-wrap justify-end gap-3 border-t border-gray-200 px-6 py-4 dark:border-gray-700"
          >
            {footer}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
