import { TEST_CARD_LIST } from '@app/contracts/test-cards';

/** `4242424242424242` → `4242 4242 4242 4242`. */
const groups = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The payment sandbox's note: no money moves, and the test cards to pay with. */
export function SandboxNote() {
  return (
    <div className="tariffs__sandbox" role="note">
      <p className="tariffs__sandbox-title">Тестовый режим оплаты</p>
      <p>Деньги не списываются. Оплачивайте тестовыми картами (срок — любой будущий, CVV — любой):</p>
      <ul>
        {TEST_CARD_LIST.map((card) => (
          <li key={card.number}>
            <code>{groups(card.number)}</code> — {card.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
