import type { WidgetProps } from '@app/contracts/browser';

/** Being built: the catalogue and its screens. */
export function AiProducts(props: WidgetProps<'ai-products'>) {
  return <p>{props.historyUrl}</p>;
}
