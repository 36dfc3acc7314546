import { LanguageMenu } from './language-menu.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

/** The language menu and the theme toggle, as every public header shows them. */
export function DisplayControls({ menuClassName = 'w-40' }: { menuClassName?: string }) {
  return (
    <>
      <div className={menuClassName}>
        <LanguageMenu />
      </div>
      <ThemeToggle />
    </>
  );
}
