import { Columns3 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { COLUMN_KEYS, DEFAULT_COLUMNS, type ColumnKey } from '../lib/columns.ts';

/** Which columns the table shows, ticked in a dialog; the name is always shown. */
export function ColumnChooser({
  columns,
  onChange,
}: {
  columns: readonly ColumnKey[];
  onChange: (columns: ColumnKey[]) => void;
}) {
  const { t } = useTranslation('campaigns');
  const [open, setOpen] = useState(false);
  const toggle = (key: ColumnKey, on: boolean) =>
    onChange(COLUMN_KEYS.filter((candidate) => (candidate === key ? on : columns.includes(candidate))));
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        <Columns3 aria-hidden="true" className="size-4" />
        {t('columns.choose')}
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={t('columns.chooseTitle')}
        size="sm"
        closeLabel={t('dialog.close')}
        footer={
          <>
            <Button variant="ghost" onClick={() => onChange([...DEFAULT_COLUMNS])}>
              {t('columns.reset')}
            </Button>
            <Button onClick={() => setOpen(false)}>{t('columns.done')}</Button>
          </>
        }
      >
        <fieldset>
          <legend className="sr-only">{t('columns.chooseTitle')}</legend>
          <ul className="grid grid-cols-2 gap-2 text-sm">
            {COLUMN_KEYS.map((key) => (
              <li key={key}>
                <label className="inline-flex items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={columns.includes(key)}
                    onChange={(event) => toggle(key, event.target.checked)}
                  />
                  {t(`columns.${key}`)}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      </Modal>
    </>
  );
}
