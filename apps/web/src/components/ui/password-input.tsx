import { clsx } from 'clsx';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, type InputProps } from './input.tsx';

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  /** Labels of the toggle, for secrets that are not passwords (API keys). */
  toggleLabels?: { show: string; hide: string };
}

/** A masked input with a button that shows or hides what was typed. */
export function PasswordInput({ toggleLabels, className, ...props }: PasswordInputProps) {
  const { t } = useTranslation('common');
  const [visible, setVisible] = useState(false);
  const labels = toggleLabels ?? { show: t('password.show'), hide: t('password.hide') };
  return (
    <div className="relative">
      <Input type={visible ? 'text' : 'password'} className={clsx('pr-10', className)} {...props} />
      <button
        type="button"
        onClick={() => setVisible((shown) => !shown)}
        aria-label={visible ? labels.hide : labels.show}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-gray-500 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-gray-400 dark:hover:text-gray-200"
      >
        {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
      </button>
    </div>
  );
}
