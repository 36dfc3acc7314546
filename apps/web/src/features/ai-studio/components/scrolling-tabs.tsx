import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** The width of a faded edge and its arrow (w-10). */
const EDGE = 40;

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
  icon: LucideIcon;
}

interface ScrollingTabsProps<Id extends string> {
  tabs: readonly TabItem<Id>[];
  active: Id;
  onSelect: (id: Id) => void;
  label: string;
  /** The prefix of each tab's and panel's id (`${base}-${id}-tab`, `${base}-${id}-panel`). */
  base: string;
}

/**
 * A WAI-ARIA tab list that scrolls sideways when its tabs are wider than the screen, and shows it: the clipped edge
 * fades and carries an arrow that scrolls a tab's width, so a phone reader knows more tabs exist (ADR 0059). The
 * arrows are for pointers only; keyboard users move with ←/→/Home/End, and the chosen tab is scrolled into view.
 */
export function ScrollingTabs<Id extends string>({ tabs, active, onSelect, label, base }: ScrollingTabsProps<Id>) {
  const list = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const element = list.current;
    if (!element) return;
    const before = element.scrollLeft > 1;
    const after = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
    setEdges((current) => (current.before === before && current.after === after ? current : { before, after }));
  }, []);

  useEffect(() => {
    measure();
    const element = list.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure]);

  // The chosen tab is scrolled clear of the faded edges, so it is never half under an arrow.
  useEffect(() => {
    const element = list.current;
    const tab = document.getElementById(`${base}-${active}-tab`);
    if (!element || !tab || element.scrollWidth <= element.clientWidth) return;
    const start = tab.offsetLeft - element.offsetLeft;
    const end = start + tab.offsetWidth;
    if (start - EDGE < element.scrollLeft) element.scrollTo({ left: Math.max(0, start - EDGE) });
    else if (end + EDGE > element.scrollLeft + element.clientWidth)
      element.scrollTo({ left: end + EDGE - element.clientWidth });
  }, [active, base]);

  const choose = (id: Id) => {
    onSelect(id);
    document.getElementById(`${base}-${id}-tab`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === active);
    const target =
      event.key === 'ArrowRight'
        ? tabs[(index + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(index + tabs.length - 1) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs.at(-1)
              : undefined;
    if (!target) return;
    event.preventDefault();
    choose(target.id);
  };
  const scrollBy = (direction: 1 | -1) => {
    const element = list.current;
    if (element) element.scrollBy({ left: direction * element.clientWidth * 0.6, behavior: 'smooth' });
  };

  const arrow = (direction: 1 | -1) => {
    const Icon = direction === 1 ? ChevronRight : ChevronLeft;
    return (
      <button
        type="button"
        // A pointer aid beside the tab list: out of the tab order and hidden from assistive technology.
        tabIndex={-1}
        aria-hidden="true"
        data-testid={direction === 1 ? 'tabs-more-after' : 'tabs-more-before'}
        onClick={() => scrollBy(direction)}
        className={clsx(
          'absolute inset-y-0 z-10 flex w-10 items-center text-gray-600 dark:text-gray-300',
          direction === 1
            ? 'right-0 justify-end bg-gradient-to-l from-gray-50 via-gray-50/90 to-transparent dark:from-gray-950 dark:via-gray-950/90'
            : 'left-0 justify-start bg-gradient-to-r from-gray-50 via-gray-50/90 to-transparent dark:from-gray-950 dark:via-gray-950/90',
        )}
      >
        <Icon className="size-5" />
      </button>
    );
  };

  return (
    <div className="relative border-b border-gray-200 dark:border-gray-800">
      {edges.before && arrow(-1)}
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        onScroll={measure}
        className="flex [scrollbar-width:none] gap-1 overflow-x-auto [&::-webkit-scrollbar]:hidden"
      >
        {tabs.map(({ id, label: tabLabel, icon: Icon }) => (
          <button
            key={id}
            id={`${base}-${id}-tab`}
            type="button"
            role="tab"
            aria-selected={active === id}
            aria-controls={`${base}-${id}-panel`}
            tabIndex={active === id ? 0 : -1}
            onClick={() => onSelect(id)}
            className={clsx(
              'inline-flex shrink-0 items-center gap-2 border-b-2 px-4 py-2 text-sm font-medium whitespace-nowrap',
              active === id
                ? 'border-blue-600 text-blue-700 dark:border-blue-400 dark:text-blue-300'
                : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100',
            )}
          >
            <Icon aria-hidden="true" className="size-4" />
            {tabLabel}
          </button>
        ))}
      </div>
      {edges.after && arrow(1)}
    </div>
  );
}
