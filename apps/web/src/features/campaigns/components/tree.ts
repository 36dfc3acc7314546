import type { EntityRow } from '../api/types.ts';

/** One line of the explorer's table or cards: an entity at its depth, or a note under an expanded row. */
export type TreeItem =
  | { kind: 'entity'; key: string; entity: EntityRow; depth: number; expandable: boolean; expanded: boolean }
  | { kind: 'note'; key: string; depth: number; note: 'loading' | 'empty' | 'more'; parentId: string };
