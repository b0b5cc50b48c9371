/*
 * The test cards of the payment sandbox (`@app/contracts/test-cards`): plain data, bundled into the
 * two widgets that list them (the plans page in test mode and the sandbox's checkout), so that no
 * other page loads them.
 */

/** Test cards of CloudPayments' test mode, which the sandbox also honours. */
export const TEST_CARDS = {
  success: '4242424242424242',
  successThenDecline: '4111111111111111',
  declined: '4012888888881881',
} as const;

/** The test cards with what each does, as the sandbox's pages list them. */
export const TEST_CARD_LIST: readonly { number: string; label: string }[] = [
  { number: TEST_CARDS.success, label: 'успешная оплата' },
  { number: TEST_CARDS.declined, label: 'отказ: недостаточно средств' },
  { number: TEST_CARDS.successThenDecline, label: 'успешно, но следующие автосписания не пройдут' },
];
