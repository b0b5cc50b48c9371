import { RoutedLink } from './ui.tsx';

/** The sections of «Тарифы»: the plans and packages, and the promo codes that give tokens or take money off a plan. */
export function TariffSections({ current, navigate }: { current: 'tariffs' | 'promo'; navigate: (href: string) => void }) {
  const link = (section: typeof current, href: string, label: string) => (
    <RoutedLink href={href} navigate={navigate} className={`admin-sections__link${current === section ? ' is-current' : ''}`}>
      <span aria-current={current === section ? 'page' : undefined}>{label}</span>
    </RoutedLink>
  );
  return (
    <nav className="admin-sections" aria-label="Разделы тарифов">
      {link('tariffs', '/admin/tariff', 'Тарифы и пакеты')}
      {link('promo', '/admin/promo-codes', 'Промокоды')}
    </nav>
  );
}
