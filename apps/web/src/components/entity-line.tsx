import { clsx } from 'clsx';
import { ListTree } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { entityHref, parentTrail, type NamedEntity } from '../api/entities.ts';

/**
 * Where an entity named elsewhere sits ("Summer sale › Broad 18-65+") and a link to its page in the explorer, so
 * two ad sets with one name read apart (ADR 0105). Nothing when the answer names neither its parents nor our id.
 */
export function EntityLine({ entity, className }: { entity: NamedEntity; className?: string }) {
  const { t } = useTranslation('common');
  const href = entityHref(entity);
  const trail = parentTrail(entity.parents);
  if (!href && trail.length === 0) return null;
  const path = [...trail, entity.name].join(' › ');
  return (
    <p className={clsx('flex min-w-0 items-center gap-1 text-xs text-gray-600 dark:text-gray-400', className)}>
      <ListTree aria-hidden="true" className="size-3.5 shrink-0" />
      {href ? (
        <Link
          to={href}
          className="min-w-0 break-words text-blue-700 hover:underline dark:text-blue-300"
          aria-label={t('entityLink', { path })}
        >
          {path}
        </Link>
      ) : (
        <span className="min-w-0 break-words">{path}</span>
      )}
    </p>
  );
}

/** The entity an activity entry names, from its metadata (`target`, else `entity`), when it names one. */
export function entityOfMetadata(metadata: Record<string, unknown>): NamedEntity | null {
  const candidate = (metadata.target ?? metadata.entity) as Record<string, unknown> | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.name !== 'string') return null;
  return candidate as unknown as NamedEntity;
}
