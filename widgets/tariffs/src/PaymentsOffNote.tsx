/** Said up front while no payment can be made (the payment sandbox is switched off). */
export function PaymentsOffNote() {
  return (
    <div className="tariffs__sandbox tariffs__sandbox--off" role="note">
      <p className="tariffs__sandbox-title">Оплата временно недоступна</p>
      <p>Сейчас нельзя оформить подписку или купить пакет. Попробуйте позже — действующая подписка и токены на балансе сохраняются.</p>
    </div>
  );
}
