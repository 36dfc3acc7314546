import { useEffect, useRef } from 'react';

const FOCUSABLE = 'select:not([disabled]), input:not([disabled]), button:not([disabled])';

/** Where focus goes once a list has changed: the first control of a row, or the list's add button. */
type Target = number | 'add';

/**
 * Keyboard users keep their place when rows come and go: after an add, focus lands on the new row's first
 * control; after a remove, on the row that took its place (or the one before it), or on the add button when the
 * list is empty. The rows are the children of `rowsRef`; the move happens once React has put them on the page.
 */
export function useRowFocus(rowCount: number) {
  const rowsRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const pending = useRef<Target | null>(null);

  useEffect(() => {
    const target = pending.current;
    if (target === null) return;
    pending.current = null;
    const row = target === 'add' ? null : rowsRef.current?.children.item(target);
    const control = row ? row.querySelector<HTMLElement>(FOCUSABLE) : addRef.current;
    control?.focus();
  });

  return {
    rowsRef,
    addRef,
    /** Call with the index of the row added (or replaced) before changing the list. */
    focusRow: (index: number) => {
      pending.current = index;
    },
    /** Call with the index of the row being removed, before removing it. */
    focusAfterRemove: (index: number) => {
      const left = rowCount - 1;
      pending.current = left === 0 ? 'add' : Math.min(index, left - 1);
    },
  };
}
