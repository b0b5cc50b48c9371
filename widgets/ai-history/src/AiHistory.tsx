import type { WidgetProps } from '@app/contracts/browser';

/** Being built: the grid of runs. */
export function AiHistory(props: WidgetProps<'ai-history'>) {
  return <p>{props.type}</p>;
}
