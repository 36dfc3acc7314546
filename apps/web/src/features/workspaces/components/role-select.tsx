import type { WorkspaceRole } from '@adpilot/contracts';
import { useTranslation } from 'react-i18next';

export const SELECT_CLASS =
  'h-10 rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100';

interface RoleSelectProps {
  id?: string;
  value: WorkspaceRole;
  roles: readonly WorkspaceRole[];
  onChange: (role: WorkspaceRole) => void;
  disabled?: boolean;
  label?: string;
}

/** A role picker offering only the roles the user may give. */
export function RoleSelect({ id, value, roles, onChange, disabled, label }: RoleSelectProps) {
  const { t } = useTranslation('common');
  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as WorkspaceRole)}
      className={SELECT_CLASS}
    >
      {roles.map((role) => (
        <option key={role} value={role}>
          {t(`workspace.roles.${role}`)}
        </option>
      ))}
    </select>
  );
}

/** A role shown, not changed. */
export function RoleBadge({ role }: { role: WorkspaceRole }) {
  const { t } = useTranslation('common');
  return (
    <span className="inline-flex items-center rounded-full bg-gray-100 px-2.5 py-0.5 text-xs font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300">
      {t(`workspace.roles.${role}`)}
    </span>
  );
}
